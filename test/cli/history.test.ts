// History and deadlines on the bundled CLI: --history N gives each finding its failing streak in
// the JSON (a pass in between restarts it), --fail-on overdue exits 2 exactly when a finding is past
// its deadline, and --sla-days without --history is refused before any request.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, PastScan } from '../emulator/types.js';
import { assertBundleBuilt, cliEnv, lines, runCli } from './helpers.js';

const DAY = 86_400_000;
const CRITICAL = 'CIS-1.1.1';
const HIGH = 'CIS-1.1.2';

let emu: Emulator;
before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 51, clockSpeed: 100 });
});
after(() => emu.close());

/** A tenant of its own with this history; runs the CLI with its key. */
function tenant(failedNow: string[], past: PastScan[]) {
  const { tenantId, apiKey } = emu.addTenant({
    scanPlan: {
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 60, failed: 0, failedChecks: failedNow },
    },
  });
  const ids = emu.seedHistory(past, tenantId);
  const time = (id: string | undefined) => emu.scans(tenantId).find((s) => s.id === id)?.createdAt;
  return {
    ids,
    time,
    run: (args: string[]) => runCli(args, cliEnv(emu, { SERVICE_API_KEY: apiKey })),
  };
}

interface Output {
  overdue: number | null;
  trend: number[];
  findings: Array<{
    checkId: string;
    failingSince?: string | null;
    failingScans?: number;
    dueAt?: string;
    overdue?: boolean;
  }>;
}

const RUN = ['scan', 'run', '--type', 'compliance', '--watch', '--json'];

describe('CLI: history and remediation deadlines', () => {
  it('--history: each finding its streak in the JSON, the trend and the overdue count', async () => {
    const { ids, time, run } = tenant(
      [CRITICAL, HIGH],
      [
        { ageMs: 1 * DAY, failedChecks: [CRITICAL, HIGH] },
        { ageMs: 2 * DAY, failedChecks: [CRITICAL] },
        { ageMs: 10 * DAY, failedChecks: [CRITICAL, HIGH] },
      ],
    );
    const result = await run([...RUN, '--history', '10']);
    assert.equal(result.code, 0, result.stderr);
    const output = JSON.parse(result.stdout) as Output;
    const of = (check: string) => output.findings.find((f) => f.checkId === check)!;
    assert.equal(of(CRITICAL).failingSince, time(ids[2]));
    assert.equal(of(CRITICAL).failingScans, 4);
    assert.equal(of(CRITICAL).overdue, true, 'critical, 10 days: past 7');
    assert.equal(of(HIGH).failingSince, time(ids[0]), 'the pass 2 days ago broke its streak');
    assert.equal(of(HIGH).failingScans, 2);
    assert.equal(of(HIGH).overdue, false);
    assert.equal(of(HIGH).dueAt, new Date(Date.parse(time(ids[0])!) + 30 * DAY).toISOString());
    assert.equal(output.overdue, 1);
    assert.deepEqual(output.trend, [2, 1, 2, 2]);
  });

  it('--fail-on overdue --fail-on-findings: exit 2 past the deadline, 0 within it', async () => {
    for (const [days, code] of [
      [6, 0],
      [8, 2],
    ] as const) {
      const { run } = tenant([CRITICAL], [{ ageMs: days * DAY, failedChecks: [CRITICAL] }]);
      const result = await run([
        ...RUN,
        '--history',
        '3',
        '--fail-on',
        'overdue',
        '--fail-on-findings',
      ]);
      assert.equal(result.code, code, `${days} days: ${result.stderr}`);
      if (code === 2) {
        assert.match(lines(result.stderr).at(-1) ?? '', /^Findings gate: 1 overdue failed finding/);
      }
    }
  });

  it('--sla-days without --history: one line, nothing sent', async () => {
    const { run } = tenant([CRITICAL], []);
    emu.clearRequests();
    const result = await run([...RUN, '--sla-days', 'critical=3']);
    assert.equal(result.code, 1);
    assert.deepEqual(lines(result.stderr), [
      'tenant-scan: error: Sanity checks failed: --sla-days needs --history (how many previous scans to read to age the findings)',
    ]);
    assert.equal(emu.requests().length, 0);
  });
});

describe('CLI: time that runs forward', () => {
  it('a service whose clock says 1970: ages unknown, --fail-on overdue exits 2, the skew named', async () => {
    const epoch = await startEmulator({ seed: 52, clockSpeed: 100, epochMs: 3_600_000 });
    try {
      epoch.setScanPlan({
        durationMs: 500,
        queuedMs: 50,
        outcome: { kind: 'completed', total: 60, failed: 0, failedChecks: [CRITICAL] },
      });
      // A day ago on that clock; within its 7 days, were the clock right.
      epoch.seedHistory([{ ageMs: DAY / 2, failedChecks: [CRITICAL] }]);
      const args = [...RUN, '--history', '3', '--fail-on', 'overdue', '--fail-on-findings'];
      const result = await runCli(args, cliEnv(epoch));
      assert.equal(result.code, 2, result.stderr);
      assert.match(
        result.stderr,
        /warning: History: clock skew: the current scan is dated "1970-01-01T\S+", which cannot be right; every age counts as unknown, so overdue/,
      );
      const output = JSON.parse(result.stdout) as Output;
      assert.equal(output.overdue, 1);
      assert.equal(output.findings[0]?.failingSince, null, 'unknown');
    } finally {
      await epoch.close();
    }
  });

  it('scan results of an older scan: later scans are left out and counted, not skew', async () => {
    const { ids, run } = tenant(
      [CRITICAL],
      [
        { ageMs: 1 * DAY, failedChecks: [CRITICAL] },
        { ageMs: 3 * DAY, failedChecks: [CRITICAL] },
        { ageMs: 4 * DAY, failedChecks: [] },
      ],
    );
    const result = await run(['scan', 'results', ids[1]!, '--history', '5', '--fail-on-findings']);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /History: 1 previous scan read \(1 later scan left out\); failed findings 0 → 1;/,
    );
  });
});
