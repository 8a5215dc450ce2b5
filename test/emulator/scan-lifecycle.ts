// Where a scan is at a given emulator time, computed from its plan (no background state).
import type { ScanPlan, ScanTruth } from './types.js';
import type { ScanRecord } from './store.js';
import { indexOfCheckId } from './findings.js';
import { runningProgress } from './progress.js';

export type CanonicalStatus = ScanTruth['status'];

export interface ScanOutcomeCounts {
  total: number;
  failed: number;
  skipped: number;
  /** The result indices that fail, when the plan pins them (ScanPlan failedChecks). */
  failing?: ReadonlySet<number>;
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

export function planOf(scan: ScanRecord): Required<ScanPlan> {
  const durationMs = Math.max(0, scan.plan.durationMs ?? DEFAULT_PLAN.durationMs);
  const queuedMs = Math.min(durationMs, Math.max(0, scan.plan.queuedMs ?? DEFAULT_PLAN.queuedMs));
  return {
    durationMs,
    queuedMs,
    progressCurve: scan.plan.progressCurve ?? DEFAULT_PLAN.progressCurve,
    outcome: scan.plan.outcome ?? DEFAULT_PLAN.outcome,
  };
}

/** Counts of a completed scan (zeros for any other outcome). */
export function outcomeCounts(scan: ScanRecord): ScanOutcomeCounts {
  const { outcome } = planOf(scan);
  if (outcome.kind !== 'completed') return { total: 0, failed: 0, skipped: 0 };
  const total = Math.max(0, Math.floor(outcome.total));
  if (outcome.failedChecks) {
    const failing = new Set(
      outcome.failedChecks.map(indexOfCheckId).filter((i) => i !== undefined && i < total),
    ) as Set<number>;
    return { total, failed: failing.size, skipped: 0, failing };
  }
  const failed = Math.min(total, Math.max(0, Math.floor(outcome.failed)));
  const skipped = Math.min(total - failed, Math.max(0, Math.floor(outcome.skipped ?? 0)));
  return { total, failed, skipped };
}

/** Progress (0..99) while running, at fraction x of the running phase; 0 for a plan whose scans
 *  report none (the API view leaves the field out). */
function progressAt(plan: Required<ScanPlan>, x: number): number {
  return runningProgress(plan.progressCurve, x) ?? 0;
}

/** Time at which the scan reaches its terminal state by itself, or null (stuck). */
export function finishTimeMs(scan: ScanRecord): number | null {
  const plan = planOf(scan);
  return plan.outcome.kind === 'stuck' ? null : scan.createdAtMs + plan.durationMs;
}

export function scanStateAt(scan: ScanRecord, now: number): ScanState {
  const plan = planOf(scan);
  const startMs = scan.createdAtMs + plan.queuedMs;
  const at = scan.cancelledAtMs !== undefined ? Math.min(now, scan.cancelledAtMs) : now;
  const running = plan.durationMs - plan.queuedMs;
  const fraction = running > 0 ? (at - startMs) / running : 1;
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

function stuckAware(plan: Required<ScanPlan>, fraction: number): number {
  const progress = progressAt(plan, fraction);
  if (plan.outcome.kind !== 'stuck') return progress;
  return Math.min(progress, Math.max(0, Math.min(99, plan.outcome.atProgress ?? 42)));
}
