// 3. Fleet: N runs started together against ONE emulated account, sharing its rate limit — the
// action (dist/index.js) or the naive fixed-interval loop (naive-poller.mjs) — and what it cost:
// verdicts, runs lost or failed for rate limiting, requests against the work's minimum, 429s, and
// the delay between each scan's end and its run's exit.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../test/emulator/emulator.js';
import type { Emulator, LoggedRequest, RateLimitModel, ScanTruth } from '../test/emulator/types.js';
import {
  prepareStep,
  readStepEffects,
  removeStep,
  spawnNode,
  type ExitInfo,
  type PreparedStep,
} from './lib/action-process.js';
import { emulatorToWall, scanEndWall } from './lib/emulator-time.js';
import { PlanRotation } from './lib/plan-rotation.js';
import { spread, wallNow, type Spread } from './lib/stats.js';

const NAIVE_POLLER = fileURLToPath(new URL('./naive-poller.mjs', import.meta.url));

export type ModelName = 'account' | 'per-key';
export type PollerName = 'action' | 'naive';

export const RATE_LIMITS: Record<ModelName, RateLimitModel> = {
  account: { kind: 'account', ratePerSecond: 100, burst: 500 },
  'per-key': { kind: 'per-key', perMinute: 120 },
};

export const FLEET_TARGETS = { requestsRatio: 1.2, throttledShare: 0.05, p95DelayMs: 3_000 };

/**
 * The least a run can do: GET /tenants/me, POST /tenants/me/scans, two status reads (one while
 * running, to learn the pace — a scan's end is not known in advance — and one that sees the end)
 * and one results page. A client that polls more pays for detection latency or ignorance.
 */
export const MINIMUM_REQUESTS_PER_RUN = 5;

export interface FleetOptions {
  runs: number;
  model: ModelName;
  poller: PollerName;
  /** The action's main entry (a dist snapshot). */
  actionScript: string;
  clockSpeed: number;
  /** Scan length in emulator ms (wall: / clockSpeed). */
  scanMs: number;
  /** Hard limit per run (wall ms): a run still going then is killed (and counts as wrong). */
  timeoutMs: number;
  /** API keys of the tenant the runs use, round robin (default 1: one org-wide secret; ≤ 10 per
   *  the seed). Under the per-key model each key has its own 120/min. */
  keys?: number;
  /** Overrides the model's seed numbers (tests use a tighter limit to provoke 429s quickly). */
  rateLimit?: RateLimitModel;
  seed?: number;
}

export interface RunOutcome {
  exitCode: number | null;
  verdict: string | undefined;
  failed: string | undefined;
  scanId: string | undefined;
  resultsEntries: number | undefined;
  rateLimitFailure: boolean;
  error: string | undefined;
  /** The action's "… retrying in" log lines, as "<reason> <METHOD> <route>" (naive: none logged). */
  retries: string[];
  spawnedAt: number;
  exitedAt: number;
}

export interface FleetResult {
  runs: number;
  keys: number;
  model: ModelName;
  poller: PollerName;
  scanWallSeconds: number;
  wallSeconds: number;
  rightVerdicts: number;
  wrongOrMissingVerdicts: number;
  failedForRateLimiting: number;
  /** Runs without a scan, scans without a run, or more scans than runs. */
  lostRuns: number;
  orphanScans: number;
  duplicateScans: number;
  requests: number;
  requestsByKind: Record<string, number>;
  /** Requests by kind and the status the emulator answered (0: no response head was written). */
  statusesByKind: Record<string, number>;
  /** Retries the action logged, by reason and route. */
  retriesByReason: Record<string, number>;
  minimumRequests: number;
  requestsRatio: number;
  throttled: number;
  throttledByKind: Record<string, number>;
  throttledShare: number;
  /** Right runs whose scan's plan is ambiguous (see PlanRotation): left out of the delays. */
  untimedRuns: number;
  /** Run exit − its scan's end (ms), over the runs that got the right verdict. */
  completionDelayMs: Spread;
  /** First successful status read at or after the end − the end (ms). */
  detectionDelayMs: Spread;
  /** Scan creation − fleet start (ms): start-up contention plus throttling before the trigger. */
  scanCreatedAfterStartMs: Spread;
  sampleErrors: string[];
}

export async function runFleet(options: FleetOptions): Promise<FleetResult> {
  const emulator = await startEmulator({
    seed: options.seed ?? 7,
    clockSpeed: options.clockSpeed,
    rateLimit: { kind: 'none' },
    requestLogLimit: 5_000_000,
  });
  const plans = new PlanRotation(emulator, options.scanMs);
  const steps = await prepareAll(options, emulator);
  try {
    emulator.setRateLimit(options.rateLimit ?? RATE_LIMITS[options.model]);
    emulator.clearRequests();
    const toWall = emulatorToWall(emulator, options.clockSpeed);
    plans.start();
    const start = wallNow();
    const exits = await Promise.all(steps.map((step) => startRun(options, step)));
    const wallSeconds = (wallNow() - start) / 1000;
    plans.stop();
    const outcomes = await Promise.all(
      steps.map((step, i) => readOutcome(options, step, exits[i] as ExitInfo)),
    );
    return summarise(options, emulator, outcomes, toWall, plans, start, wallSeconds);
  } finally {
    plans.stop();
    await Promise.all(steps.map(removeStep));
    await emulator.close();
  }
}

async function prepareAll(options: FleetOptions, emulator: Emulator): Promise<PreparedStep[]> {
  // By default one org-wide secret: every run uses the same key (the realistic setup; 200 keys
  // would also exceed the seed's 10 keys per tenant).
  const keys = [emulator.apiKey];
  while (keys.length < (options.keys ?? 1))
    keys.push(emulator.addKey(emulator.tenantId, `fleet-${keys.length}`));
  const steps: PreparedStep[] = [];
  for (let i = 0; i < options.runs; i += 20) {
    const batch = Array.from({ length: Math.min(20, options.runs - i) }, (_, j) => {
      const key = keys[(i + j) % keys.length] as string;
      return prepareStep(
        { 'api-key': key, 'api-url': emulator.url, annotations: '10' },
        { NAIVE_API_URL: emulator.url, NAIVE_API_KEY: key },
      );
    });
    steps.push(...(await Promise.all(batch)));
  }
  return steps;
}

function startRun(options: FleetOptions, step: PreparedStep): Promise<ExitInfo> {
  const argv = options.poller === 'action' ? [options.actionScript] : [NAIVE_POLLER];
  const extraEnv =
    options.poller === 'naive'
      ? { NAIVE_RESULTS_FILE: join(step.job.runnerTemp, 'naive-results.json') }
      : undefined;
  return spawnNode(argv, step, { timeoutMs: options.timeoutMs, ...(extraEnv ? { extraEnv } : {}) })
    .exited;
}

const RATE_LIMIT_TEXT = /rate.?limit|RATE_LIMITED|HTTP 429|\b429\b|too many requests|throttl/i;

async function readOutcome(
  options: FleetOptions,
  step: PreparedStep,
  exit: ExitInfo,
): Promise<RunOutcome> {
  const base = { exitCode: exit.exitCode, spawnedAt: exit.spawnedAt, exitedAt: exit.exitedAt };
  if (options.poller === 'naive') {
    const line = exit.stdout.trim().split('\n').at(-1) ?? '';
    const parsed = safeJson(line) as {
      scanId?: string;
      verdict?: string;
      failed?: number;
      error?: string;
    };
    return {
      ...base,
      verdict: parsed.verdict,
      failed: parsed.failed === undefined ? undefined : String(parsed.failed),
      scanId: parsed.scanId,
      resultsEntries: parsed.failed,
      error: parsed.error ?? (parsed.verdict ? undefined : `${exit.stderr}`.slice(0, 300)),
      rateLimitFailure: !parsed.verdict && RATE_LIMIT_TEXT.test(parsed.error ?? exit.stderr),
      retries: [],
    };
  }
  const { outputs } = await readStepEffects(step);
  const errorLines = `${exit.stdout}\n${exit.stderr}`
    .split('\n')
    .filter((l) => l.startsWith('::error::'));
  const error = errorLines.at(-1);
  return {
    ...base,
    verdict: outputs.verdict || undefined,
    failed: outputs.failed || undefined,
    scanId: outputs['scan-id'] || undefined,
    resultsEntries: await countJsonArray(outputs['results-file']),
    error,
    rateLimitFailure: !outputs.verdict && RATE_LIMIT_TEXT.test(errorLines.join('\n')),
    retries: retryLines(exit.stdout),
  };
}

function retryLines(stdout: string): string[] {
  return [...stdout.matchAll(/^(.+?) on ([A-Z]+) (\S+); retrying in/gm)].map(
    (m) => `${m[1]} ${m[2]} ${(m[3] ?? '').replace(/\/scans\/[^/?]+/, '/scans/{id}')}`,
  );
}

/** The run judged its own scan as the emulator's truth says: verdict, count, results, exit code. */
export function isRightVerdict(run: RunOutcome, truth: Map<string, ScanTruth>): boolean {
  const scan = run.scanId ? truth.get(run.scanId) : undefined;
  if (!scan || scan.status !== 'completed') return false;
  const expected = scan.failed === 0 ? 'passed' : 'failed';
  return (
    run.verdict === expected &&
    run.failed === String(scan.failed) &&
    run.resultsEntries === scan.failed &&
    run.exitCode === (expected === 'passed' ? 0 : 1)
  );
}

function kindOf(request: LoggedRequest): string {
  if (request.path === '/tenants/me') return 'tenant';
  if (request.method === 'POST' && request.path === '/tenants/me/scans') return 'trigger';
  if (/^\/scans\/[^/]+$/.test(request.path)) return 'status';
  if (/^\/scans\/[^/]+\/results$/.test(request.path)) return 'results';
  return `other ${request.method} ${request.path}`;
}

function summarise(
  options: FleetOptions,
  emulator: Emulator,
  outcomes: RunOutcome[],
  toWall: (emulatorMs: number) => number,
  plans: PlanRotation,
  start: number,
  wallSeconds: number,
): FleetResult {
  const scans = emulator.scans();
  const truth = new Map(scans.map((s) => [s.id, s]));
  const api = emulator.requests().filter((r) => r.origin === 'api');
  const claimed = new Set(
    outcomes.map((o) => o.scanId).filter((id): id is string => id !== undefined),
  );
  const requestsByKind = countBy(api.map(kindOf));
  const throttled = api.filter((r) => r.status === 429).length;
  const right = outcomes.filter((o) => isRightVerdict(o, truth));
  const ends = new Map<string, number>();
  for (const scan of scans) {
    const duration = plans.durationOf(scan.createdAt);
    if (duration !== undefined) ends.set(scan.id, scanEndWall(toWall, scan.createdAt, duration));
  }
  const timed = right.filter((o) => ends.has(o.scanId as string));
  const statusReads = groupStatusReads(api);
  const minimumRequests = options.runs * MINIMUM_REQUESTS_PER_RUN;
  return {
    runs: options.runs,
    keys: options.keys ?? 1,
    model: options.model,
    poller: options.poller,
    scanWallSeconds: options.scanMs / options.clockSpeed / 1000,
    wallSeconds,
    rightVerdicts: right.length,
    wrongOrMissingVerdicts: outcomes.length - right.length,
    failedForRateLimiting: outcomes.filter((o) => o.rateLimitFailure).length,
    lostRuns: outcomes.filter((o) => !o.scanId || !truth.has(o.scanId)).length,
    orphanScans: scans.filter((s) => !claimed.has(s.id)).length,
    duplicateScans: Math.max(0, scans.length - options.runs),
    requests: api.length,
    requestsByKind,
    statusesByKind: countBy(api.map((r) => `${kindOf(r)} ${r.status}`)),
    retriesByReason: countBy(outcomes.flatMap((o) => o.retries)),
    minimumRequests,
    requestsRatio: api.length / minimumRequests,
    throttled,
    throttledByKind: countBy(api.filter((r) => r.status === 429).map(kindOf)),
    throttledShare: api.length ? throttled / api.length : 0,
    untimedRuns: right.length - timed.length,
    completionDelayMs: spread(
      timed.map((o) => o.exitedAt - (ends.get(o.scanId as string) as number)),
    ),
    detectionDelayMs: spread(
      timed.flatMap((o) => {
        const end = ends.get(o.scanId as string) as number;
        const seen = (statusReads.get(o.scanId as string) ?? []).find((at) => at >= end);
        return seen === undefined ? [] : [seen - end];
      }),
    ),
    scanCreatedAfterStartMs: spread(scans.map((s) => toWall(Date.parse(s.createdAt)) - start)),
    sampleErrors: [
      ...new Set(
        outcomes
          .filter((o) => !right.includes(o))
          .map((o) => o.error ?? `exit ${o.exitCode}, no error line`),
      ),
    ].slice(0, 5),
  };
}

function countBy(items: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[item] = (counts[item] ?? 0) + 1;
  return counts;
}

/** Successful GET /scans/{id} instants per scan id, in order. */
function groupStatusReads(api: LoggedRequest[]): Map<string, number[]> {
  const reads = new Map<string, number[]>();
  for (const r of api) {
    const match = /^\/scans\/([^/]+)$/.exec(r.path);
    if (!match || r.method !== 'GET' || r.status !== 200) continue;
    const list = reads.get(match[1] as string) ?? [];
    list.push(r.at);
    reads.set(match[1] as string, list);
  }
  return reads;
}

async function countJsonArray(path: string | undefined): Promise<number | undefined> {
  if (!path) return undefined;
  const parsed = safeJson(await readFile(path, 'utf8').catch(() => ''));
  return Array.isArray(parsed) ? parsed.length : undefined;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}
