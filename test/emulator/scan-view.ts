// A scan as the API shows it, in the status vocabulary of the variant.
import type { ScanTruth, UnknownsVariant } from './types.js';
import type { Runtime } from './runtime.js';
import type { ScanRecord } from './store.js';
import {
  outcomeCounts,
  planOf,
  scanStateAt,
  stalledSinceMs,
  type CanonicalStatus,
  type ScanOutcomeCounts,
} from './scan-lifecycle.js';

const VOCABULARIES: Record<
  NonNullable<UnknownsVariant['statusVocabulary']>,
  Record<CanonicalStatus, string>
> = {
  default: {
    queued: 'queued',
    running: 'running',
    completed: 'completed',
    failed: 'failed',
    cancelled: 'cancelled',
  },
  upper: {
    queued: 'QUEUED',
    running: 'RUNNING',
    completed: 'COMPLETED',
    failed: 'FAILED',
    cancelled: 'CANCELLED',
  },
  alt: {
    queued: 'pending',
    running: 'in_progress',
    completed: 'succeeded',
    failed: 'error',
    cancelled: 'canceled',
  },
};

export function statusWord(status: CanonicalStatus, variant: UnknownsVariant): string {
  return VOCABULARIES[variant.statusVocabulary ?? 'default'][status];
}

/** A date of the scan as the service shows it: off by its clock skew, if it was stamped with one. */
export function shownDate(rt: Runtime, scan: ScanRecord, ms: number): string {
  return rt.clock.iso(ms + (scan.datesShiftMs ?? 0));
}

export function scanJson(rt: Runtime, scan: ScanRecord): Record<string, unknown> {
  const state = scanStateAt(scan, rt.clock.now());
  const counts = outcomeCounts(scan, rt.settings.seed);
  const iso = (ms: number | null): string | null => (ms === null ? null : shownDate(rt, scan, ms));
  return {
    id: scan.id,
    scanType: scan.scanType,
    status: statusWord(state.status, rt.variant),
    // A service that reports no progress leaves the field out (progress shape 'none').
    ...(planOf(scan).progressCurve === 'none' ? {} : { progress: state.progress }),
    createdAt: shownDate(rt, scan, scan.createdAtMs),
    startedAt: iso(state.startedAtMs),
    completedAt: iso(state.completedAtMs),
    hidden: scan.hidden,
    ...countsJson(state.status === 'completed' ? counts : undefined, rt.variant),
    ...(state.errorMessage ? { error: { message: state.errorMessage } } : {}),
  };
}

/** A scan's counts where the variant puts them (UnknownsVariant.countsShape). */
function countsJson(
  counts: ScanOutcomeCounts | undefined,
  variant: UnknownsVariant,
): Record<string, unknown> {
  const shape = variant.countsShape ?? 'default';
  if (shape === 'none') return {};
  // Words of the plan's own count where they belong: Passed, Failed, every other one skipped.
  const shown = counts?.shown ?? {
    passed: counts ? counts.total - counts.failed - counts.skipped : 0,
    failed: counts?.failed ?? 0,
    skipped: counts?.skipped ?? 0,
  };
  const { passed } = shown;
  if (shape === 'renamed') {
    return {
      results: counts
        ? {
            totalChecks: String(counts.total),
            passedChecks: String(passed),
            failedChecks: String(shown.failed),
            skippedChecks: String(shown.skipped),
          }
        : null,
    };
  }
  return {
    summary: counts
      ? { total: counts.total, passed, failed: shown.failed, skipped: shown.skipped }
      : null,
  };
}

export function scanTruth(rt: Runtime, scan: ScanRecord): ScanTruth {
  const state = scanStateAt(scan, rt.clock.now());
  const counts = outcomeCounts(scan, rt.settings.seed);
  const stalled = state.status === 'running' ? stalledSinceMs(scan, rt.clock.now()) : undefined;
  return {
    id: scan.id,
    tenantId: scan.tenantId,
    scanType: scan.scanType,
    status: state.status,
    progress: state.progress,
    hidden: scan.hidden,
    deleted: scan.deleted,
    total: counts.total,
    failed: counts.shown?.failed ?? counts.failed,
    ...(scan.keyId ? { keyId: scan.keyId } : {}),
    ...(stalled !== undefined ? { stalledSince: rt.clock.iso(stalled) } : {}),
    createdAt: shownDate(rt, scan, scan.createdAtMs),
    ...(state.completedAtMs !== null && state.status !== 'cancelled'
      ? { completedAt: shownDate(rt, scan, state.completedAtMs) }
      : {}),
    ...(scan.cancelledAtMs !== undefined ? { cancelledAt: rt.clock.iso(scan.cancelledAtMs) } : {}),
  };
}
