// The run record and the roll-up on the bundled action: each tenant's step writes record-file (the
// document `scan run --output json` prints, also for a run that ended in an error); the rollup
// sub-action (dist/rollup/index.js with rollup/action.yml's defaults) reads the records gathered
// in the workspace as the runner runs it, writes the job summary, sets its outputs and fails the
// step when more tenants fail than allowed. Bad inputs are one line each, nothing read.
import assert from 'node:assert/strict';
import { copyFile, mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import { layoutProblems, liveMarkup, renderedText } from '../helpers/gfm.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runActionStep,
  type JobDirectory,
  type StepResult,
} from '../helpers/runner.js';
import { assertBundleBuilt, cliEnv, runCli } from '../cli/helpers.js';
import { QUICK_SCAN, errorLines, startWorld, visibleLog, type World } from './world.js';

const [A, B] = [checkIdAt(0), checkIdAt(1)];

let world: World;
before(async () => {
  assertBundleBuilt();
  world = await startWorld();
});
after(() => world.close());

/** A tenant's step, as one matrix job runs it: its own key, its tenant-label. */
async function tenantStep(label: string, failedChecks: string[]): Promise<StepResult> {
  const { apiKey } = world.emulator.addTenant({
    name: `${label} Ltd`,
    scanPlan: { ...QUICK_SCAN, outcome: { kind: 'completed', total: 40, failed: 0, failedChecks } },
  });
  return world.main({ 'api-key': apiKey, 'tenant-label': label });
}

async function recordOf(step: StepResult): Promise<Record<string, unknown>> {
  const path = step.outputs['record-file'];
  assert.ok(path, `record-file is set:\n${visibleLog(step)}`);
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

describe('action: the run record (record-file)', () => {
  it('is the document `scan run --output json` prints, with the tenant-label', async () => {
    const started = Date.now();
    const step = await tenantStep('contoso', [A, B]);
    const ended = Date.now();
    assert.equal(step.exitCode, 1);
    const record = await recordOf(step);
    const { apiKey } = world.emulator.addTenant({
      scanPlan: {
        ...QUICK_SCAN,
        outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: [A] },
      },
    });
    const cli = await runCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--output', 'json'],
      cliEnv(world.emulator, { SERVICE_API_KEY: apiKey }),
    );
    const printed = JSON.parse(cli.stdout) as Record<string, unknown>;
    assert.deepEqual(Object.keys(record), Object.keys(printed), 'the same keys, in the same order');
    assert.equal(record.version, 1);
    const writtenAt = Date.parse(String(record.writtenAt));
    assert.ok(writtenAt >= started && writtenAt <= ended, `writtenAt ${String(record.writtenAt)}`);
    assert.equal(new Date(writtenAt).toISOString(), record.writtenAt, 'ISO 8601 UTC');
    assert.equal(record.label, 'contoso');
    assert.equal(record.tenant, 'contoso Ltd');
    assert.equal(record.verdict, 'failed');
    assert.equal(record.failed, 2);
    assert.equal(record.exitCode, 2, 'what scan run exits with when findings fail the gate');
    assert.equal((record.findings as unknown[]).length, 2);
    assert.equal(record.error, null);
  });

  it('a run that ended in an error leaves a record that says so', async () => {
    const { apiKey } = world.emulator.addTenant({
      scanPlan: { ...QUICK_SCAN, outcome: { kind: 'failed', message: 'connector offline' } },
    });
    world.emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'drop-failed' },
      times: Infinity,
    });
    const { apiKey: other } = world.emulator.addTenant({
      scanPlan: {
        ...QUICK_SCAN,
        outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: [A] },
      },
    });
    try {
      const step = await world.main({ 'api-key': other, 'tenant-label': 'fabrikam' });
      assert.equal(step.exitCode, 1);
      const record = await recordOf(step);
      assert.equal(record.verdict, null);
      assert.equal(record.label, 'fabrikam');
      assert.equal(record.error, errorLines(step).at(-1));
      assert.match(String(record.error), /^Results failed: /);
      const age = Date.now() - Date.parse(String(record.writtenAt));
      assert.ok(
        age >= 0 && age < 60_000,
        `an error record has writtenAt ${String(record.writtenAt)}`,
      );
    } finally {
      world.emulator.clearFaults();
    }
    const failedScan = await world.main({ 'api-key': apiKey, 'tenant-label': 'tailspin' });
    const record = await recordOf(failedScan);
    assert.equal(record.verdict, 'failed');
    assert.equal(record.exitCode, 1);
  });

  it('invalid inputs: no record, and record-file is empty', async () => {
    const step = await world.main({ 'tenant-label': 'a\u0007b' });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(errorLines(step), [
      `Sanity checks failed: input 'tenant-label' must be one line of at most 100 printable characters, got "a\\u0007b"`,
    ]);
    assert.equal(step.outputs['record-file'] ?? '', '');
  });
});

describe('action: the rollup sub-action', () => {
  let job: JobDirectory;
  before(async () => {
    job = await createJobDirectory();
    // What actions/download-artifact leaves: one directory per artifact.
    for (const [label, failed] of [
      ['contoso', []],
      ['fabrikam', [A, B]],
      ['northwind', [A]],
    ] as const) {
      const step = await tenantStep(label, [...failed]);
      const dir = join(job.workspace, 'tenant-scan-records', `tenant-scan-record-${label}`);
      await mkdir(dir, { recursive: true });
      await copyFile(step.outputs['record-file'] ?? '', join(dir, 'record-tenant-scan.json'));
    }
  });
  after(() => removeJobDirectory(job));

  const rollup = (inputs: Record<string, string>) =>
    runActionStep({ entry: 'rollup', job, inputs, timeoutMs: 30_000 });

  it('the job summary, the outputs, and a failed step when a tenant fails or is missing', async () => {
    const step = await rollup({ expect: 'contoso,fabrikam,northwind,tailspin' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(errorLines(step), ['Verdict failed: 3 of 4 tenants failed (at most 0 may)']);
    assert.equal(step.outputs.verdict, 'failed');
    assert.equal(step.outputs.tenants, '4');
    assert.equal(step.outputs['failed-tenants'], '3');
    const text = renderedText(step.summary);
    assert.match(text, /^❌ Tenant roll-up failed: 3 of 4 tenants failed \(at most 0 may\)$/m);
    assert.match(text, /^tailspin \| ❓ missing/m);
    assert.match(text, /^fabrikam \(fabrikam Ltd\) \| ❌ failed \| 2 \| 2/m);
    assert.match(text, new RegExp(`^${A.replace(/\./g, '\\.')} \\| 2 of 3 tenants`, 'm'));
    assert.deepEqual(layoutProblems(step.summary), []);
    assert.deepEqual(liveMarkup(step.summary), []);
    assert.match(visibleLog(step), /^tailspin: missing — no record of this tenant/m);
    const json = JSON.parse(await readFile(step.outputs['rollup-file'] ?? '', 'utf8')) as {
      failedTenants: number;
    };
    assert.equal(json.failedTenants, 3);
  });

  it('max-failed-tenants and fail-on-findings decide the step, never the summary', async () => {
    const allowed = await rollup({ 'max-failed-tenants': '2' });
    assert.equal(allowed.exitCode, 0, visibleLog(allowed));
    assert.equal(allowed.outputs.verdict, 'passed');
    const reported = await rollup({ expect: 'tailspin', 'fail-on-findings': 'false' });
    assert.equal(reported.exitCode, 0);
    assert.equal(reported.outputs.verdict, 'failed');
    assert.match(renderedText(reported.summary), /Tenant roll-up failed/);
  });

  it('markdown-file inside the workspace is written; outside it, one line and nothing read', async () => {
    const written = await rollup({ 'markdown-file': 'rollup.md' });
    assert.equal(
      await readFile(join(job.workspace, 'rollup.md'), 'utf8'),
      written.summary,
      'the same Markdown as the summary',
    );
    const outside = await rollup({ 'markdown-file': '../rollup.md', 'max-failed-tenants': 'x' });
    assert.equal(outside.exitCode, 1);
    assert.deepEqual(errorLines(outside), [
      'Sanity checks failed: input \'max-failed-tenants\' must be a whole number from 0 to 100000, got "x"',
      `Sanity checks failed: input 'markdown-file' "../rollup.md" is outside the workspace (GITHUB_WORKSPACE) or RUNNER_TEMP: give a path inside it (a relative path is relative to the workspace)`,
    ]);
    assert.equal(outside.summary, '');
  });

  it('records outside the workspace (a path, ../, a linked folder or file): one line each, nothing read', async () => {
    // A whole, readable record outside the workspace: a roll-up that reached it would pass.
    const outside = join(job.root, 'outside-records');
    await mkdir(outside, { recursive: true });
    const record = join(job.workspace, 'tenant-scan-records', 'tenant-scan-record-contoso');
    await copyFile(join(record, 'record-tenant-scan.json'), join(outside, 'record.json'));
    await symlink(outside, join(job.workspace, 'linked-folder'));
    await symlink(join(outside, 'record.json'), join(job.workspace, 'linked.json'));
    const records = [
      join(outside, 'record.json'),
      '../outside-records/*.json',
      'linked-folder/**/*.json',
      'linked.json',
    ];
    const step = await rollup({ records: records.join('\n') });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(
      errorLines(step),
      records.map(
        (pattern) =>
          `Sanity checks failed: input 'records' ${JSON.stringify(pattern.length > 40 ? `${pattern.slice(0, 40)}…` : pattern)} is outside the workspace (GITHUB_WORKSPACE): give a path inside it (a relative path is relative to the workspace)`,
      ),
    );
    assert.equal(step.summary, '');
    assert.equal(step.outputs.verdict, undefined, 'no roll-up was made');
  });

  it('plans beside the records: a table per problem code; plan-fail-on decides what fails a plan', async () => {
    await mkdir(join(job.workspace, 'plans'), { recursive: true });
    const plan = {
      kind: 'tenant-plan',
      version: 1,
      tenant: 'contoso',
      tenantId: 't-1',
      checkedAt: '2026-11-26T03:00:00.000Z',
      drift: [],
      problems: [{ code: 'key-old', subject: 'ci key (ak_live_abc...wxyz)', detail: 'old' }],
    };
    await writeFile(join(job.workspace, 'plans', 'contoso.json'), JSON.stringify(plan));
    const records = 'tenant-scan-records/**/*.json\nplans/*.json';
    const drift = await rollup({ records, 'plan-fail-on': 'drift' });
    assert.equal(drift.outputs['failed-tenants'], '2', visibleLog(drift));
    assert.match(renderedText(drift.summary), /^key-old \| 1 \| contoso$/m);
    const problems = await rollup({ records, 'plan-fail-on': 'problems' });
    assert.equal(problems.outputs['failed-tenants'], '3');
    assert.deepEqual(errorLines(problems), [
      'Verdict failed: 3 of 3 tenants failed (at most 0 may)',
    ]);
    const bad = await rollup({ records, 'plan-fail-on': 'sometimes' });
    assert.deepEqual(errorLines(bad), [
      "Sanity checks failed: input 'plan-fail-on' must be one of drift, problems, any, none",
    ]);
  });

  it('records that match nothing: listed as missing, and the roll-up fails', async () => {
    const step = await rollup({ records: 'elsewhere/*.json' });
    assert.equal(step.exitCode, 1);
    assert.match(renderedText(step.summary), /^elsewhere\/\*\.json \| ❓ missing/m);
  });
});

describe('action: the rollup sub-action with max-age', () => {
  let job: JobDirectory;
  const HOUR = 3_600_000;
  before(async () => {
    job = await createJobDirectory();
    const record = await recordOf(await tenantStep('contoso', []));
    // The same passing record as a fresh artifact, an old cache and a clock ahead would leave it.
    for (const [folder, hoursAgo] of [
      ['fresh', 1],
      ['old', 72],
      ['ahead', -3.5],
    ] as const) {
      const scan = record.scan as Record<string, unknown>;
      scan.completedAt = new Date(Date.now() - hoursAgo * HOUR).toISOString();
      await mkdir(join(job.workspace, folder), { recursive: true });
      await writeFile(join(job.workspace, folder, 'record.json'), JSON.stringify(record));
    }
  });
  after(() => removeJobDirectory(job));

  const rollup = (inputs: Record<string, string>) =>
    runActionStep({ entry: 'rollup', job, inputs, timeoutMs: 30_000 });

  it('an old record is stale: the step fails, the summary and the log say how old', async () => {
    const step = await rollup({ records: 'old/*.json', 'max-age': '36h' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(errorLines(step), ['Verdict failed: 1 of 1 tenant failed (at most 0 may)']);
    assert.deepEqual([step.outputs.verdict, step.outputs['failed-tenants']], ['failed', '1']);
    const text = renderedText(step.summary);
    assert.match(
      text,
      /^contoso \(contoso Ltd\) \| ⌛ stale \|.*\| record is 3 days old \(max-age 36h\)$/m,
    );
    assert.match(text, /^No verdict \(missing, stale, unreadable, an error\) \| 1$/m);
    assert.deepEqual(layoutProblems(step.summary), []);
    assert.match(visibleLog(step), /^contoso: stale — record is 3 days old \(max-age 36h\)$/m);
    const json = JSON.parse(await readFile(step.outputs['rollup-file'] ?? '', 'utf8')) as {
      tenants: Array<{ verdict: string }>;
    };
    assert.equal(json.tenants[0]!.verdict, 'stale');
  });

  it('a fresh record passes; without max-age the old one passes as before', async () => {
    const fresh = await rollup({ records: 'fresh/*.json', 'max-age': '36h' });
    assert.deepEqual([fresh.exitCode, fresh.outputs.verdict], [0, 'passed'], visibleLog(fresh));
    const unchanged = await rollup({ records: 'old/*.json' });
    assert.deepEqual([unchanged.exitCode, unchanged.outputs.verdict], [0, 'passed']);
  });

  it('a scan time ahead of the runner clock is unreadable', async () => {
    const step = await rollup({ records: 'ahead/*.json', 'max-age': '7d' });
    assert.equal(step.exitCode, 1);
    assert.match(
      visibleLog(step),
      /^contoso: unreadable — its scan time \(.*\) is 3 hours in the future/m,
    );
  });

  it('a bad max-age is one line, and nothing is read', async () => {
    const step = await rollup({ records: 'old/*.json', 'max-age': '3 days' });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(errorLines(step), [
      `Sanity checks failed: input 'max-age' must be a duration such as 90m, 36h or 7d (a whole number of minutes, hours or days, above 0 and at most 366d), got "3 days"`,
    ]);
    assert.equal(step.summary, '');
    assert.equal(step.outputs.verdict, undefined);
  });
});
