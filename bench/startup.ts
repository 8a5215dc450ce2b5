// 1. Start-up: spawn of `node dist/index.js` → its first API request (the emulator's request log,
// same process and clock as the spawn instant), against `node -e ''` spawn → exit in the same run,
// and against the dist/ of BEFORE_LIBRARIES_COMMIT (what standing on the libraries cost).
// 2. The CLI's start: CPU time of `dist/cli/index.js --version` against `node -e ''` and against
// the CLI of BEFORE_ONE_PARSE_COMMIT, in the same rounds.
import { readFile, rm } from 'node:fs/promises';
import { getPriority, setPriority } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../test/emulator/emulator.js';
import type { Emulator } from '../test/emulator/types.js';
import {
  prepareStep,
  removeStep,
  spawnAction,
  spawnNode,
  type PreparedStep,
} from './lib/action-process.js';
import {
  BEFORE_LIBRARIES_COMMIT,
  mainBundleSizes,
  snapshotDistAt,
  type ChunkSize,
  type DistSnapshot,
} from './lib/dist-snapshot.js';
import { median, spread, type Spread } from './lib/stats.js';

const LOAD_TRACE = fileURLToPath(new URL('./lib/load-trace.mjs', import.meta.url));
/** Spawn → first API request, at most this many times `node -e ''` in the same run. */
export const STARTUP_TARGET_RATIO = 6;

export interface StartupResult {
  repetitions: number;
  /** Spawn → first API request (GET /tenants/me) of dist/index.js. */
  firstRequestMs: Spread;
  /** Spawn → exit of a whole trivial run (scan already complete at the first poll, 0 findings). */
  actionExitMs: Spread;
  /** Spawn → exit of `node -e ''`. */
  baselineMs: Spread;
  /** CPU seconds (user + system, GNU time) of the whole trivial run and of `node -e ''`: robust to
   *  the load of a shared machine, unlike the wall times above. */
  actionCpuMs: Spread;
  baselineCpuMs: Spread;
  /** Median first request / median baseline. */
  ratio: number;
  /** The same for the dist/ of BEFORE_LIBRARIES_COMMIT, measured in the same rounds. */
  before: { commit: string; firstRequestMs: Spread; ratio: number };
  /** Median first request − median baseline: what the bundle itself costs before the request. */
  overBaselineMs: number;
  bundle: { main: ChunkSize; chunks: ChunkSize[] };
  /** CPU ms of `dist/cli/index.js --version`, today's and BEFORE_ONE_PARSE_COMMIT's. */
  cli: { cpuMs: Spread; before: { commit: string; cpuMs: Spread } };
  /** Chunks of dist/ that a default run (report none) loaded, from an untimed traced run. */
  chunksLoaded: string[];
  failedRuns: number;
  /** Scheduling priority (nice) of the benchmark, the emulator and the spawned processes. */
  nice: number;
}

/**
 * The last commit whose single-file CLI wrapped all of its code in a lazily initialised module (the
 * entry imported it dynamically, and ncc's chunk loader let esbuild count the entry among its own
 * dynamic imports): V8 parsed it twice at every start.
 */
export const BEFORE_ONE_PARSE_COMMIT = '33405d1';

/** Niceness for this part: above the other work on a shared machine, as a dedicated runner is. */
const STARTUP_NICE = -10;

export async function benchStartup(
  dist: DistSnapshot,
  repetitions: number,
): Promise<StartupResult> {
  const priorityBefore = getPriority();
  const nice = raisePriority(STARTUP_NICE);
  const older = await snapshotDistAt(BEFORE_LIBRARIES_COMMIT);
  const olderCli = await snapshotDistAt(BEFORE_ONE_PARSE_COMMIT);
  try {
    return { ...(await measure(dist, older, olderCli, repetitions)), nice };
  } finally {
    await older.remove();
    await olderCli.remove();
    raisePriority(priorityBefore);
  }
}

/** Sets this process's niceness (children inherit it); returns what is in effect. */
function raisePriority(nice: number): number {
  try {
    setPriority(nice);
  } catch {
    // Not permitted (not root): measure at the normal priority; the write-up shows which.
  }
  return getPriority();
}

async function measure(
  dist: DistSnapshot,
  older: DistSnapshot,
  olderCli: DistSnapshot,
  repetitions: number,
): Promise<Omit<StartupResult, 'nice'>> {
  const emulator = await startEmulator({ seed: 3, clockSpeed: 1 });
  emulator.setScanPlan({
    durationMs: 1,
    queuedMs: 0,
    outcome: { kind: 'completed', total: 40, failed: 0 },
  });
  const step = await prepareStep({ 'api-key': emulator.apiKey, 'api-url': emulator.url });
  try {
    for (let i = 0; i < 3; i++) {
      await timeAction(dist.main, step, emulator); // warm the file cache
      await timeAction(older.main, step, emulator);
    }
    const first: number[] = [];
    const olderFirst: number[] = [];
    const exits: number[] = [];
    const baseline: number[] = [];
    const actionCpu: number[] = [];
    const baselineCpu: number[] = [];
    const cliCpu: number[] = [];
    const olderCliCpu: number[] = [];
    let failedRuns = 0;
    for (let i = 0; i < repetitions; i++) {
      const base = await timeBaseline(step);
      baseline.push(base.exitMs);
      if (base.cpuMs !== undefined) baselineCpu.push(base.cpuMs);
      const run = await timeAction(dist.main, step, emulator);
      if (run.exitCode !== 0 || run.firstRequestMs === undefined) failedRuns++;
      if (run.firstRequestMs !== undefined) first.push(run.firstRequestMs);
      if (run.cpuMs !== undefined) actionCpu.push(run.cpuMs);
      exits.push(run.exitMs);
      const old = await timeAction(older.main, step, emulator);
      if (old.firstRequestMs !== undefined) olderFirst.push(old.firstRequestMs);
      const cli = await timeCliVersion(dist, step);
      if (cli === undefined) failedRuns++;
      else cliCpu.push(cli);
      const olderCliRun = await timeCliVersion(olderCli, step);
      if (olderCliRun !== undefined) olderCliCpu.push(olderCliRun);
    }
    return {
      repetitions,
      firstRequestMs: spread(first),
      actionExitMs: spread(exits),
      baselineMs: spread(baseline),
      actionCpuMs: spread(actionCpu),
      baselineCpuMs: spread(baselineCpu),
      ratio: median(first) / median(baseline),
      before: {
        commit: BEFORE_LIBRARIES_COMMIT,
        firstRequestMs: spread(olderFirst),
        ratio: median(olderFirst) / median(baseline),
      },
      overBaselineMs: median(first) - median(baseline),
      cli: {
        cpuMs: spread(cliCpu),
        before: { commit: BEFORE_ONE_PARSE_COMMIT, cpuMs: spread(olderCliCpu) },
      },
      bundle: await mainBundleSizes(dist.dir),
      chunksLoaded: await traceLoadedChunks(dist, step),
      failedRuns,
    };
  } finally {
    await removeStep(step);
    await emulator.close();
  }
}

async function timeAction(script: string, step: PreparedStep, emulator: Emulator) {
  emulator.clearRequests();
  // Both the action and the baseline run under GNU time (for CPU seconds): the same small
  // wrapper cost on both sides of the ratio.
  const proc = spawnAction(script, step, { timeoutMs: 30_000, measureRss: true });
  const exit = await proc.exited;
  const firstApi = emulator.requests().find((r) => r.origin === 'api');
  return {
    exitCode: exit.exitCode,
    firstRequestMs: firstApi ? firstApi.at - exit.spawnedAt : undefined,
    exitMs: exit.exitedAt - exit.spawnedAt,
    cpuMs: exit.cpuSeconds === undefined ? undefined : exit.cpuSeconds * 1000,
  };
}

async function timeBaseline(step: PreparedStep) {
  const exit = await spawnNode(['-e', ''], step, { timeoutMs: 30_000, measureRss: true }).exited;
  return {
    exitMs: exit.exitedAt - exit.spawnedAt,
    cpuMs: exit.cpuSeconds === undefined ? undefined : exit.cpuSeconds * 1000,
  };
}

/** CPU ms of `tenant-scan --version` from `dist`'s CLI file; undefined when it failed. */
async function timeCliVersion(dist: DistSnapshot, step: PreparedStep): Promise<number | undefined> {
  const cli = join(dist.dir, 'cli', 'index.js');
  const exit = await spawnNode([cli, '--version'], step, { timeoutMs: 30_000, measureRss: true })
    .exited;
  if (exit.exitCode !== 0 || exit.cpuSeconds === undefined) return undefined;
  return exit.cpuSeconds * 1000;
}

async function traceLoadedChunks(dist: DistSnapshot, step: PreparedStep): Promise<string[]> {
  const traceFile = join(step.job.root, 'load-trace.txt');
  await spawnAction(dist.main, step, {
    nodeArgs: ['--import', LOAD_TRACE],
    extraEnv: { BENCH_LOAD_TRACE: traceFile },
    timeoutMs: 30_000,
  }).exited;
  const urls = (await readFile(traceFile, 'utf8').catch(() => '')).split('\n').filter(Boolean);
  await rm(traceFile, { force: true });
  return urls
    .map((u) => relative(dist.dir, fileURLToPath(u)))
    .filter((f) => !f.startsWith('..') && f !== 'index.js');
}
