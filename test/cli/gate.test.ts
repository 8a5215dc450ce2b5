// The bundled CLI with the gate's flags: --fail-on-severity at each level (scan results and scan
// run), --baseline previous|FILE with --fail-on new, --waivers, the JSON's new/fixed/waived, the
// gate line of exit 2, SARIF through the multitool, and bad flags (one line, zero requests).
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { finishedScan } from '../emulator/test-http.js';
import type { Emulator } from '../emulator/types.js';
import { multitoolProblems, sarifMultitool, sarifSchemaProblems } from '../formats/validators.js';
import { apiRequests, assertBundleBuilt, cliEnv, runCli } from './helpers.js';

const ONE_OF_EACH = ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.4', 'CIS-1.3.1', 'CIS-9.1.1'];

let emu: Emulator;
let dir: string;

function failing(failedChecks: string[]) {
  emu.setScanPlan({
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed', total: 60, failed: 0, failedChecks },
  });
}

/** A completed scan of the tenant whose failed checks are these; returns its id. */
async function scanFailing(failedChecks: string[]): Promise<string> {
  failing(failedChecks);
  return finishedScan(emu);
}

function cli(args: string[]) {
  return runCli(args, cliEnv(emu), { cwd: dir });
}

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 5, clockSpeed: 100 });
  dir = await mkdtemp(join(tmpdir(), 'tenant-scan-gate-'));
});
after(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});
beforeEach(() => emu.clearRequests());

describe('cli: gate', () => {
  it('scan results --fail-on-severity: each level, synonyms, unknown severity', async () => {
    const id = await scanFailing(ONE_OF_EACH);
    const expected = { info: 5, low: 4, medium: 3, high: 2, critical: 1, severe: 2 };
    for (const [level, count] of Object.entries(expected)) {
      const run = await cli([
        'scan',
        'results',
        id,
        '--fail-on-findings',
        '--fail-on-severity',
        level,
      ]);
      assert.equal(run.code, 2, `${level}: ${run.stderr}`);
      assert.match(run.stderr, new RegExp(`^Findings gate: ${count} failed findings?`, 'm'));
    }
    const low = await scanFailing(['CIS-1.3.1', 'CIS-9.1.1']);
    const passed = await cli([
      'scan',
      'results',
      low,
      '--fail-on-findings',
      '--fail-on-severity',
      'HIGH',
    ]);
    assert.equal(passed.code, 0, passed.stderr);
    emu.setVariant({ findingShape: 'sparse' });
    try {
      const unknown = await cli([
        'scan',
        'results',
        low,
        '--fail-on-findings',
        '--fail-on-severity',
        'critical',
      ]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /2 failed findings have no known severity/);
    } finally {
      emu.setVariant({});
    }
  });

  it('scan run --baseline previous --fail-on new: JSON new/fixed/waived, exit 2 only when worse', async () => {
    const before = await scanFailing(['CIS-1.1.1', 'CIS-1.1.2']);
    failing(['CIS-1.1.2', 'CIS-2.4.4']);
    const args = ['scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'];
    const worse = await cli([...args, '--baseline', 'previous', '--fail-on', 'new', '--json']);
    assert.equal(worse.code, 2, worse.stderr);
    const json = JSON.parse(worse.stdout) as Record<string, unknown> & {
      findings: Array<{ checkId: string; baselineState?: string }>;
    };
    assert.deepEqual([json.failed, json.new, json.fixed, json.waived], [2, 1, 1, 0]);
    assert.deepEqual(
      json.findings.map((f) => `${f.checkId}:${f.baselineState}`),
      ['CIS-2.4.4:new', 'CIS-1.1.2:unchanged'],
    );
    assert.match(
      worse.stderr,
      new RegExp(
        `^Findings gate: 1 new failed finding since scan ${before} of [\\d-]+; 1 unchanged; 1 fixed \\(exit code 2\\)$`,
        'm',
      ),
    );

    failing(['CIS-1.1.2']);
    const same = await cli([...args, '--baseline', 'previous', '--fail-on', 'new']);
    assert.equal(same.code, 0, same.stderr);
    assert.match(same.stdout, /^verdict +passed \(no new failed findings since scan /m);
  });

  it('scan results --baseline FILE: each failed finding carries its state; SARIF passes the multitool', async () => {
    const first = await scanFailing(['CIS-1.1.1', 'CIS-1.1.4']);
    const earlier = await cli(['scan', 'results', first, '--result', 'Failed', '--json']);
    await writeFile(join(dir, 'baseline.json'), earlier.stdout);
    const second = await scanFailing(['CIS-1.1.4', 'CIS-1.3.1']);
    const run = await cli([
      'scan',
      'results',
      second,
      '--baseline',
      'baseline.json',
      '--sarif',
      'r.sarif',
      '--json',
    ]);
    assert.equal(run.code, 0, run.stderr);
    const findings = JSON.parse(run.stdout) as Array<{
      checkId: string;
      result: string;
      baselineState?: string;
    }>;
    const failed = findings.filter((f) => f.result === 'Failed');
    assert.deepEqual(
      failed.map((f) => `${f.checkId}:${f.baselineState}`),
      ['CIS-1.3.1:new', 'CIS-1.1.4:unchanged'],
    );
    assert.ok(
      findings.filter((f) => f.result !== 'Failed').every((f) => f.baselineState === undefined),
    );
    const file = join(dir, 'r.sarif');
    const sarif = JSON.parse(await readFile(file, 'utf8')) as {
      runs: Array<{ results: Array<{ ruleId: string; baselineState?: string }> }>;
    };
    assert.deepEqual(
      sarif.runs[0]?.results.map((r) => `${r.ruleId}:${r.baselineState}`),
      ['CIS-1.3.1:new', 'CIS-1.1.4:unchanged', 'CIS-1.1.1:absent'],
    );
    assert.deepEqual(sarifSchemaProblems(sarif), []);
    const tool = sarifMultitool();
    if (tool)
      assert.deepEqual((await multitoolProblems(tool, [file], { github: true })).get(file), []);
  });

  it('--waivers: a waived finding passes the gate; an expired one does not', async () => {
    const id = await scanFailing(['CIS-1.1.1']);
    const waiver = (expires: string) =>
      `waivers:\n  - check: CIS-1.1.1\n    reason: Accepted for the migration\n    expires: ${expires}\n`;
    // In force, and within the default waivers-max-days (365).
    const until = new Date(Date.now() + 200 * 86_400_000).toISOString().slice(0, 10);
    await writeFile(join(dir, 'ok.yml'), waiver(until));
    await writeFile(join(dir, 'old.yml'), waiver('2020-01-31'));
    const waived = await cli([
      'scan',
      'results',
      id,
      '--fail-on-findings',
      '--waivers',
      'ok.yml',
      '--json',
    ]);
    assert.equal(waived.code, 0, waived.stderr);
    const [finding] = JSON.parse(waived.stdout) as Array<{ waiver?: unknown }>;
    assert.deepEqual(finding?.waiver, {
      reason: 'Accepted for the migration',
      expires: until,
      owner: null,
      disposition: 'risk-accepted',
    });
    const expired = await cli([
      'scan',
      'results',
      id,
      '--fail-on-findings',
      '--waivers',
      'old.yml',
    ]);
    assert.equal(expired.code, 2);
    assert.match(
      expired.stderr,
      /warning: Waiver for CIS-1\.1\.1 \(old\.yml line 2\) expired on 2020-01-31/,
    );
    assert.match(expired.stderr, /Findings gate: 1 failed finding; 1 expired waiver/);
  });

  it('bad gate flags: one line, exit 1, zero requests', async () => {
    await writeFile(join(dir, 'bad.yml'), 'waivers:\n  - check: CIS-1.1.1\n    reason: x\n');
    const farWaiver = (expires: string) =>
      `waivers:\n  - check: CIS-1.1.1\n    reason: x\n    expires: ${expires}\n`;
    await writeFile(join(dir, 'far.yml'), farWaiver('9999-12-31'));
    const inMonth = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
    await writeFile(join(dir, 'month.yml'), farWaiver(inMonth));
    const cases: Array<[string[], RegExp]> = [
      [
        ['--fail-on-severity', 'urgent'],
        /--fail-on-severity must be one of info, low, medium, high, critical, got "urgent"/,
      ],
      [['--fail-on', 'worse'], /--fail-on must be any, new \(needs a baseline\) or overdue/],
      [
        ['--fail-on', 'new'],
        /--fail-on is new but there is no baseline to compare with: set --baseline/,
      ],
      [['--baseline', 'missing.json'], /baseline file "missing\.json" was not found/],
      [['--waivers', 'bad.yml'], /bad\.yml line 2: waiver 1 has no expires date/],
      [
        ['--waivers', 'far.yml'],
        /far\.yml line 2: the waiver of check "CIS-1\.1\.1" expires 9999-12-31, more than 365 days ahead \(--waivers-max-days\)/,
      ],
      [
        ['--waivers', 'month.yml', '--waivers-max-days', '20'],
        /month\.yml line 2: .* more than 20 days ahead \(--waivers-max-days\)/,
      ],
      [
        ['--waivers-max-days', '4000'],
        /--waivers-max-days must be a whole number of days from 1 to 3650, got "4000"/,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await cli(['scan', 'run', '--type', 'compliance', '--watch', ...flags]);
      assert.equal(run.code, 1, `${flags.join(' ')}: ${run.stderr}`);
      const lines = run.stderr.trim().split('\n');
      assert.equal(lines.length, 1, run.stderr);
      assert.match(lines[0] ?? '', /^tenant-scan: error: Sanity checks failed: /);
      assert.match(lines[0] ?? '', message);
    }
    assert.deepEqual(apiRequests(emu), []);
  });
});
