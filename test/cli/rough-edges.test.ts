// The CLI's rough edges, each as a user met it: output paths that cannot be written are refused
// before any request; the first SIGTERM stops the process within the cancel grace even while a
// write is stuck; a scan cancelled remotely says why; numbers get their own message, and a flag
// given an empty value is named rather than read as not given; a typo gets a
// "did you mean"; a 404 on the first call points at the base path; --fail-on-severity and
// --fail-on turn the gate on, the other gate flags alone say at once that it is off.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { api, assertBundleBuilt, cliEnv, lines, runCli, spawnCli, triggerScan } from './helpers.js';

let emu: Emulator;
let work: string;
before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 43, clockSpeed: 100 });
  work = await mkdtemp(join(tmpdir(), 'cli-edges-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});
beforeEach(() => {
  emu.clearFaults();
  emu.clearRequests();
  emu.setScanPlan({
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed', total: 40, failed: 5 },
  });
});

const run = (args: string[], extra: Record<string, string> = {}) =>
  runCli(args, cliEnv(emu, extra), { cwd: work });

/** `scan run --type compliance --watch` with more flags. */
const watchedScan = (...flags: string[]) =>
  run(['scan', 'run', '--type', 'compliance', '--watch', ...flags]);

/** A watched `scan run` of a scan that takes `durationMs`, once it said which scan it triggered. */
async function startWatchedScan(durationMs: number) {
  emu.setScanPlan({
    durationMs,
    queuedMs: 0,
    outcome: { kind: 'completed', total: 40, failed: 5 },
  });
  const cli = spawnCli(['scan', 'run', '--type', 'compliance', '--watch'], cliEnv(emu), {
    cwd: work,
  });
  await cli.waitForStderr('Triggered compliance scan');
  return { cli, id: /Triggered compliance scan (\S+)/.exec(cli.stderr())?.[1] ?? '' };
}

async function finished(): Promise<string> {
  const id = await triggerScan(emu);
  emu.advance(60_000);
  emu.clearRequests();
  return id;
}

describe('CLI: output paths are checked before the first request', () => {
  it('report download -o <a directory>, -o <inside a file>; scan results --junit <a directory>', async () => {
    const id = await finished();
    await writeFile(join(work, 'report.pdf'), 'not a directory');
    const cases: Array<[string[], RegExp]> = [
      [
        ['report', 'download', id, '-o', work],
        /^Sanity checks failed: -o\/--out ".*" is a directory; give a file path$/,
      ],
      [
        ['report', 'download', id, '-o', 'report.pdf/x.pdf'],
        /-o\/--out "report\.pdf\/x\.pdf" is inside a file, not a directory$/,
      ],
      [['scan', 'results', id, '--junit', work], /--junit ".*" is a directory; give a file path$/],
      [
        ['scan', 'results', id, '--sarif', '/dev/null'],
        /--sarif "\/dev\/null" is not a regular file/,
      ],
      [
        ['scan', 'run', '--type', 'compliance', '--watch', '--junit', '/proc/x/j.xml'],
        /--junit "\/proc\/x\/j\.xml" cannot be written: no directory can be made in "\/proc"$/,
      ],
      [
        // /proc exists, but no file can be made in it (root passes every permission check)
        ['scan', 'run', '--type', 'compliance', '--watch', '--junit', '/proc/x.xml'],
        /--junit "\/proc\/x\.xml" cannot be written: no file can be made in "\/proc" \(ENOENT\)$/,
      ],
    ];
    for (const [args, pattern] of cases) {
      const result = await run(args);
      assert.equal(result.code, 1, result.stderr);
      const [line, ...rest] = lines(result.stderr);
      assert.deepEqual(rest, [], result.stderr);
      assert.match(line?.replace(/^tenant-scan: error: /, '') ?? '', pattern);
      assert.equal(emu.requests().length, 0, `${args.join(' ')}: nothing sent`);
    }
  });
});

describe('CLI: a result file that cannot be written after the scan', () => {
  it('is one warning naming it; the verdict, the exit code and the other files stand', async () => {
    const dir = await mkdtemp(join(work, 'gone-'));
    await mkdir(join(dir, 'out'));
    await mkdir(join(dir, 'page'));
    const cli = spawnCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'].concat([
        '--junit',
        'out/r.xml',
        '--sarif',
        's.sarif',
        '--html',
        'page/p.html',
      ]),
      cliEnv(emu),
      { cwd: dir },
    );
    await cli.waitForStderr('Triggered compliance scan');
    // Checked before the trigger (fine), then its folder turns into a file during the scan.
    for (const folder of ['out', 'page']) {
      await rm(join(dir, folder), { recursive: true });
      await writeFile(join(dir, folder), 'a file now');
    }
    emu.advance(60_000);
    const result = await cli.done;
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      /^warning: The JUnit file out\/r\.xml could not be written: a part of its path is a file, not a folder \(EEXIST\); the verdict stands$/m,
    );
    assert.match(
      result.stderr,
      /^warning: The HTML report page\/p\.html could not be written: a part of its path is a file, not a folder \(EEXIST\); the verdict stands$/m,
    );
    assert.doesNotMatch(result.stderr, /\.tmp|tenant-scan: error/);
    const sarif = JSON.parse(await readFile(join(dir, 's.sarif'), 'utf8')) as { runs: unknown[] };
    assert.equal(sarif.runs.length, 1);
  });
});

describe('CLI: the first SIGTERM stops the process', () => {
  it('within the cancel grace, even while a write is stuck (a directory made under /proc)', async () => {
    emu.setScanPlan({
      durationMs: 200_000,
      queuedMs: 0,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    const dir = await mkdtemp(join(work, 'stuck-'));
    // Checked while missing (fine), then turned into a way into /proc, where Node's recursive mkdir
    // never returns: the results file's directory can then never be made.
    const cli = spawnCli(
      ['scan', 'run', '--type', 'compliance', '--watch', '--results-file', 'link/sub/r.json'],
      cliEnv(emu),
      { cwd: dir },
    );
    await cli.waitForStderr('Triggered compliance scan');
    await symlink('/proc', join(dir, 'link'));
    emu.advance(300_000);
    await cli.waitForStderr('completed');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const signalled = Date.now();
    cli.child.kill('SIGTERM');
    const result = await cli.done;
    const tookMs = Date.now() - signalled;
    assert.equal(result.code, 143, result.stderr);
    assert.ok(tookMs < 12_000, `stopped after ${tookMs} ms`);
    assert.match(
      lines(result.stderr).at(-1) ?? '',
      /^tenant-scan: error: interrupted; stopped after 10 s$/,
    );
  });
});

describe('CLI: the reader of the output goes away (`| head`)', () => {
  it('exits 141 quietly, no stack trace; the results it was printing are simply cut', async () => {
    emu.setScanPlan({
      durationMs: 500,
      queuedMs: 0,
      outcome: { kind: 'completed', total: 3000, failed: 3000 },
    });
    const id = await finished();
    const cli = spawnCli(['scan', 'results', id, '--json'], cliEnv(emu), { cwd: work });
    // More than a pipe holds (about 1.5 MB): the reader takes the first chunk and goes.
    cli.child.stdout?.once('data', () => cli.child.stdout?.destroy());
    const result = await cli.done;
    assert.equal(result.code, 141, result.stderr);
    assert.doesNotMatch(result.stderr, /EPIPE|Error|^\s+at |tenant-scan: error/m);
  });

  it('mid-run (stderr with it, `2>&1 | head`): the scan it started is cancelled, exit 141', async () => {
    const { cli, id } = await startWatchedScan(600_000);
    cli.child.stderr?.destroy();
    cli.child.stdout?.destroy();
    emu.advance(200_000); // progress moves: the next progress line finds nobody reading
    const result = await cli.done;
    assert.equal(result.code, 141);
    const scan = await api(emu, 'GET', `/scans/${id}`);
    assert.equal((scan.data as { status?: string }).status, 'cancelled');
  });
});

describe('CLI: what each failure says', () => {
  it('a scan cancelled in the dashboard while watched: one error line with the status', async () => {
    const { cli, id } = await startWatchedScan(60_000);
    await api(emu, 'POST', `/scans/${id}/cancel`);
    const result = await cli.done;
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      lines(result.stderr).at(-1),
      'tenant-scan: error: Verdict failed: the scan ended with status "cancelled"',
    );
  });

  for (const [value, words] of [
    ['-5', '"-5"'],
    ['0', '"0"'],
    ['soon', '"soon"'],
  ] as const) {
    it(`--timeout ${value}: its own message, nothing sent`, async () => {
      const result = await watchedScan('--timeout', value);
      assert.equal(result.code, 1, result.stderr);
      assert.deepEqual(lines(result.stderr), [
        `tenant-scan: error: Sanity checks failed: --timeout must be a number of minutes above 0 and at most 7200, got ${words}`,
      ]);
      assert.equal(emu.requests().length, 0);
    });
  }

  it('a flag given an empty value (an unset variable) is named, once each, nothing sent', async () => {
    const result = await watchedScan('--junit', '', '--fail-on-severity', ' ', '--notify-on', '');
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(lines(result.stderr), [
      'tenant-scan: error: Sanity checks failed: --junit is empty: give a value, or leave the flag out; --fail-on-severity is empty: give a value, or leave the flag out; --notify-on is empty: give a value, or leave the flag out',
    ]);
    assert.equal(emu.requests().length, 0);
  });

  it('--request-timeout -1: its own message', async () => {
    const result = await run(['tenant', 'me', '--request-timeout', '-1']);
    assert.equal(result.code, 1);
    assert.match(
      lines(result.stderr)[0] ?? '',
      /--request-timeout must be a number of seconds above 0 and at most 3600, got "-1"$/,
    );
  });

  it('a typo gets a "did you mean", without the whole command list', async () => {
    const command = await run(['scna', 'list']);
    assert.equal(command.code, 1);
    assert.deepEqual(lines(command.stderr), [
      'tenant-scan: error: unknown command: "scna"; did you mean scan?',
    ]);
    const sub = await run(['scan', 'lsit']);
    assert.deepEqual(lines(sub.stderr), [
      `tenant-scan: error: unknown command of 'scan': "lsit"; did you mean list?`,
    ]);
    const flag = await run(['scan', 'results', 'x', '--severity', 'high']);
    assert.deepEqual(lines(flag.stderr), [
      "tenant-scan: error: Unknown option '--severity'; did you mean --fail-on-severity?",
    ]);
    assert.equal(emu.requests().length, 0);
  });

  it('a 404 on the first call: the address may lack the base path, and the one tried', async () => {
    const wrong = emu.url.replace(/\/api\/v1$/, '');
    for (const args of [
      ['tenant', 'me'],
      ['scan', 'run', '--type', 'compliance', '--watch'],
    ]) {
      const result = await run(args, { SERVICE_API_URL: wrong });
      assert.equal(result.code, 1);
      assert.match(
        lines(result.stderr).at(-1) ?? '',
        new RegExp(
          `the service has no such route at ${wrong.replace(/[.]/g, '\\.')}/tenants/me: the API address may lack its base path \\(for example …/v1\\); check SERVICE_API_URL`,
        ),
      );
    }
  });

  it('--fail-on-severity and --fail-on turn the gate on: the exit code follows it', async () => {
    emu.setScanPlan({
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: ['CIS-1.1.1'] },
    });
    const critical = await watchedScan('--fail-on-severity', 'medium');
    assert.equal(critical.code, 2, critical.stderr);
    assert.match(critical.stderr, /^Findings gate: 1 failed finding/m);
    assert.ok(!critical.stderr.includes('note: '), critical.stderr);
    const any = await run(['scan', 'results', await finished(), '--fail-on', 'any']);
    assert.equal(any.code, 2, any.stderr);
    emu.setScanPlan({
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: ['CIS-9.1.1'] },
    });
    const low = await watchedScan('--fail-on-severity', 'high');
    assert.equal(low.code, 0, 'below the threshold: the gate passes');
  });

  it('the other gate flags alone: one note, before the scan, that the gate is off', async () => {
    const cli = spawnCli(
      [
        'scan',
        'run',
        '--type',
        'compliance',
        '--watch',
        '--baseline',
        'previous',
        '--history',
        '2',
      ],
      cliEnv(emu),
      { cwd: work },
    );
    await cli.waitForStderr('note: ');
    const triggered = () =>
      emu.requests().filter((r) => r.method === 'POST' && r.path === '/tenants/me/scans').length;
    assert.equal(triggered(), 0, 'the note comes before the scan is triggered');
    const result = await cli.done;
    assert.equal(result.code, 0, result.stderr);
    assert.equal(triggered(), 1);
    const notices = lines(result.stderr).filter((line) => line.startsWith('note: '));
    assert.deepEqual(notices, [
      'note: the gate is off: --baseline and --history change the verdict, not the exit code; add --fail-on-findings to exit 2 when the gate fails',
    ]);
    const gated = await watchedScan('--baseline', 'previous', '--fail-on-findings');
    assert.equal(gated.code, 2, gated.stderr);
    assert.ok(!gated.stderr.includes('note: '));
  });
});
