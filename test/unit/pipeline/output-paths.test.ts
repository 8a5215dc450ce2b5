// The output path check's probe (src/pipeline/common/output-paths.ts): a file made and removed in
// the folder, so that many checks of one folder at once (a many-tenants run checks every record)
// neither collide nor leave a probe behind.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkWritableFile } from '../../../src/pipeline/common/output-paths.js';

describe('checkWritableFile', () => {
  it('200 checks of one folder at once all pass and leave nothing behind', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-'));
    try {
      const problems = await Promise.all(
        Array.from({ length: 200 }, (_, i) => checkWritableFile('record', join(dir, `${i}.json`))),
      );
      assert.deepEqual(
        problems.filter((p) => p !== undefined),
        [],
      );
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
