// Issue 47 through the bundled CLI against the emulator: a scan that evaluated fewer checks than
// its baseline fails the gate and names them (--max-coverage-drop 100 passes the same run); every
// result kind is counted in the table, the JSON/record, JUnit, SARIF, the roll-up and the chat
// message; a false positive is a SARIF suppression the multitool accepts; a stalled scan is
// cancelled within --stall-minutes plus one poll; two tenants' SARIF differ in category and
// fingerprints.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { finishedScan } from '../emulator/test-http.js';
import { checkIdAt } from '../emulator/findings.js';
import type { Emulator, ScanPlan } from '../emulator/types.js';
import { multitoolProblems, sarifMultitool, sarifSchemaProblems } from '../formats/validators.js';
import { startWebhookStandin, type WebhookStandin } from '../helpers/webhook-standin.js';
import { assertBundleBuilt, cliEnv, runCli } from './helpers.js';

const PACING_MS = 100;
/** Every kind a service may send, spelled as services do, and a word nobody knows. */
const EVERY_KIND: Record<string, string> = {
  [checkIdAt(2)]: 'Skipped',
  [checkIdAt(3)]: 'NotApplicable',
  [checkIdAt(4)]: 'N/A',
  [checkIdAt(5)]: 'not_licensed',
  [checkIdAt(6)]: 'Error',
  [checkIdAt(7)]: 'NotRun',
  [checkIdAt(8)]: 'Deferred',
  [checkIdAt(9)]: 'DEFERRED',
  [checkIdAt(10)]: 'passed',
};

let emu: Emulator;
let dir: string;
let hook: WebhookStandin;

function plan(outcome: Partial<Extract<ScanPlan['outcome'], { kind: 'completed' }>> = {}) {
  return {
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed' as const, total: 40, failed: 0, failedChecks: [], ...outcome },
  };
}

function cli(args: string[], env = cliEnv(emu)) {
  return runCli(args, env, { cwd: dir });
}

const scanRun = ['scan', 'run', '--type', 'compliance', '--watch'];

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 47, clockSpeed: 100 });
  hook = await startWebhookStandin('slack');
  dir = await mkdtemp(join(tmpdir(), 'tenant-scan-coverage-'));
});
after(async () => {
  await hook.close();
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => emu.clearRequests());

describe('cli: coverage, kinds, dispositions, stalls, tenants in code scanning', () => {
  it('a coverage drop fails the gate and names the checks; --max-coverage-drop 100 passes the same run', async () => {
    emu.setScanPlan(plan({ total: 40 }));
    const baselineId = await finishedScan(emu);
    const base = await cli(['scan', 'results', baselineId, '--json']);
    assert.equal(base.code, 0, base.stderr);
    await writeFile(join(dir, 'base.json'), base.stdout);
    // Now: 6 of the 40 are not evaluated (15 %), and 4 checks are gone.
    const words = Object.fromEntries(
      [0, 1, 2, 3, 4, 5].map((i) => [checkIdAt(i), i % 2 === 0 ? 'Skipped' : 'NotApplicable']),
    );
    emu.setScanPlan(plan({ total: 36, resultWords: words }));
    emu.clearRequests();
    const args = [...scanRun, '--fail-on-findings', '--baseline', 'base.json', '--json'];
    const dropped = await cli(args);
    assert.equal(dropped.code, 2, dropped.stderr);
    const expected = [...Object.keys(words), ...[36, 37, 38, 39].map(checkIdAt)];
    const record = JSON.parse(dropped.stdout) as {
      verdict: string;
      coverage: { dropped: string[]; baselineEvaluated: number; evaluatedNow: number };
      fixed: number;
    };
    assert.equal(record.verdict, 'failed');
    assert.deepEqual([...record.coverage.dropped].sort(), [...expected].sort());
    assert.deepEqual([record.coverage.baselineEvaluated, record.coverage.evaluatedNow], [40, 30]);
    // The line names every one of the ten (at most ten are named, the rest counted).
    const named =
      /^Findings gate: Coverage dropped: 10 of 40 checks evaluated in baseline file base\.json were not evaluated now \(([^)]*)\): 25 %, more than 10 % \(max-coverage-drop\); no failed findings; /m.exec(
        dropped.stderr,
      );
    assert.ok(named, dropped.stderr);
    assert.deepEqual(named[1]?.split(', ').sort(), [...expected].sort());
    const off = await cli([...args, '--max-coverage-drop', '100']);
    assert.equal(off.code, 0, off.stderr);
    const offRecord = JSON.parse(off.stdout) as { verdict: string; coverage: unknown };
    assert.equal(offRecord.verdict, 'passed');
    assert.equal(offRecord.coverage, null, '100: coverage is off');
    // Off reads only the failed results; on reads every result once, never both.
    const reads = emu.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/results'));
    assert.deepEqual(
      reads.map((r) => r.query),
      ['', 'result=Failed'],
    );
  });

  it('no baseline: one line, nothing to compare', async () => {
    emu.setScanPlan(plan());
    const run = await cli([...scanRun, '--fail-on-findings']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stderr, /^Coverage: not compared — no baseline to compare with$/m);
  });

  it('every result kind is counted in the table, the JSON, JUnit, SARIF, the roll-up and the chat message', async () => {
    emu.setScanPlan(plan({ failedChecks: [checkIdAt(0)], resultWords: EVERY_KIND }));
    const env = cliEnv(emu, { TENANT_SCAN_NOTIFY_WEBHOOK: hook.url });
    const files = ['--junit', 'kinds.xml', '--sarif', 'kinds.sarif', '--record', 'kinds.json'];
    const notify = ['--notify-format', 'slack', '--notify-on', 'always'];
    const table = await cli([...scanRun, ...files, ...notify], env);
    assert.equal(table.code, 0, table.stderr);
    const kinds =
      '40 checks: 31 passed, 1 failed, 8 not evaluated (1 skipped, 2 not applicable, 1 not licensed, 1 error, 1 not run, 2 deferred)';
    assert.match(table.stdout, new RegExp(`^checks +${kinds.replace(/[()]/g, '\\$&')}$`, 'm'));
    const record = JSON.parse(await readFile(join(dir, 'kinds.json'), 'utf8')) as {
      results: {
        total: number;
        notEvaluated: number;
        kinds: Array<{ kind: string; count: number }>;
      };
    };
    assert.deepEqual(
      record.results.kinds.map((k) => `${k.count} ${k.kind}`),
      ['1 skipped', '2 not applicable', '1 not licensed', '1 error', '1 not run', '2 deferred'],
    );
    const junit = await readFile(join(dir, 'kinds.xml'), 'utf8');
    assert.match(junit, /<testsuite [^>]*tests="40" failures="1" errors="1" skipped="7"/);
    assert.match(junit, /<skipped message="not evaluated: not applicable \(N\/A\)"\/>/);
    assert.match(junit, /<skipped message="not evaluated: unknown result &quot;DEFERRED&quot;"\/>/);
    const sarif = JSON.parse(await readFile(join(dir, 'kinds.sarif'), 'utf8')) as {
      runs: Array<{
        invocations: Array<{
          toolExecutionNotifications: Array<{
            message: { text: string };
            properties: { kinds: Record<string, number> };
          }>;
        }>;
      }>;
    };
    const note = sarif.runs[0]?.invocations[0]?.toolExecutionNotifications[0];
    assert.equal(note?.message.text, `${kinds}.`);
    assert.equal(note?.properties.kinds.deferred, 2);
    assert.deepEqual(sarifSchemaProblems(sarif), []);
    const rollup = await cli(['rollup', 'kinds.json', '--markdown', 'rollup.md']);
    assert.equal(rollup.code, 0, rollup.stderr);
    assert.match(rollup.stdout, /NOT EVALUATED/);
    assert.match(
      await readFile(join(dir, 'rollup.md'), 'utf8'),
      /\| ❌ failed \| 1 \| 1 \| 1 \| — \| 8 \| — \|/,
    );
    const message = hook.received.at(-1);
    assert.deepEqual(message?.problems, []);
    assert.match(
      message?.body ?? '',
      /Not evaluated: 8 \(1 skipped, 2 not applicable, 1 not licensed, 1 error, 1 not run, 2 deferred\)/,
    );
  });

  it('a false positive is a SARIF suppression the multitool accepts, counted apart from accepted risks', async (t) => {
    emu.setScanPlan(plan({ failedChecks: [checkIdAt(0), checkIdAt(1), checkIdAt(2)] }));
    const until = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    const waiver = (check: string, reason: string, disposition?: string) =>
      `  - check: ${check}\n    reason: ${reason}\n    expires: ${until}\n${disposition ? `    disposition: ${disposition}\n` : ''}`;
    await writeFile(
      join(dir, 'fp.yml'),
      `waivers:\n${waiver(checkIdAt(0), 'The check reads a setting this tenant does not use', 'false-positive')}${waiver(checkIdAt(1), 'Migration until spring')}${waiver(checkIdAt(2), 'Conditional access covers it', 'compensating-control')}`,
    );
    const run = await cli([
      ...scanRun,
      '--fail-on-findings',
      '--waivers',
      'fp.yml',
      '--sarif',
      'fp.sarif',
      '--sarif-location',
      '.github/workflows/scan.yml',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const record = JSON.parse(run.stdout) as {
      waivedBy: Record<string, number>;
      verdictReason: string;
    };
    assert.deepEqual(record.waivedBy, {
      'risk-accepted': 1,
      'false-positive': 1,
      mitigated: 0,
      'compensating-control': 1,
    });
    assert.match(
      record.verdictReason,
      /3 waived \(1 accepted risk, 1 false positive, 1 compensating control\)/,
    );
    const sarif = JSON.parse(await readFile(join(dir, 'fp.sarif'), 'utf8')) as {
      runs: Array<{
        results: Array<{ ruleId: string; suppressions?: Array<Record<string, unknown>> }>;
      }>;
    };
    const fp = sarif.runs[0]?.results.find((r) => r.ruleId === checkIdAt(0));
    assert.equal(fp?.suppressions?.[0]?.kind, 'external');
    assert.match(
      String(fp?.suppressions?.[0]?.justification),
      /^The check reads a setting this tenant does not use \(false positive, waived until/,
    );
    assert.deepEqual(
      (fp?.suppressions?.[0]?.properties as { disposition: string }).disposition,
      'false-positive',
    );
    const tool = sarifMultitool();
    if (!tool) return t.skip('@microsoft/sarif-multitool is not installed');
    const problems = await multitoolProblems(tool, [join(dir, 'fp.sarif')], { github: true });
    assert.deepEqual(problems.get(join(dir, 'fp.sarif')), []);
  });

  it('a stalled scan is cancelled within --stall-minutes plus one poll, never passed', async () => {
    // Progress stops for good 200 emulator ms into the run (2 ms of wall time at 100x).
    emu.setScanPlan({ ...plan(), durationMs: 5_000, stall: { afterMs: 200, forMs: Infinity } });
    const stallMs = 1_200;
    const run = await cli([...scanRun, '--fail-on-findings', '--stall-minutes', '0.02']);
    assert.equal(run.code, 1, run.stderr);
    const [scan] = emu.scans().slice(-1);
    assert.equal(scan?.status, 'cancelled');
    assert.match(
      run.stderr,
      new RegExp(
        `^tenant-scan: error: Wait failed: the scan stalled: no progress for 1 second \\(at \\d+ %; --stall-minutes\\); scan ${scan?.id} was cancelled remotely$`,
        'm',
      ),
    );
    // The stall began when the truth says; the cancel came no sooner than stall-minutes after it
    // and no later than stall-minutes plus one poll (and a little for the process itself).
    const cancel = emu.requests().find((r) => r.method === 'POST' && r.path.endsWith('/cancel'));
    const stalledAt = Date.parse(String(emu.scans().slice(-1)[0]?.createdAt)) + 50 + 200;
    const wallOf = (emuMs: number) => Date.now() - ((emu.now?.() ?? 0) - emuMs) / 100;
    const after = (cancel?.at ?? 0) - wallOf(stalledAt);
    assert.ok(after >= stallMs - 20, `cancelled ${after} ms after the stall, before stall-minutes`);
    assert.ok(after <= stallMs + PACING_MS + 600, `cancelled ${after} ms after the stall`);
    // A pause shorter than stall-minutes is waited out: the scan completes and is judged.
    emu.setScanPlan({ ...plan(), durationMs: 5_000, stall: { afterMs: 200, forMs: 40_000 } });
    const paused = await cli([...scanRun, '--fail-on-findings', '--stall-minutes', '0.02']);
    assert.equal(paused.code, 0, paused.stderr);
    assert.equal(emu.scans().slice(-1)[0]?.status, 'completed');
  });

  it('whatever --stall-minutes, a timeout says how long progress had stood still', async () => {
    emu.setScanPlan({ ...plan(), outcome: { kind: 'stuck', atProgress: 45 } });
    const run = await cli([...scanRun, '--timeout', '0.03']);
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /Wait failed: the scan did not finish within 0\.03 minutes \(--timeout\); progress stuck at 45 % since \d\d:\d\d UTC, \d seconds?; scan \S+ was cancelled remotely$/m,
    );
  });

  it("two tenants' SARIF files differ in category and in every fingerprint", async (t) => {
    const failedChecks = [checkIdAt(0), checkIdAt(1)];
    const runs: Array<{
      runs: Array<{
        automationDetails: { id: string };
        results: Array<{ partialFingerprints: Record<string, string> }>;
      }>;
    }> = [];
    for (const label of ['contoso', 'fabrikam eu']) {
      const { apiKey } = emu.addTenant({ name: 'Same Name Ltd', scanPlan: plan({ failedChecks }) });
      const file = `${label.replace(' ', '-')}.sarif`;
      const run = await cli(
        [...scanRun, '--tenant-label', label, '--sarif', file, '--sarif-location', 'wf.yml'],
        cliEnv(emu, { SERVICE_API_KEY: apiKey }),
      );
      assert.equal(run.code, 0, run.stderr);
      runs.push(JSON.parse(await readFile(join(dir, file), 'utf8')) as (typeof runs)[number]);
    }
    const category = (id: string) => id.slice(0, id.lastIndexOf('/') + 1);
    const [a, b] = runs.map((log) => log.runs[0]);
    assert.equal(category(a?.automationDetails.id ?? ''), 'tenant-scan/compliance/contoso/');
    assert.match(
      category(b?.automationDetails.id ?? ''),
      /^tenant-scan\/compliance\/fabrikam-eu-[0-9a-f]{8}\/$/,
    );
    const prints = (run: typeof a) =>
      run?.results.map((r) => r.partialFingerprints['tenantScanCheck/v1']) ?? [];
    assert.deepEqual(prints(a).sort(), failedChecks.map((c) => `contoso/${c}`).sort());
    assert.equal(prints(b).length, 2);
    assert.ok(prints(b).every((p) => !prints(a).includes(p)));
    const tool = sarifMultitool();
    if (!tool) return t.skip('@microsoft/sarif-multitool is not installed');
    const files = ['contoso.sarif', 'fabrikam-eu.sarif'].map((f) => join(dir, f));
    const problems = await multitoolProblems(tool, files, { github: true });
    assert.deepEqual([...problems.values()], [[], []]);
  });
});
