// The output path check's probe (src/pipeline/common/output-paths.ts): a file made and removed in
// the folder, so that many checks of one folder at once (a many-tenants run checks every record)
// neither collide nor leave a probe behind.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkInsideRoots, checkWritableFile } from '../../../src/pipeline/common/output-paths.js';

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

  // Found by test/unit/pipeline/output-paths.property.test.ts: both passed the check, and the
  // write failed at the end of the run, after the scan.
  it('refuses a path through a link to nothing, judged where the link points', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-'));
    try {
      await mkdir(join(dir, 'ws'));
      await symlink(join(dir, 'outside', 'none'), join(dir, 'ws', 'gone'));
      const path = join(dir, 'ws', 'gone', 'x.sarif');
      assert.match(
        (await checkWritableFile('sarif-file', path)) ?? '',
        /^sarif-file ".*" cannot be written: ".*gone" is a symbolic link to nothing$/,
      );
      const workspace = [{ name: 'the workspace', path: join(dir, 'ws') }];
      assert.match((await checkInsideRoots('sarif-file', path, workspace)) ?? '', /is outside/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses a name too long for a report download's temporary file beside it", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-'));
    try {
      // 213 + 43 bytes of `.<name>.<uuid>.part` passes the file system's 255.
      for (const path of [join(dir, 'a'.repeat(213)), join(dir, 'new', 'a'.repeat(213))]) {
        assert.match(
          (await checkWritableFile('report-path', path)) ?? '',
          /cannot be written: its name is too long for the file system \(ENAMETOOLONG\)$/,
        );
      }
      assert.equal(await checkWritableFile('report-path', join(dir, 'a'.repeat(212))), undefined);
      assert.match(
        (await checkWritableFile('report-path', join(dir, '．'.repeat(86), 'r.pdf'))) ?? '',
        /a folder name in it is too long for the file system \(ENAMETOOLONG\)$/,
      );
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('refuses a path longer than a system call takes (PATH_MAX) with a temporary name beside it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'probe-'));
    try {
      const deep = join(dir, ...Array.from({ length: 21 }, (_, i) => `${i}`.padEnd(200, 'd')));
      assert.match(
        (await checkWritableFile('junit-file', join(deep, 'junit.xml'))) ?? '',
        /cannot be written: the path is too long for the file system \(ENAMETOOLONG\)$/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
