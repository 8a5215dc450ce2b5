// How long each failed finding has failed, and its remediation deadline. A finding's streak is the
// current scan and the previous scans, newest first, in which it failed without a pass between:
// `failingSince` is the time of the streak's first scan. Its deadline is that time plus its
// severity's days (`sla-days`). Ages count from the current scan's time, on the service's clock.
// The strict side everywhere: a finding whose age is unknown (no readable history), or whose
// streak reaches past the history read while still within its deadline, counts as overdue.

import type { FindingView, Severity } from '../../client/index.js';
import type { HistoryRead } from './history.js';

export type SlaSeverity = Exclude<Severity, 'unknown'>;
export type SlaDays = Record<SlaSeverity, number>;

/** Remediation deadlines in days when `sla-days` does not say: the usual audit-framework spread. */
export const DEFAULT_SLA_DAYS: SlaDays = { critical: 7, high: 30, medium: 90, low: 180, info: 365 };
export const MAX_SLA_DAYS = 3650;
const DAY_MS = 86_400_000;

export interface FindingAge {
  /** The time of the first scan of its current failing streak (ISO); undefined: unknown. */
  failingSince?: string;
  /** Scans in the streak, the current one included (1 when it did not fail before). */
  failingScans: number;
  /** The streak reaches the oldest scan read and earlier scans exist: `failingSince` is only a
   *  lower bound of its age. */
  beyondWindow: boolean;
  /** failingSince + its severity's days (ISO); undefined when the age is unknown. */
  dueAt?: string;
  /** Whole days until the deadline (0 on the day it falls due), or overdue by (negative). */
  daysLeft?: number;
  /** Past its deadline, or of unknown age, or beyond the window within its deadline. */
  overdue: boolean;
}

/** A severity's deadline; an unknown severity gets the strictest one. */
export function deadlineDays(severity: Severity, sla: SlaDays): number {
  if (severity !== 'unknown') return sla[severity];
  return Object.values(sla).reduce((strictest, days) => Math.min(strictest, days), Infinity);
}

/** The age of each current failed finding, by identity. */
export function agesOf(
  failed: readonly FindingView[],
  now: string | undefined,
  history: HistoryRead,
  sla: SlaDays,
): Map<string, FindingAge> {
  const ages = new Map<string, FindingAge>();
  const nowMs = Date.parse(now ?? '');
  for (const finding of failed) {
    if (ages.has(finding.identity)) continue;
    ages.set(finding.identity, ageOf(finding, nowMs, now, history, sla));
  }
  return ages;
}

function ageOf(
  finding: FindingView,
  nowMs: number,
  now: string | undefined,
  history: HistoryRead,
  sla: SlaDays,
): FindingAge {
  // Time runs forward: a previous scan dated after this one leaves no age to trust (history.ts
  // reads none such; a caller that passes one gets the strict side, never a pass).
  const forward = (scan: { at: string }) => Date.parse(scan.at) <= nowMs;
  if (history.kind !== 'read' || now === undefined || !history.scans.every(forward)) {
    return { failingScans: 1, beyondWindow: false, overdue: true };
  }
  let since = now;
  let failingScans = 1;
  let broken = false;
  for (const scan of history.scans) {
    if (!scan.failed.has(finding.identity)) {
      broken = true;
      break;
    }
    since = scan.at;
    failingScans++;
  }
  const beyondWindow = !broken && !history.complete;
  const dueMs = Date.parse(since) + deadlineDays(finding.severity, sla) * DAY_MS;
  const leftMs = dueMs - nowMs;
  const daysLeft = leftMs >= 0 ? Math.ceil(leftMs / DAY_MS) : -Math.ceil(-leftMs / DAY_MS);
  return {
    failingSince: since,
    failingScans,
    beyondWindow,
    dueAt: new Date(dueMs).toISOString(),
    daysLeft,
    // Past the deadline is overdue whatever came before; within it, a streak older than the
    // window may be past it: the strict side.
    overdue: leftMs < 0 || beyondWindow,
  };
}

/** "overdue by 3 days", "due in 12 days", "due today", "age unknown". */
export function describeDeadline(age: FindingAge): string {
  if (age.daysLeft === undefined) return 'age unknown';
  if (age.daysLeft < 0)
    return `overdue by ${age.daysLeft === -1 ? '1 day' : `${-age.daysLeft} days`}`;
  if (age.beyondWindow) return 'failing since before the history read';
  if (age.daysLeft === 0) return 'due today';
  return `due in ${age.daysLeft === 1 ? '1 day' : `${age.daysLeft} days`}`;
}

/** Failed findings per scan, oldest first, the current scan last (the trend). */
export function failedTrend(history: HistoryRead, currentFailed: number): number[] {
  if (history.kind !== 'read') return [];
  return [...history.scans.map((scan) => scan.failedCount).reverse(), currentFailed];
}

/** Checks evaluated per scan, oldest first, the current scan last, aligned with the failed trend:
 *  each previous scan's by its own counts (null when they do not say), the current one's from its
 *  results when every one was read, else from its counts. */
export function evaluatedTrend(
  history: HistoryRead,
  current: { evaluated?: readonly string[]; evaluatedCount?: number },
): Array<number | null> {
  if (history.kind !== 'read') return [];
  const now = current.evaluated ? new Set(current.evaluated).size : current.evaluatedCount;
  return [...history.scans.map((scan) => scan.evaluated).reverse(), now ?? null];
}

const BARS = '▁▂▃▄▅▆▇█';

/** The trend as one line: a sparkline and the numbers, "▃▂█▅ 9 → 7 → 14 → 11". '' for none. */
export function trendLine(trend: readonly number[]): string {
  if (trend.length === 0) return '';
  const high = trend.reduce((most, n) => Math.max(most, n), -Infinity);
  const low = trend.reduce((least, n) => Math.min(least, n), Infinity);
  const bar = (n: number) =>
    BARS[high === low ? 3 : Math.round(((n - low) / (high - low)) * (BARS.length - 1))] ?? '';
  return `${trend.map(bar).join('')} ${trend.join(' → ')}`;
}
