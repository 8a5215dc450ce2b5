// The "Failed findings" counts (output/headline.ts countRows), shown in the job summary and the HTML
// page: whatever the findings, baseline, waivers, history and gate, the rows above "Failed in all"
// add up to it, each failed finding in one of them, and a fixed finding (not failed now) is in none.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FindingView, Severity } from '../../../src/client/types.js';
import { judgeFindings, type FailOn, type GateSeverity } from '../../../src/pipeline/gate/judge.js';
import type { HistoryRead } from '../../../src/pipeline/gate/history.js';
import { countRows } from '../../../src/pipeline/output/headline.js';
import { propertyParameters } from '../../helpers/property.js';

const NOW = Date.parse('2026-11-20T10:00:00Z');
const SEVERITIES: Severity[] = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];
const THRESHOLDS: GateSeverity[] = ['critical', 'high', 'medium', 'low', 'info'];
const FAIL_ON: FailOn[] = ['any', 'new', 'overdue'];

const finding = (identity: string, severity: Severity): FindingView => ({
  id: identity,
  identity,
  title: identity,
  severity,
  result: 'Failed',
});

const checks = fc.uniqueArray(fc.integer({ min: 0, max: 11 }), { maxLength: 12 });

const judging = fc.record({
  failed: fc.uniqueArray(
    fc.record({ n: fc.integer({ min: 0, max: 11 }), severity: fc.constantFrom(...SEVERITIES) }),
    { selector: (f) => f.n, maxLength: 12 },
  ),
  baseline: fc.option(checks, { nil: undefined }),
  waived: fc.array(
    fc.record({ n: fc.integer({ min: 0, max: 11 }), days: fc.integer({ min: -5, max: 20 }) }),
  ),
  overdue: fc.option(checks, { nil: undefined }),
  threshold: fc.constantFrom(...THRESHOLDS),
  failOn: fc.constantFrom(...FAIL_ON),
});

describe('countRows', () => {
  it('the rows above "Failed in all" add up to it; fixed findings are in no row', () => {
    fc.assert(
      fc.property(judging, (j) => {
        const day = (days: number) => new Date(NOW + days * 86_400_000).toISOString().slice(0, 10);
        const history: HistoryRead | undefined =
          j.overdue === undefined
            ? undefined
            : { kind: 'read', scans: [], complete: true, later: 0 };
        const ages =
          j.overdue === undefined
            ? undefined
            : new Map(
                j.overdue.map((n) => [
                  `CHK-${n}`,
                  { failingScans: 2, beyondWindow: false, overdue: true },
                ]),
              );
        const gate = judgeFindings(
          j.failed.map((f) => finding(`CHK-${f.n}`, f.severity)),
          {
            threshold: j.threshold,
            failOn: j.failOn,
            baseline: j.baseline === undefined ? { kind: 'none' } : { kind: 'previous' },
          },
          {
            baseline:
              j.baseline === undefined
                ? { kind: 'none' }
                : {
                    kind: 'found',
                    source: 'scan X',
                    failed: j.baseline.map((n) => finding(`CHK-${n}`, 'high')),
                  },
            waivers: j.waived.map((w, line) => ({
              check: `CHK-${w.n}`,
              reason: 'r',
              expires: day(w.days),
              line,
            })),
            history,
            ages,
          },
          NOW,
        );
        const rows = countRows(gate);
        const total = rows.findIndex((row) => row.label === 'Failed in all');
        assert.ok(total > 0, 'a "Failed in all" row, after the breakdown');
        const parts = rows.slice(0, total).reduce((sum, row) => sum + row.count, 0);
        assert.equal(parts, rows[total]?.count);
        assert.equal(rows[total]?.count, j.failed.length);
        assert.ok(
          rows.every((row) => !/fixed/i.test(row.label)),
          'no fixed row',
        );
        const after = rows.slice(total + 1);
        assert.ok(after.every((row) => /^Of these/.test(row.label) && row.count <= parts));
      }),
      propertyParameters(200),
    );
  });
});
