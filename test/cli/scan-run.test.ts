// scan run: the one-line pipeline step. Progress on a terminal and in logs, the findings gate, the
// result files, the report, and Ctrl-C / timeout cancelling the scan it started.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import {
  junitProblems,
  multitoolProblems,
  sarifMultitool,
  sarifSchemaProblems,
} from '../formats/validators.js';
import {
  apiRequests,
  assertBundleBuilt,
  cliEnv,
  lines,
  runCli,
  runCliInTty,
  TTY_SKIP,
  spawnCli,
} from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  // 20 emulator seconds per wall second: a default scan (10 s) takes half a second.
  emu = await startEmulator({ seed: 7, clockSpeed: 20, reportRenderMs: 2_000 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-run-'));
});
afterEach(() => emu.setScanPlan({}));
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const RUN = ['scan', 'run', '--type', 'compliance'];

interface SarifLog {
  runs: Array<{
    results: Array<{
      locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
    }>;
  }>;
}

function locationUris(log: SarifLog): string[] {
  return (log.runs[0]?.results ?? []).map(
    (r) => r.locations?.[0]?.physicalLocation.artifactLocation.uri ?? '(none)',
  );
}

interface RunJson {
  scan: { id: string; status: string; phase: string };
  triggered: boolean;
  lostTrigger: { outcome: string; scanId?: string; existingKnown: boolean } | null;
  waited: boolean;
  verdict: string | null;
  failed: number;
  total: number | null;
  findings: Array<{ result: string; severity: string }>;
  report: {
    policy: string;
    state: string | null;
    path: string | null;
    sha256: string | null;
    note: string | null;
  };
  files: Record<string, string | null>;
  failureReason: string | null;
  exitCode: number;
}

function truthOf(id: string) {
  return emu.scans().find((s) => s.id === id);
}

describe('scan run without --watch', () => {
  it('triggers one scan and prints it, exit 0', async () => {
    const before = emu.scans().length;
    const result = await runCli([...RUN, '--output', 'json'], cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.equal(json.waited, false);
    assert.equal(json.verdict, null);
    assert.equal(json.triggered, true);
    assert.equal(emu.scans().length, before + 1);
    assert.ok(truthOf(json.scan.id));
    const table = await runCli(RUN, cliEnv(emu));
    assert.match(table.stdout, /^verdict\s+not waited for/m);
  });
});

describe('scan run --watch', () => {
  it('logs sparse plain progress lines when stderr is not a terminal; the gate exits 2', async () => {
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 4_000 });
    const result = await runCli(
      [...RUN, '--watch', '--fail-on-findings', '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(result.code, 2, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.equal(json.verdict, 'failed');
    assert.equal(json.failed, 5);
    assert.equal(json.findings.length, 5);
    assert.equal(json.exitCode, 2);
    assert.ok(
      !result.stderr.includes('\r') && !result.stderr.includes('\u001b'),
      'no control codes in a log',
    );
    assert.ok(!result.stderr.includes('failed-results.json'), 'no scratch path in the log');
    const progress = lines(result.stderr).filter((line) =>
      line.startsWith(`Scan ${json.scan.id}: `),
    );
    assert.ok(progress.length >= 2, result.stderr);
    assert.ok(progress.length <= 13, `sparse: ${progress.length} lines`);
    assert.match(progress.at(-1) ?? '', /: completed 100% \(\d+:\d\d\)$/);
    assert.equal(truthOf(json.scan.id)?.status, 'completed');
    assert.equal(
      lines(result.stderr).at(-1),
      'Findings gate: 5 failed findings (exit code 2)',
      'every exit 2 says why on stderr',
    );
  });

  it('findings without --fail-on-findings exit 0; table output lists them worst first', async () => {
    const result = await runCli([...RUN, '--watch'], cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^verdict\s+failed \(5 failed findings\)$/m);
    const rows = lines(result.stdout).slice(
      lines(result.stdout).findIndex((l) => l.startsWith('SEVERITY')) + 1,
    );
    assert.equal(rows.length, 5);
    const order = ['critical', 'high', 'medium', 'low', 'info', 'unknown'];
    const ranks = rows.map((row) => order.indexOf(row.split(/\s+/)[0] ?? ''));
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
    );
  });

  it('a clean scan passes the gate (exit 0)', async () => {
    emu.setScanPlan({ outcome: { kind: 'completed', total: 20, failed: 0 } });
    const result = await runCli(
      [...RUN, '--watch', '--fail-on-findings', '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(result.code, 0, result.stderr);
    assert.equal((JSON.parse(result.stdout) as RunJson).verdict, 'passed');
  });

  it('a lost trigger answer: the scan is looked up, not re-sent, and the JSON says so', async () => {
    emu.addFault({
      route: 'POST /tenants/me/scans',
      fault: { kind: 'reset', when: 'mid-response' },
      times: 1,
    });
    const before = emu.scans().length;
    const result = await runCli([...RUN, '--watch', '--output', 'json'], cliEnv(emu));
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.equal(emu.scans().length, before + 1, 'one scan, never two');
    assert.deepEqual(json.lostTrigger, {
      outcome: 'found',
      scanId: json.scan.id,
      existingKnown: true,
    });
    const clean = await runCli([...RUN, '--output', 'json'], cliEnv(emu));
    assert.equal((JSON.parse(clean.stdout) as RunJson).lostTrigger, null);
  });

  it('a scan that fails remotely exits 1', async () => {
    emu.setScanPlan({ outcome: { kind: 'failed', message: 'connector offline' } });
    const result = await runCli(
      [...RUN, '--watch', '--fail-on-findings', '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(result.code, 1, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.equal(json.scan.phase, 'failed');
    assert.match(json.failureReason ?? '', /failed/);
  });

  it('writes a valid JUnit file (every check) and SARIF file (failed checks), and the report', async () => {
    const junit = join(work, 'out', 'results.xml');
    const sarif = join(work, 'out', 'results.sarif');
    const report = join(work, 'out', 'report.pdf');
    const results = join(work, 'out', 'failed.json');
    const spent = emu.creditsSpent();
    const args = [...RUN, '--watch', '--fail-on-findings', '--report', 'generate', '-o', report];
    args.push('--junit', junit, '--sarif', sarif, '--results-file', results, '--output', 'json');
    const workflow = 'octo-org/octo-repo/.github/workflows/scan.yml@refs/heads/main';
    const result = await runCli(args, cliEnv(emu, { GITHUB_WORKFLOW_REF: workflow }));
    assert.equal(result.code, 2, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.deepEqual(json.files, { results, junit, sarif, csv: null, ocsf: null });

    assert.deepEqual(await junitProblems(junit), []);
    const xml = await readFile(junit, 'utf8');
    assert.equal([...xml.matchAll(/<testcase /g)].length, 40);
    assert.equal([...xml.matchAll(/<failure /g)].length, 5);

    const log = JSON.parse(await readFile(sarif, 'utf8')) as SarifLog;
    assert.deepEqual(sarifSchemaProblems(log), []);
    assert.equal(log.runs[0]?.results.length, 5);
    // Code scanning rejects a result without a location: as the Action, the workflow's file.
    assert.deepEqual(locationUris(log), Array(5).fill('.github/workflows/scan.yml'));
    const tool = sarifMultitool();
    if (tool)
      assert.deepEqual((await multitoolProblems(tool, [sarif], { github: true })).get(sarif), []);
    assert.equal((JSON.parse(await readFile(results, 'utf8')) as unknown[]).length, 5);

    assert.equal(emu.creditsSpent(), spent + 1, 'generate spent one credit');
    assert.equal(json.report.path, report);
    assert.equal(json.report.sha256, emu.reportDigest(json.scan.id).sha256);
    assert.equal((await readFile(report)).length, emu.reportDigest(json.scan.id).bytes);
  });

  it('--sarif-location names the file results point at; a path outside the repository is refused', async () => {
    const id = (JSON.parse((await runCli([...RUN, '--json'], cliEnv(emu))).stdout) as RunJson).scan
      .id;
    emu.advance(3_600_000);
    const sarif = join(work, 'located.sarif');
    const results = (extra: string[]) =>
      runCli(['scan', 'results', id, '--sarif', sarif, ...extra], cliEnv(emu));
    const given = await results(['--sarif-location', '.gitlab-ci.yml']);
    assert.equal(given.code, 0, given.stderr);
    const uris = locationUris(JSON.parse(await readFile(sarif, 'utf8')) as SarifLog);
    assert.deepEqual(uris, Array(5).fill('.gitlab-ci.yml'));
    assert.equal((await results([])).code, 0);
    const fallback = locationUris(JSON.parse(await readFile(sarif, 'utf8')) as SarifLog);
    assert.deepEqual(
      fallback,
      Array(5).fill('.github/workflows'),
      'outside GitHub: the Action’s fallback',
    );
    emu.clearRequests();
    for (const outside of ['/etc/passwd', '../x.yml', 'https://evil.example/x']) {
      const refused = await results(['--sarif-location', outside]);
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        /^tenant-scan: error: Sanity checks failed: --sarif-location must be a path inside the repository/,
      );
    }
    const alone = await runCli(['scan', 'results', id, '--sarif-location', 'x.yml'], cliEnv(emu));
    assert.equal(alone.code, 1);
    assert.match(
      alone.stderr,
      /--sarif-location is where SARIF results point: give --sarif <file> too/,
    );
    assert.equal(emu.requests().length, 0, 'nothing sent');
  });

  it('--report if-ready never generates: a locked report is a note, not a failure', async () => {
    const spent = emu.creditsSpent();
    const report = join(work, 'never.pdf');
    const result = await runCli(
      [...RUN, '--watch', '--report', 'if-ready', '-o', report, '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(result.code, 0, result.stderr);
    const json = JSON.parse(result.stdout) as RunJson;
    assert.equal(json.report.state, 'locked');
    assert.equal(json.report.path, null);
    assert.match(result.stderr, /warning: .*locked/);
    assert.match(json.report.note ?? '', /ask for it with --report generate/, "the CLI's own flag");
    assert.doesNotMatch(result.stderr, /report: generate/);
    assert.equal(json.files.results, null, 'no --results-file: no results file');
    assert.doesNotMatch(result.stderr, /written to/);
    assert.equal(emu.creditsSpent(), spent);
  });

  it('draws a live progress bar in a real terminal', { skip: TTY_SKIP }, async () => {
    emu.setScanPlan({ durationMs: 80_000, queuedMs: 2_000 });
    const result = await runCliInTty([...RUN, '--watch'], cliEnv(emu));
    assert.equal(result.code, 0, result.stdout);
    assert.ok(result.stdout.includes('\r\u001b[2K'), 'the bar is redrawn in place');
    const frames = result.stdout
      .split('\r\u001b[2K')
      .filter((frame) => /^Scan \S{8} \[/.test(frame));
    assert.ok(frames.length >= 2, `bar frames: ${frames.length}`);
    assert.match(result.stdout, /\[#{5,}\.*\] +\d+%/);
    assert.match(result.stdout, /\[#+\] 100% {2}completed/);
    assert.ok(
      !/^Scan \S+: running \d+% \(/m.test(result.stdout),
      'no plain log lines on a terminal',
    );
  });

  it('Ctrl-C (SIGINT) cancels the scan it started, then exits 130', async () => {
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 40 } });
    const cli = spawnCli([...RUN, '--watch', '--fail-on-findings'], cliEnv(emu));
    await cli.waitForStderr('Triggered compliance scan');
    await cli.waitForStderr(': running');
    const id = /Triggered compliance scan (\S+)/.exec(cli.stderr())?.[1] ?? '';
    assert.equal(truthOf(id)?.status, 'running');
    cli.child.kill('SIGINT');
    const result = await cli.done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, /^Interrupted: stopping \(press Ctrl-C again to quit at once\)$/m);
    assert.equal(truthOf(id)?.status, 'cancelled', 'the emulator saw the scan cancelled');
    assert.match(result.stderr, new RegExp(`scan ${id} was cancelled remotely`));
    const cancels = apiRequests(emu).filter(
      (r) => r.method === 'POST' && r.path === `/scans/${id}/cancel`,
    );
    assert.equal(cancels.length, 1);
  });

  it('--scan-id --watch follows a scan that exists; Ctrl-C leaves it running (not ours), exits 130', async () => {
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 30 } });
    const started = await runCli([...RUN, '--json'], cliEnv(emu));
    assert.equal(started.code, 0, started.stderr);
    const id = (JSON.parse(started.stdout) as { scan: { id: string } }).scan.id;
    emu.clearRequests();
    const cli = spawnCli(
      ['scan', 'run', '--scan-id', id, '--watch', '--fail-on-findings'],
      cliEnv(emu),
    );
    await cli.waitForStderr(': running');
    cli.child.kill('SIGINT');
    const result = await cli.done;
    assert.equal(result.code, 130, result.stderr);
    assert.match(result.stderr, new RegExp(`^Following scan ${id}`, 'm'));
    assert.match(
      result.stderr,
      new RegExp(`scan ${id} was left running \\(it was not started by this job\\)`),
    );
    assert.equal(truthOf(id)?.status, 'running', 'the emulator still runs it');
    assert.deepEqual(
      apiRequests(emu).filter((r) => r.method === 'POST'),
      [],
      'nothing triggered, nothing cancelled',
    );
  });

  it('SIGTERM (a CI system cancelling the job) cancels the scan too, then exits 143', async () => {
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 20 } });
    const cli = spawnCli([...RUN, '--watch'], cliEnv(emu));
    await cli.waitForStderr(': running');
    const id = /Triggered compliance scan (\S+)/.exec(cli.stderr())?.[1] ?? '';
    cli.child.kill('SIGTERM');
    const result = await cli.done;
    assert.equal(result.code, 143, result.stderr);
    assert.equal(truthOf(id)?.status, 'cancelled');
    // Nobody is at a keyboard: the line names the signal and gives no Ctrl-C advice.
    assert.match(result.stderr, /^Terminated \(SIGTERM\): stopping$/m);
    assert.doesNotMatch(result.stderr, /Ctrl-C/);
  });

  it('--timeout cancels the scan it started and exits 1', async () => {
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 10 } });
    const result = await runCli(
      [...RUN, '--watch', '--timeout', '0.03', '--output', 'json'],
      cliEnv(emu),
    );
    assert.equal(result.code, 1, result.stderr);
    assert.equal(result.stdout, '');
    const id = /Triggered compliance scan (\S+)/.exec(result.stderr)?.[1] ?? '';
    assert.equal(truthOf(id)?.status, 'cancelled');
    const errors = lines(result.stderr).filter((line) => line.startsWith('tenant-scan:'));
    assert.equal(errors.length, 1);
    assert.match(
      errors[0] ?? '',
      /did not finish within 0\.03 minutes \(--timeout\); .*cancelled remotely/,
    );
  });
});
