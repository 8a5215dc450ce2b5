// Runs dist/index.js the way the runner does (env, files and inputs prepared by the runner harness,
// test/helpers/runner.ts) but spawned here, so that the spawn and exit instants are exact, the pid
// is known and /usr/bin/time can wrap the process for its peak RSS.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  NODE_24,
  removeJobDirectory,
  runActionStep,
  type JobDirectory,
} from '../../test/helpers/runner.js';
import { parseFileCommands } from '../../test/helpers/workflow-commands.js';
import { wallNow } from './stats.js';

const NOOP = fileURLToPath(new URL('./noop.mjs', import.meta.url));
const GNU_TIME = '/usr/bin/time';

export interface PreparedStep {
  env: Record<string, string>;
  job: JobDirectory;
}

/** A job directory and the runner's env for one main step (inputs with action.yml defaults). */
export async function prepareStep(
  inputs: Record<string, string>,
  env: Record<string, string | undefined> = {},
): Promise<PreparedStep> {
  const probe = await runActionStep({
    entry: 'main',
    script: NOOP,
    inputs,
    env,
    timeoutMs: 30_000,
  });
  if (probe.exitCode !== 0) throw new Error(`runner harness probe failed: ${probe.stderr}`);
  return { env: probe.env, job: probe.job };
}

export interface ExitInfo {
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Wall ms (Date.now() scale). */
  spawnedAt: number;
  exitedAt: number;
  stdout: string;
  stderr: string;
  /** Peak RSS from GNU time, when the process was wrapped by it. */
  maxRssKiB?: number;
  /** User + system CPU seconds from GNU time (robust to machine load, unlike wall times). */
  cpuSeconds?: number;
}

export interface SpawnOptions {
  /** Wrap in `/usr/bin/time -v` to read the peak RSS (the wrapper's own start adds ~1 ms). */
  measureRss?: boolean;
  timeoutMs?: number;
  /** Extra node flags (diagnostics only; they change what is measured). */
  nodeArgs?: string[];
  extraEnv?: Record<string, string>;
}

export interface ActionProcess {
  pid: number;
  spawnedAt: number;
  exited: Promise<ExitInfo>;
  kill(): void;
}

export function gnuTimeAvailable(): boolean {
  return existsSync(GNU_TIME);
}

export function spawnAction(
  script: string,
  step: PreparedStep,
  options: SpawnOptions = {},
): ActionProcess {
  return spawnNode([script], step, options);
}

/** Node 24 with `argv` (a script, or e.g. `-e ''` for the baseline) in the step's env and workspace. */
export function spawnNode(
  argv: string[],
  step: PreparedStep,
  options: SpawnOptions = {},
): ActionProcess {
  const timeFile = join(step.job.root, 'gnu-time.txt');
  const nodeCommand = [NODE_24, ...(options.nodeArgs ?? []), ...argv];
  // Without GNU time (not installed) the process runs bare and peak RSS / CPU stay undefined.
  const [command, ...args] =
    options.measureRss && gnuTimeAvailable()
      ? [GNU_TIME, '-v', '-o', timeFile, ...nodeCommand]
      : nodeCommand;
  const spawnedAt = wallNow();
  const child = spawn(command as string, args, {
    env: { ...step.env, ...options.extraEnv },
    cwd: step.job.workspace,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killGroup = () => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // already gone
    }
  };
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const timer = setTimeout(killGroup, options.timeoutMs ?? 600_000);
  const exited = new Promise<ExitInfo>((resolve, reject) => {
    let exitedAt = 0;
    child.on('error', reject);
    child.on('exit', () => (exitedAt = wallNow()));
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      const info: ExitInfo = { exitCode, signal, spawnedAt, exitedAt, stdout, stderr };
      if (!options.measureRss || !gnuTimeAvailable()) return resolve(info);
      // GNU time passes the child's exit code through.
      readGnuTime(timeFile).then((measured) => resolve({ ...info, ...measured }), reject);
    });
  });
  return { pid: child.pid as number, spawnedAt, exited, kill: killGroup };
}

async function readGnuTime(timeFile: string): Promise<Pick<ExitInfo, 'maxRssKiB' | 'cpuSeconds'>> {
  const text = await readFile(timeFile, 'utf8').catch(() => '');
  const number = (pattern: RegExp) => {
    const match = pattern.exec(text);
    return match ? Number(match[1]) : undefined;
  };
  const user = number(/User time \(seconds\): ([\d.]+)/);
  const system = number(/System time \(seconds\): ([\d.]+)/);
  return {
    maxRssKiB: number(/Maximum resident set size \(kbytes\): (\d+)/),
    cpuSeconds: user === undefined || system === undefined ? undefined : user + system,
  };
}

export interface StepEffects {
  outputs: Record<string, string>;
  summary: string;
  summaryBytes: number;
}

/** What the runner reads back after the step: outputs and the job summary. */
export async function readStepEffects(step: PreparedStep): Promise<StepEffects> {
  const outputFile = step.env.GITHUB_OUTPUT as string;
  const summaryFile = step.env.GITHUB_STEP_SUMMARY as string;
  const [output, summary, summaryStat] = await Promise.all([
    readFile(outputFile, 'utf8'),
    readFile(summaryFile, 'utf8'),
    stat(summaryFile),
  ]);
  return { outputs: parseFileCommands(output), summary, summaryBytes: summaryStat.size };
}

export const removeStep = (step: PreparedStep): Promise<void> => removeJobDirectory(step.job);
