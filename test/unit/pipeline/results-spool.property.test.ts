// The results file is written while the results are read (src/pipeline/common/results-spool.ts):
// each failed result to a file of its severity, joined worst first once the read is whole. Whatever
// the results and their order, the file is exactly what writing them all at once wrote (worst
// first, ties in the order read, one result a line), and nothing else is left beside it; a read
// that is not whole leaves nothing at all.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { Finding, Severity } from '../../../src/client/index.js';
import { jsonArray } from '../../../src/pipeline/common/files.js';
import { SEVERITY_ORDER, severityRank } from '../../../src/pipeline/common/findings.js';
import { ResultsSpool } from '../../../src/pipeline/common/results-spool.js';
import { propertyParameters } from '../../helpers/property.js';

const severity = fc.constantFrom<Severity>(...SEVERITY_ORDER, 'unknown');
/** Results of any content, some long enough to fill a batch (32 KiB) alone. */
const result = fc.record({
  finding: fc.oneof(
    fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 5 }),
    fc
      .tuple(fc.string({ unit: 'grapheme', minLength: 1, maxLength: 4 }), fc.nat(12_000))
      .map(([unit, times]) => ({ description: unit.repeat(times), result: 'Failed' })),
  ) as fc.Arbitrary<Finding>,
  severity,
});

/** The file as the whole list written at once: stable, worst first. */
function expected(results: Array<{ finding: Finding; severity: Severity }>): string {
  const sorted = results
    .map((r, index) => ({ ...r, index }))
    .sort((a, b) => severityRank(a.severity) - severityRank(b.severity) || a.index - b.index);
  return [...jsonArray(sorted.map((r) => r.finding))].join('');
}

describe('the results file, spooled', () => {
  it('property: the file written whole is the results worst first, nothing beside it; a discarded one leaves nothing', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(result, { maxLength: 60 }),
        fc.boolean(),
        async (results, whole) => {
          const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-spool-'));
          try {
            const target = join(dir, 'sub', 'failed-results.json');
            const spool = await ResultsSpool.open(target);
            for (const { finding, severity } of results) spool.add(finding, severity);
            if (!whole) {
              await spool.discard();
              assert.deepEqual(await readdir(join(dir, 'sub')), []);
              return;
            }
            assert.equal(await spool.finish(), target);
            assert.equal(await readFile(target, 'utf8'), expected(results));
            assert.deepEqual(await readdir(join(dir, 'sub')), ['failed-results.json']);
          } finally {
            await rm(dir, { recursive: true, force: true });
          }
        },
      ),
      propertyParameters(60),
    );
  });
});
