// A results spool (pipeline/common/results-spool.ts) when a page's answer streams in again: what
// was added since the last accepted page does not count, whether it was still pending or already
// written to the severity's file (a page bigger than a batch).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ResultsSpool } from '../../../src/pipeline/common/results-spool.js';

const finding = (checkId: string, size = 10) => ({
  checkId,
  severity: 'high',
  result: 'Failed',
  description: 'é'.repeat(size),
});

async function ids(spool: ResultsSpool, dir: string): Promise<string[]> {
  const path = await spool.finish();
  const written = JSON.parse(await readFile(path, 'utf8')) as Array<{ checkId: string }>;
  assert.deepEqual(await readdir(dir), ['r.json'], 'nothing left beside the file');
  return written.map((f) => f.checkId);
}

describe('results spool: a page read again', () => {
  for (const [what, size] of [
    ['still pending', 10],
    ['already written (a page bigger than a batch)', 40_000],
  ] as const) {
    it(`what the retried page added does not count: ${what}`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-spool-retry-'));
      try {
        const spool = await ResultsSpool.open(join(dir, 'r.json'));
        spool.add(finding('A'), 'high');
        spool.mark();
        spool.add(finding('B1', size), 'high');
        spool.add(finding('B2', size), 'critical');
        spool.rollback();
        // Read again, the page is shorter: nothing of the first reading may stay behind it.
        spool.add(finding('B1'), 'high');
        spool.add(finding('B2'), 'critical');
        spool.mark();
        assert.deepEqual(await ids(spool, dir), ['B2', 'A', 'B1']);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
