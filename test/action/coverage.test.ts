// Issue 47 through dist/ run as the runner runs it: a scan that evaluated fewer checks than the
// previous one fails the step and names them (max-coverage-drop 100 passes the same run); every
// result kind is counted in the job summary, JUnit and SARIF, and a failed result of any word
// reaches the results file; stall-minutes cancels a scan whose progress stopped; a tenant label puts
// the tenant in the SARIF category and fingerprints.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import { finishedScan } from '../emulator/test-http.js';
import type { ScanPlan } from '../emulator/types.js';
import { renderedText } from '../helpers/gfm.js';
import { createJobDirectory } from '../helpers/runner.js';
import { QUICK_SCAN, errorLines, useWorld, visibleLog } from './world.js';

function plan(outcome: Partial<Extract<ScanPlan['outcome'], { kind: 'completed' }>> = {}) {
  return {
    ...QUICK_SCAN,
    outcome: { kind: 'completed' as const, total: 40, failed: 0, failedChecks: [], ...outcome },
  };
}

describe('action: coverage, kinds, stalls, tenant labels', () => {
  const world = useWorld();

  it('a coverage drop fails the step and names the checks; max-coverage-drop 100 passes the same scan', async () => {
    world.emulator.setScanPlan(plan());
    const baseline = await finishedScan(world.emulator);
    world.emulator.setScanPlan(plan({ total: 34 }));
    const current = await finishedScan(world.emulator);
    world.emulator.clearRequests();
    const inputs = { 'scan-id': current, baseline: 'previous' };
    const step = await world.main(inputs);
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.equal(step.outputs.verdict, 'failed');
    const gone = [34, 35, 36, 37, 38, 39].map(checkIdAt);
    assert.equal(
      errorLines(step)
        .at(-1)
        ?.split('; ')[0]
        ?.replace(/ of \d{4}-\d\d-\d\d /, ' of DAY '),
      `Verdict failed: Coverage dropped: 6 of 40 checks evaluated in scan ${baseline} of DAY were not evaluated now (${gone.join(', ')}): 15 %, more than 10 % (max-coverage-drop)`,
    );
    const summary = renderedText(step.summary);
    assert.match(
      summary,
      /^❌ Tenant scan failed: 6 of the baseline's 40 evaluated checks not evaluated now$/m,
    );
    assert.match(
      summary,
      new RegExp(`^Evaluated in the baseline, not evaluated now: ${gone.join(', ')}$`, 'm'),
    );
    const off = await world.main({ ...inputs, 'max-coverage-drop': '100' });
    assert.equal(off.exitCode, 0, visibleLog(off));
    assert.equal(off.outputs.verdict, 'passed');
  });

  it('every result kind is counted in the job summary, JUnit and SARIF', async () => {
    const words = {
      [checkIdAt(1)]: 'Skipped',
      [checkIdAt(2)]: 'not_applicable',
      [checkIdAt(3)]: 'NotLicensed',
      [checkIdAt(4)]: 'Error',
      [checkIdAt(5)]: 'NotRun',
      [checkIdAt(6)]: 'Deferred',
    };
    world.emulator.setScanPlan(plan({ failedChecks: [checkIdAt(0)], resultWords: words }));
    const job = await createJobDirectory();
    const step = await world.main(
      { 'junit-file': 'j.xml', 'sarif-file': 's.sarif', 'fail-on-findings': 'false' },
      { job },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    const summary = renderedText(step.summary);
    for (const row of [
      'Passed | 33',
      'Failed | 1',
      'Not evaluated: skipped | 1',
      'Not evaluated: not applicable | 1',
      'Not evaluated: not licensed | 1',
      'Not evaluated: error | 1',
      'Not evaluated: not run | 1',
      'Not evaluated: deferred | 1',
      'Not evaluated in all | 6',
      'Checks in all | 40',
    ])
      assert.match(summary, new RegExp(`^${row}$`, 'm'), row);
    const junit = await readFile(join(job.workspace, 'j.xml'), 'utf8');
    assert.match(junit, /tests="40" failures="1" errors="1" skipped="5"/);
    const sarif = JSON.parse(await readFile(join(job.workspace, 's.sarif'), 'utf8')) as {
      runs: Array<{
        invocations: Array<{ toolExecutionNotifications: Array<{ message: { text: string } }> }>;
      }>;
    };
    assert.equal(
      sarif.runs[0]?.invocations[0]?.toolExecutionNotifications[0]?.message.text,
      '40 checks: 33 passed, 1 failed, 6 not evaluated (1 skipped, 1 not applicable, 1 not licensed, 1 error, 1 not run, 1 deferred).',
    );
  });

  it('every word that says failed puts its result in the results file, as read', async () => {
    // The results file is spooled while the results stream in (results-spool.ts): it must ask the
    // one decision of what failed (result-kinds.ts), not compare with "Failed".
    const words = {
      [checkIdAt(1)]: 'Noncompliant',
      [checkIdAt(2)]: 'FAIL',
      [checkIdAt(3)]: 'Skipped',
    };
    world.emulator.setScanPlan(plan({ failedChecks: [checkIdAt(0)], resultWords: words }));
    const step = await world.main({ 'junit-file': 'j.xml', 'fail-on-findings': 'false' });
    assert.equal(step.exitCode, 0, visibleLog(step));
    const file = step.outputs['results-file'] ?? '';
    const written = JSON.parse(await readFile(file, 'utf8')) as Array<{ result: string }>;
    assert.deepEqual(written.map((r) => r.result).sort(), ['FAIL', 'Failed', 'Noncompliant']);
    assert.equal(step.outputs.failed, '3');
  });

  it('stall-minutes: a scan whose progress stopped is cancelled and the step fails', async () => {
    world.emulator.setScanPlan({
      ...plan(),
      durationMs: 5_000,
      stall: { afterMs: 100, forMs: Infinity },
    });
    const step = await world.main({ 'stall-minutes': '0.02', 'scan-timeout-minutes': '5' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    const scanId = step.outputs['scan-id'];
    assert.deepEqual(errorLines(step), [
      `Wait failed: the scan stalled: no progress for 1 second (at ${world.emulator.scans().find((s) => s.id === scanId)?.progress} %; stall-minutes); scan ${scanId} was cancelled remotely`,
    ]);
    assert.equal(world.emulator.scans().find((s) => s.id === scanId)?.status, 'cancelled');
    assert.equal(step.outputs.verdict ?? '', '');
  });

  it('tenant-label: the SARIF category and every fingerprint carry it', async () => {
    world.emulator.setScanPlan(plan({ failedChecks: [checkIdAt(0)] }));
    const job = await createJobDirectory();
    const step = await world.main(
      { 'tenant-label': 'contoso', 'sarif-file': 's.sarif', 'fail-on-findings': 'false' },
      { job },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    const sarif = JSON.parse(await readFile(join(job.workspace, 's.sarif'), 'utf8')) as {
      runs: Array<{
        automationDetails: { id: string };
        results: Array<{ partialFingerprints: Record<string, string> }>;
      }>;
    };
    const run = sarif.runs[0];
    assert.equal(
      run?.automationDetails.id,
      `tenant-scan/compliance/contoso/${step.outputs['scan-id']}`,
    );
    assert.deepEqual(
      run?.results.map((r) => r.partialFingerprints['tenantScanCheck/v1']),
      [`contoso/${checkIdAt(0)}`],
    );
  });
});
