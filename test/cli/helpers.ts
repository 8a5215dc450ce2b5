// Running the bundled CLI (dist/cli/index.js) as a child process against the emulator.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Emulator } from '../emulator/types.js';
import { watchPeakRss } from '../helpers/peak-rss.js';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The bundle under test; TENANT_SCAN_CLI points elsewhere (a private build while developing). */
export const CLI = process.env.TENANT_SCAN_CLI ?? join(ROOT, 'dist', 'cli', 'index.js');

export function assertBundleBuilt(): void {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Wall time from spawn to exit (spawnCli only). */
  durationMs?: number;
  /** Peak resident memory of the process, sampled while it ran (spawnCli only, with /proc). */
  peakRssBytes?: number;
}

export type Env = Record<string, string | undefined>;

/** The fields of a run record (`scan run --record`, `--records DIR`) a test of tenants reads. */
export interface TenantRecordJson {
  label: string;
  tenant: string | null;
  verdict: string | null;
  failed: number;
  error: string | null;
  scan: { id: string } | null;
}

/** A clean environment: only what the CLI needs, never the developer's SERVICE_* variables;
 *  polls 100 ms apart instead of 1 s (the emulator needs no pacing; TENANT_SCAN_TEST_PACING_MS). */
export function cliEnv(emu: Emulator | undefined, extra: Env = {}): Env {
  const base: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    TENANT_SCAN_TEST_PACING_MS: '100',
  };
  if (emu) Object.assign(base, { SERVICE_API_KEY: emu.apiKey, SERVICE_API_URL: emu.url });
  return { ...base, ...extra };
}

export interface SpawnedCli {
  child: ReturnType<typeof spawn>;
  done: Promise<CliResult>;
  /** Resolves once stderr contains the text. */
  waitForStderr(text: string): Promise<void>;
  /** Stderr so far. */
  stderr(): string;
}

/** A CLI left running by a test that failed halfway holds the test file's output open, and the
 *  whole suite waits for it (against a closed emulator it retries for its 60-minute timeout): it
 *  is killed after this long whatever happens. */
const SAFETY_KILL_MS = 180_000;

export function spawnCli(
  args: string[],
  env: Env,
  options: { cwd?: string; safetyKillMs?: number } = {},
): SpawnedCli {
  const started = Date.now();
  const child = spawn(process.execPath, [CLI, ...args], {
    env: env as NodeJS.ProcessEnv,
    cwd: options.cwd ?? ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const safety = setTimeout(() => child.kill('SIGKILL'), options.safetyKillMs ?? SAFETY_KILL_MS);
  safety.unref();
  child.on('exit', () => clearTimeout(safety));
  const memory = watchPeakRss(child.pid);
  let measured: Pick<CliResult, 'durationMs' | 'peakRssBytes'> = {};
  child.on('exit', () => {
    measured = { durationMs: Date.now() - started, peakRssBytes: memory.stop() };
  });
  let stdout = '';
  let stderr = '';
  const waiters: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    for (const waiter of waiters.filter((w) => stderr.includes(w.text))) waiter.resolve();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ...measured }));
  });
  return {
    child,
    done,
    stderr: () => stderr,
    waitForStderr: (text) =>
      new Promise((resolve, reject) => {
        if (stderr.includes(text)) return resolve();
        waiters.push({ text, resolve });
        void done.then(() =>
          reject(new Error(`CLI ended before stderr had ${JSON.stringify(text)}:\n${stderr}`)),
        );
      }),
  };
}

export function runCli(
  args: string[],
  env: Env,
  options: { cwd?: string } = {},
): Promise<CliResult> {
  return spawnCli(args, env, options).done;
}

/** A pseudo-terminal needs util-linux `script` (on every Debian-like system); elsewhere the TTY
 *  test is skipped, saying why: it is not a tool `npm ci` can bring. */
export const TTY_SKIP = existsSync('/usr/bin/script')
  ? false
  : 'no /usr/bin/script (util-linux) to open a pseudo-terminal';

/** Runs the CLI in a real pseudo-terminal (util-linux `script`): stdout and stderr are a TTY. */
export function runCliInTty(args: string[], env: Env): Promise<CliResult> {
  const command = [process.execPath, CLI, ...args].map(shellQuote).join(' ');
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/script', ['-qfec', command, '/dev/null'], {
      env: { ...env, TERM: 'xterm', COLUMNS: '100' } as NodeJS.ProcessEnv,
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A request to the emulator's API with the default key (test setup, not the code under test). */
export async function api(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; data: unknown }> {
  const response = await fetch(`${emu.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text === '' ? null : (JSON.parse(text) as { data?: unknown });
  return { status: response.status, data: parsed?.data };
}

/** Triggers a scan through the API and returns its id. */
export async function triggerScan(emu: Emulator): Promise<string> {
  const reply = await api(emu, 'POST', '/tenants/me/scans', { scanType: 'compliance' });
  const id = (reply.data as { id?: string } | undefined)?.id;
  if (!id) throw new Error(`trigger failed: ${reply.status}`);
  return id;
}

/** One tenant's job as a matrix runs it: a tenant of its own whose scan fails `failedChecks`,
 *  then `scan run --watch --fail-on-findings --tenant-label LABEL --record PATH` with its key. */
export async function recordedRun(
  emu: Emulator,
  tenant: { label: string; name: string; failedChecks: string[] },
  recordPath: string,
): Promise<CliResult> {
  const { apiKey } = emu.addTenant({
    name: tenant.name,
    scanPlan: {
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 0, failedChecks: tenant.failedChecks },
    },
  });
  return runCli(
    [
      ...['scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'],
      ...['--tenant-label', tenant.label, '--record', recordPath],
    ],
    cliEnv(emu, { SERVICE_API_KEY: apiKey }),
  );
}

/** The stderr lines, without empty ones. */
export function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

export { apiRequests } from '../emulator/request-log.js';
