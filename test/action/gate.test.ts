// dist/index.js run like the runner, with the gate's inputs: fail-on-severity at each level and
// for findings of unknown severity, baseline previous / a results file with fail-on new, waivers
// (in force, expiring, expired, stale, malformed), the outputs new/fixed/waived, the summary's
// headline, and SARIF baselineState/suppressions validated by the multitool.
import assert from 'node:assert/strict';
import { renderedText } from '../helpers/gfm.js';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { finishedScan } from '../emulator/test-http.js';
import type { ScanPlan } from '../emulator/types.js';
import { multitoolProblems, sarifMultitool, sarifSchemaProblems } from '../formats/validators.js';
import { createJobDirectory, type JobDirectory } from '../helpers/runner.js';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog, type World } from './world.js';

/** One failed check of each severity: critical, high, medium, low, info. */
const ONE_OF_EACH = ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.4', 'CIS-1.3.1', 'CIS-9.1.1'];

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 60, failed: 0, failedChecks } };
}

/** An earlier completed scan of the tenant whose failed checks are these. */
async function earlierScan(world: World, failedChecks: string[], scanType = 'compliance') {
  world.emulator.setScanPlan(failing(failedChecks));
  const id = await finishedScan(world.emulator, scanType);
  world.emulator.clearRequests();
  return id;
}

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

/** A job directory whose workspace holds these files (path relative to the workspace). */
async function workspaceWith(files: Record<string, string>): Promise<JobDirectory> {
  const job = await createJobDirectory();
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(job.workspace, path, '..'), { recursive: true });
    await writeFile(join(job.workspace, path), text);
  }
  return job;
}

describe('action: gate', () => {
  const world = useWorld();

  it('fail-on-severity: each level counts the failed findings at it or above', async () => {
    world.emulator.setScanPlan(failing(ONE_OF_EACH));
    const expected = { info: 5, low: 4, medium: 3, high: 2, critical: 1 };
    for (const [level, gating] of Object.entries(expected)) {
      const step = await world.main({ 'fail-on-severity': level });
      assert.equal(step.exitCode, 1, `${level}: ${visibleLog(step)}`);
      assert.equal(step.outputs.failed, '5');
      const words = `${gating} failed finding${gating === 1 ? '' : 's'}`;
      const suffix = level === 'info' ? '' : ` at ${level} or above`;
      assert.equal(errorLines(step).at(-1)?.split(';')[0], `Verdict failed: ${words}${suffix}`);
    }
    world.emulator.setScanPlan(failing(['CIS-1.3.1', 'CIS-9.1.1']));
    const passed = await world.main({ 'fail-on-severity': 'moderate' });
    assert.equal(passed.exitCode, 0, visibleLog(passed));
    assert.equal(passed.outputs.verdict, 'passed');
    assert.match(
      renderedText(passed.summary),
      /^✅ Tenant scan passed: nothing at medium or above \(2 other failed findings\)/,
    );
  });

  it('a finding of unknown severity fails the gate whatever the threshold, said once', async () => {
    world.emulator.setScanPlan(failing(['CIS-1.3.1', 'CIS-9.1.1']));
    world.emulator.setVariant({ findingShape: 'sparse' });
    const step = await world.main({ 'fail-on-severity': 'critical' });
    assert.equal(step.exitCode, 1);
    assert.match(errorLines(step).at(-1) ?? '', /^Verdict failed: 2 failed findings at critical/);
    const notes = visibleLog(step).match(/have no known severity/g) ?? [];
    assert.equal(notes.length, 1, visibleLog(step));
  });

  it('baseline previous + fail-on new: only what got worse fails; counts, headline, outputs', async () => {
    const before = await earlierScan(world, ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.3.1']);
    await earlierScan(world, ['CIS-2.1.1'], 'security'); // another type: never the baseline
    world.emulator.setScanPlan(failing(['CIS-1.1.2', 'CIS-1.3.1', 'CIS-1.1.4']));
    const step = await world.main({ baseline: 'previous', 'fail-on': 'new' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(
      [step.outputs.failed, step.outputs.new, step.outputs.fixed, step.outputs.waived],
      ['3', '1', '1', '0'],
    );
    const since = new RegExp(`1 new failed finding since scan ${before} of \\d{4}-\\d{2}-\\d{2}`);
    assert.match(errorLines(step).at(-1) ?? '', since);
    const shown = renderedText(step.summary);
    // One short line decides; the counts and the baseline's name are in the tables beneath it.
    assert.equal(shown.split('\n')[0], '❌ Tenant scan failed: 1 new medium finding');
    assert.match(shown, /^Fail the gate \(new\) \| 1$/m);
    assert.match(shown, /^Unchanged since the baseline \| 2$/m);
    assert.match(shown, /^Failed in all \| 3$/m);
    assert.match(shown, new RegExp(`^Baseline \\| scan ${before} of \\d{4}-\\d{2}-\\d{2}$`, 'm'));
    assert.match(step.summary, /### New · Medium \(1\)[\s\S]*### Unchanged · High \(1\)/);
    assert.match(step.summary, /^\*\*Fixed since the baseline \(1\):\*\* `CIS-1\.1\.1`$/m);
    // The baseline cost one results read; the scan list was the one read before the trigger.
    const reads = apiRequests(world.emulator).map((r) => `${r.method} ${r.path}`);
    assert.equal(reads.filter((r) => r === `GET /scans/${before}/results`).length, 1);
    assert.equal(reads.filter((r) => r === 'GET /tenants/me/scans').length, 1);
    assert.equal(reads.filter((r) => r === 'POST /tenants/me/scans').length, 1);
    assert.equal(world.emulator.creditsSpent(), 0);

    world.emulator.setScanPlan(failing(['CIS-1.1.2', 'CIS-1.3.1']));
    const better = await world.main({ baseline: 'previous', 'fail-on': 'new' });
    assert.equal(better.exitCode, 0, visibleLog(better));
    assert.equal(better.outputs.verdict, 'passed');
    assert.equal(better.outputs.fixed, '1', 'compared with the run just before');
  });

  it('baseline previous with no earlier scan: says so and counts every failed finding as new', async () => {
    const fresh = await world.emulator.addTenant({ scanPlan: failing(['CIS-1.1.4']) });
    const step = await world.main({
      'api-key': fresh.apiKey,
      baseline: 'previous',
      'fail-on': 'new',
    });
    assert.equal(step.exitCode, 1);
    assert.match(visibleLog(step), /Baseline: none — no earlier completed compliance scan/);
    assert.equal(step.outputs.new, '1');
    assert.match(
      renderedText(step.summary),
      /^Baseline \| none: no earlier completed compliance scan$/m,
    );
  });

  it('baseline file: the results file of an earlier run is the baseline', async () => {
    world.emulator.setScanPlan(failing(['CIS-1.1.1', 'CIS-1.1.4']));
    const first = await world.main();
    const earlier = await readFile(first.outputs['results-file'] ?? '', 'utf8');
    const job = await workspaceWith({ 'baseline/failed.json': earlier });
    world.emulator.setScanPlan(failing(['CIS-1.1.4', 'CIS-2.4.4']));
    const step = await world.main(
      { baseline: 'baseline/failed.json', 'fail-on': 'new', 'sarif-file': 'out.sarif' },
      { job },
    );
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.match(errorLines(step).at(-1) ?? '', /1 new failed finding since baseline file/);
    assert.deepEqual([step.outputs.new, step.outputs.fixed], ['1', '1']);
    const sarif = JSON.parse(await readFile(join(job.workspace, 'out.sarif'), 'utf8')) as {
      runs: Array<{ results: Array<{ ruleId: string; baselineState?: string; kind: string }> }>;
    };
    const states = Object.fromEntries(
      sarif.runs[0]?.results.map((r) => [r.ruleId, `${r.baselineState}/${r.kind}`]) ?? [],
    );
    assert.deepEqual(states, {
      'CIS-2.4.4': 'new/fail',
      'CIS-1.1.4': 'unchanged/fail',
      'CIS-1.1.1': 'absent/pass',
    });
  });

  it('waivers: in force (and expiring soon), expired, stale; JUnit skipped, SARIF suppressed', async () => {
    const waivers = [
      'waivers:',
      '  - check: CIS-1.1.1',
      '    reason: Break-glass accounts are being migrated',
      `    expires: ${day(3)}`,
      '    owner: secops@contoso.example',
      '  - check: CIS-1.1.2',
      '    reason: Accepted until the audit',
      `    expires: ${day(-1)}`,
      '  - check: CIS-9.9.9',
      '    reason: Fixed long ago',
      `    expires: ${day(90)}`,
      '',
    ].join('\n');
    const job = await workspaceWith({ '.tenant-scan/waivers.yml': waivers });
    world.emulator.setScanPlan(failing(['CIS-1.1.1', 'CIS-1.1.2']));
    const step = await world.main({ 'junit-file': 'j.xml', 'sarif-file': 's.sarif' }, { job });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual([step.outputs.failed, step.outputs.waived], ['2', '1']);
    assert.equal(
      errorLines(step).at(-1),
      'Verdict failed: 1 failed finding; 1 waived (1 accepted risk), 1 expiring within 7 days; 1 expired waiver; 1 stale waiver',
    );
    const log = visibleLog(step);
    assert.match(log, /Waiver for CIS-1\.1\.2 \(\.tenant-scan\/waivers\.yml line 6\) expired on/);
    assert.match(log, /Waiver for CIS-9\.9\.9 .* matched no failed finding/);
    assert.ok(
      step.annotations.some((a) => a.level === 'warning' && /CIS-1\.1\.2.*expired/.test(a.message)),
    );
    assert.match(step.summary, /### Waived · Critical \(1\)/);
    assert.match(
      renderedText(step.summary),
      /Waived \(accepted risk\) until \d{4}-\d{2}-\d{2}: Break-glass accounts/,
    );
    assert.match(step.summary, /\*\*Expired waivers \(no longer waive\):\*\* `CIS-1\.1\.2`/);
    assert.ok(!step.annotations.some((a) => /Tenant scan: critical finding/.test(a.title ?? '')));
    const junit = await readFile(join(job.workspace, 'j.xml'), 'utf8');
    assert.match(
      junit,
      /<skipped message="accepted risk, waived until [\d-]+, owner secops@contoso\.example: Break-glass accounts are being migrated"\/>/,
    );
    assert.match(junit, /failures="1"/);
    const sarifFile = join(job.workspace, 's.sarif');
    const sarif = JSON.parse(await readFile(sarifFile, 'utf8')) as {
      runs: Array<{ results: Array<{ ruleId: string; suppressions?: unknown[] }> }>;
    };
    const suppressed = sarif.runs[0]?.results.find((r) => r.ruleId === 'CIS-1.1.1');
    assert.deepEqual(suppressed?.suppressions, [
      {
        kind: 'external',
        status: 'accepted',
        justification: `Break-glass accounts are being migrated (accepted risk, waived until ${day(3)}, owner secops@contoso.example)`,
        properties: {
          disposition: 'risk-accepted',
          expires: day(3),
          owner: 'secops@contoso.example',
        },
      },
    ]);
    assert.deepEqual(sarifSchemaProblems(sarif), []);
    const tool = sarifMultitool();
    if (tool) {
      const problems = await multitoolProblems(tool, [sarifFile], { github: true });
      assert.deepEqual(problems.get(sarifFile), []);
    }

    const allWaived = await workspaceWith({
      'w.yml': waivers.replace(day(-1), day(30)),
    });
    const passed = await world.main({ 'waivers-file': 'w.yml' }, { job: allWaived });
    assert.equal(passed.exitCode, 0, visibleLog(passed));
    assert.equal(passed.outputs.waived, '2');
  });

  it('a malformed waivers file: one line per problem with file and line, zero requests', async () => {
    const job = await workspaceWith({
      'w.yml': 'waivers:\n  - check: CIS-1.1.1\n    expires: next week\n  - check: [oops\n',
    });
    const broken = await world.main({ 'waivers-file': 'w.yml' }, { job });
    assert.equal(broken.exitCode, 1);
    assert.match(
      errorLines(broken).join('\n'),
      /^Sanity checks failed: w\.yml line \d+: .*fix the YAML syntax$/m,
    );
    const bad = await workspaceWith({
      'w.yml': 'waivers:\n  - check: CIS-1.1.1\n    expires: next week\n',
    });
    const step = await world.main({ 'waivers-file': 'w.yml' }, { job: bad });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(errorLines(step), [
      'Sanity checks failed: w.yml line 2: waiver 1 has no reason: add `reason: <why it is accepted for now>`',
      'Sanity checks failed: w.yml line 2: waiver 1 expires "next week" is not a date: write YYYY-MM-DD, e.g. 2027-03-31',
    ]);
    assert.deepEqual(apiRequests(world.emulator), []);
  });
});
