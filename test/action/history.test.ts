// History with remediation deadlines, on the bundled action against a seeded history: how long each
// finding has failed (a pass in between restarts its streak), `fail-on: overdue` at the boundary of
// the deadline, the trend and overdue outputs, SARIF properties, the summary's groups; a history
// that cannot be read whole makes every age unknown (overdue).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { PastScan, ScanPlan } from '../emulator/types.js';
import { renderedText } from '../helpers/gfm.js';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog } from './world.js';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const CRITICAL = 'CIS-1.1.1';
const HIGH = 'CIS-1.1.2';

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 60, failed: 0, failedChecks } };
}

interface SarifResult {
  ruleId: string;
  properties: { failingSince?: string; failingScans?: number; dueAt?: string; overdue?: boolean };
}

describe('action: history and remediation deadlines', () => {
  const world = useWorld();

  /** A tenant of its own: the history of one test is not another's. */
  function tenant(failedNow: string[], past: PastScan[]) {
    const { tenantId, apiKey } = world.emulator.addTenant({ scanPlan: failing(failedNow) });
    const ids = world.emulator.seedHistory(past, tenantId);
    return {
      ids,
      run: (inputs: Record<string, string>) => world.main({ ...inputs, 'api-key': apiKey }),
    };
  }

  it('each finding its failing streak: a pass in between restarts it; SARIF and outputs say so', async () => {
    const { ids, run } = tenant(
      [CRITICAL, HIGH],
      [
        { ageMs: 1 * DAY, failedChecks: [CRITICAL, HIGH] },
        { ageMs: 2 * DAY, failedChecks: [CRITICAL] },
        { ageMs: 3 * DAY, failedChecks: [CRITICAL, HIGH] },
      ],
    );
    const [oneDay, , threeDays] = ids;
    const step = await run({ history: '5', 'sarif-file': 'r.sarif' });
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    const sarif = JSON.parse(await readFile(step.outputs['sarif-file'] ?? '', 'utf8')) as {
      runs: Array<{ results: SarifResult[] }>;
    };
    const byRule = new Map(sarif.runs[0]!.results.map((r) => [r.ruleId, r.properties]));
    const timeOf = (id: string | undefined) =>
      world.emulator.scans().find((s) => s.id === id)!.createdAt;
    assert.equal(byRule.get(CRITICAL)?.failingSince, timeOf(threeDays));
    assert.equal(byRule.get(CRITICAL)?.failingScans, 4);
    assert.equal(byRule.get(HIGH)?.failingSince, timeOf(oneDay), 'the pass broke its streak');
    assert.equal(byRule.get(HIGH)?.failingScans, 2);
    assert.equal(step.outputs.overdue, '0');
    assert.equal(step.outputs.trend, '█▁██ 2 → 1 → 2 → 2');
    // Three results reads of the history, and no second read of the newest for a baseline.
    assert.equal(apiRequests(world.emulator, 'GET', /\/results$/).length, 4);
    assert.match(
      renderedText(step.summary),
      /due in 4 days, failing since \d{4}-\d{2}-\d{2} \(4 scans\)/,
    );
  });

  for (const [name, ageDays, overdue] of [
    ['one day before the deadline', 6, false],
    ['on the day, an hour before it', 7 - 1 / 24, false],
    ['on the day, an hour after it', 7 + 1 / 24, true],
    ['one day after', 8, true],
  ] as const) {
    it(`fail-on: overdue, ${name}: ${overdue ? 'fails' : 'passes'}`, async () => {
      const { run } = tenant(
        [CRITICAL],
        [
          { ageMs: 2 * DAY, failedChecks: [CRITICAL] },
          { ageMs: ageDays * DAY, failedChecks: [CRITICAL] },
          { ageMs: (ageDays + 1) * DAY, failedChecks: [] },
        ],
      );
      const step = await run({ history: '3', 'fail-on': 'overdue', 'sla-days': 'critical=7' });
      assert.equal(step.outputs.verdict, overdue ? 'failed' : 'passed', visibleLog(step));
      assert.equal(step.outputs.overdue, overdue ? '1' : '0');
      assert.equal(step.exitCode, overdue ? 1 : 0);
      if (overdue) {
        assert.match(errorLines(step).at(-1) ?? '', /^Verdict failed: 1 overdue failed finding/);
      }
    });
  }

  it('a history that cannot be read whole: a warning, every age unknown, so overdue', async () => {
    const { ids, run } = tenant([CRITICAL], [{ ageMs: DAY, failedChecks: [CRITICAL] }]);
    const [past] = ids;
    world.emulator.addFault({
      route: `GET /scans/${past}/results`,
      fault: { kind: 'data', data: 'ok' },
      times: Infinity,
    });
    const step = await run({ history: '3', 'fail-on': 'overdue' });
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    assert.ok(
      step.annotations.some(
        (a) =>
          a.level === 'warning' &&
          /^History: could not be read whole \(.*page 1 is not a list/.test(a.message),
      ),
      visibleLog(step),
    );
    assert.equal(step.outputs.overdue, '1');
  });

  it('previous scans dated after the current one (clock skew): a warning naming it, ages unknown, fail-on: overdue fails', async () => {
    // Without the check, the two would be dropped and the finding (failing for 20 days, due in
    // 7) would count as new: due in 7 days, a pass.
    const { ids, run } = tenant(
      [CRITICAL],
      [
        // Scanned 1 and 2 days ago, stamped by a clock running 1 and 2 hours past now.
        { ageMs: 1 * DAY, failedChecks: [CRITICAL], clockSkewMs: DAY + HOUR },
        { ageMs: 2 * DAY, failedChecks: [CRITICAL], clockSkewMs: 2 * DAY + 2 * HOUR },
        { ageMs: 20 * DAY, failedChecks: [CRITICAL] },
      ],
    );
    const step = await run({ history: '5', 'fail-on': 'overdue', 'sla-days': 'critical=7' });
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    assert.equal(step.exitCode, 1);
    assert.equal(step.outputs.overdue, '1');
    const warning = step.annotations.find(
      (a) => a.level === 'warning' && /^History:/.test(a.message),
    );
    assert.match(
      warning?.message ?? '',
      new RegExp(
        `^History: clock skew: scan (${ids[0]}|${ids[1]}) is dated \\S+, at or after the current scan \\(\\S+\\); 1 more scan too; every age counts as unknown, so overdue$`,
      ),
      visibleLog(step),
    );
    assert.equal(apiRequests(world.emulator, 'GET', /\/results$/).length, 1, 'no history read');
  });

  it('fail-on: overdue without a history, or sla-days without one: one line, nothing sent', async () => {
    const cases: Array<Record<string, string>> = [
      { 'fail-on': 'overdue' },
      { 'sla-days': 'critical=7' },
    ];
    for (const inputs of cases) {
      const step = await world.main(inputs);
      assert.equal(step.exitCode, 1);
      assert.match(
        errorLines(step)[0] ?? '',
        /^Sanity checks failed: .*(no history is read|needs input 'history')/,
      );
    }
    assert.equal(world.emulator.requests().length, 0);
  });
});
