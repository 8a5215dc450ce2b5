// Where a scan is at a given emulator time, computed from its plan (no background state).
import type { ScanPlan, ScanTruth } from './types.js';
import type { ScanRecord } from './store.js';
import { indexOfCheckId, ResultLayout } from './findings.js';
import { runningProgress } from './progress.js';

export type CanonicalStatus = ScanTruth['status'];

export interface ScanOutcomeCounts {
  total: number;
  failed: number;
  skipped: number;
  /** The result indices that fail, when the plan pins them (ScanPlan failedChecks). */
  failing?: ReadonlySet<number>;
  /** Result indices that answer with a word of the plan's own (ScanPlan resultWords). */
  words?: ReadonlyMap<number, string>;
  /** What the scan's counts show when words replace some results: the layout's `failed` and
   *  `skipped` still place the others. */
  shown?: { passed: number; failed: number; skipped: number };
}

export interface ScanState {
  status: CanonicalStatus;
  progress: number;
  startedAtMs: number | null;
  completedAtMs: number | null;
  errorMessage?: string;
}

export const DEFAULT_PLAN = {
  durationMs: 10_000,
  queuedMs: 1_000,
  progressCurve: 'linear',
  outcome: { kind: 'completed', total: 40, failed: 5 },
} as const satisfies ScanPlan;

type PlanWithStall = Required<Omit<ScanPlan, 'stall'>> & Pick<ScanPlan, 'stall'>;

export function planOf(scan: ScanRecord): PlanWithStall {
  const durationMs = Math.max(0, scan.plan.durationMs ?? DEFAULT_PLAN.durationMs);
  const queuedMs = Math.min(durationMs, Math.max(0, scan.plan.queuedMs ?? DEFAULT_PLAN.queuedMs));
  return {
    durationMs,
    queuedMs,
    progressCurve: scan.plan.progressCurve ?? DEFAULT_PLAN.progressCurve,
    outcome: scan.plan.outcome ?? DEFAULT_PLAN.outcome,
    stall: scan.plan.stall,
  };
}

/** Counts of a completed scan (zeros for any other outcome). `seed`: the emulator's, which places
 *  the results a plan's resultWords replace (needed only for a plan that has some). */
export function outcomeCounts(scan: ScanRecord, seed = 1): ScanOutcomeCounts {
  const { outcome } = planOf(scan);
  if (outcome.kind !== 'completed') return { total: 0, failed: 0, skipped: 0 };
  const total = Math.max(0, Math.floor(outcome.total));
  let base: ScanOutcomeCounts;
  if (outcome.failedChecks) {
    const failing = new Set(
      outcome.failedChecks.map(indexOfCheckId).filter((i) => i !== undefined && i < total),
    ) as Set<number>;
    base = { total, failed: failing.size, skipped: 0, failing };
  } else {
    const failed = Math.min(total, Math.max(0, Math.floor(outcome.failed)));
    const skipped = Math.min(total - failed, Math.max(0, Math.floor(outcome.skipped ?? 0)));
    base = { total, failed, skipped };
  }
  return withWords(base, outcome.resultWords, seed, scan.resultsKey);
}

/** The counts with a plan's own result words in place of the results they replace. */
function withWords(
  base: ScanOutcomeCounts,
  resultWords: Record<string, string> | undefined,
  seed: number,
  key: string,
): ScanOutcomeCounts {
  const words = new Map<number, string>();
  for (const [checkId, word] of Object.entries(resultWords ?? {})) {
    const index = indexOfCheckId(checkId);
    if (index !== undefined && index < base.total) words.set(index, word);
  }
  if (words.size === 0) return base;
  const layout = new ResultLayout(base, seed, key);
  const shown = {
    passed: base.total - base.failed - base.skipped,
    failed: base.failed,
    skipped: base.skipped,
  };
  const move = (word: string, by: number) => {
    const lower = word.toLowerCase();
    if (lower === 'failed') shown.failed += by;
    else if (lower === 'passed') shown.passed += by;
    else shown.skipped += by;
  };
  for (const [index, word] of words) {
    move(layout.resultAt(index), -1);
    move(word, 1);
  }
  return { ...base, words, shown };
}

/** Progress (0..99) while running, at fraction x of the running phase; 0 for a plan whose scans
 *  report none (the API view leaves the field out). */
function progressAt(plan: PlanWithStall, x: number): number {
  return runningProgress(plan.progressCurve, x) ?? 0;
}

/** Time at which the scan reaches its terminal state by itself, or null (stuck, or a stall for
 *  ever). */
export function finishTimeMs(scan: ScanRecord): number | null {
  const plan = planOf(scan);
  const stalled = plan.stall?.forMs ?? 0;
  if (plan.outcome.kind === 'stuck' || !Number.isFinite(stalled)) return null;
  return scan.createdAtMs + plan.durationMs + Math.max(0, stalled);
}

/** The running time that counts for progress at running time `t`: a stall holds it still. */
function progressTime(plan: PlanWithStall, t: number): number {
  const stall = plan.stall;
  if (!stall || t <= stall.afterMs) return t;
  return Math.max(stall.afterMs, t - Math.max(0, stall.forMs));
}

/** When the scan's progress stopped moving for good or for a while (emulator ms), once it has:
 *  its plan's stall, or a stuck scan's progress reaching its stop. Undefined otherwise. */
export function stalledSinceMs(scan: ScanRecord, now: number): number | undefined {
  const plan = planOf(scan);
  const start = scan.createdAtMs + plan.queuedMs;
  const running = plan.durationMs - plan.queuedMs;
  if (plan.stall) {
    const at = start + plan.stall.afterMs;
    const end = at + plan.stall.forMs;
    return now >= at && now < end ? at : undefined;
  }
  if (plan.outcome.kind !== 'stuck' || running <= 0) return undefined;
  const stop = Math.max(0, Math.min(99, plan.outcome.atProgress ?? 42));
  // The first running moment whose progress reaches the stop (a 1 ms scan of the curve is cheap
  // enough for the emulator's scans of seconds; coarse steps keep long ones quick).
  const step = Math.max(1, Math.floor(running / 2_000));
  for (let t = 0; t <= running; t += step) {
    if ((runningProgress(plan.progressCurve, t / running) ?? 0) >= stop)
      return now >= start + t ? start + t : undefined;
  }
  return now >= start + running ? start + running : undefined;
}

export function scanStateAt(scan: ScanRecord, now: number): ScanState {
  const plan = planOf(scan);
  const startMs = scan.createdAtMs + plan.queuedMs;
  const at = scan.cancelledAtMs !== undefined ? Math.min(now, scan.cancelledAtMs) : now;
  const running = plan.durationMs - plan.queuedMs;
  const fraction = running > 0 ? progressTime(plan, at - startMs) / running : 1;
  const started = at >= startMs ? startMs : null;

  if (scan.cancelledAtMs !== undefined && now >= scan.cancelledAtMs) {
    const progress = started === null ? 0 : stuckAware(plan, fraction);
    return {
      status: 'cancelled',
      progress,
      startedAtMs: started,
      completedAtMs: scan.cancelledAtMs,
    };
  }
  if (at < startMs)
    return { status: 'queued', progress: 0, startedAtMs: null, completedAtMs: null };
  const end = finishTimeMs(scan);
  if (end === null || at < end) {
    return {
      status: 'running',
      progress: stuckAware(plan, fraction),
      startedAtMs: startMs,
      completedAtMs: null,
    };
  }
  if (plan.outcome.kind === 'failed') {
    return {
      status: 'failed',
      progress: progressAt(plan, 0.6),
      startedAtMs: startMs,
      completedAtMs: end,
      errorMessage:
        plan.outcome.message ?? 'The directory tenant stopped answering (consent revoked?)',
    };
  }
  return { status: 'completed', progress: 100, startedAtMs: startMs, completedAtMs: end };
}

function stuckAware(plan: PlanWithStall, fraction: number): number {
  const progress = progressAt(plan, fraction);
  if (plan.outcome.kind !== 'stuck') return progress;
  return Math.min(progress, Math.max(0, Math.min(99, plan.outcome.atProgress ?? 42)));
}
