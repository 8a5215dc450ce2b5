// The history of a scan's failed findings: the previous completed scans of the same type (the
// scan list the job already read, else one list read), each one's failed results read whole
// (results.ts: every page, agreeing with its counts), newest first. A history that cannot be read
// whole is not a history: it is `unreadable`, and every age then counts as unknown (deadlines.ts).
// Time must run forward: a previous scan dated at or after the current one, or a date that cannot
// be right, is clock skew, and the history is unreadable too (the strict side, never a pass).

import { isPlainIdentifier, MAX_LIST_ITEMS } from '../../client/index.js';
import type { FindingView, Scan, TenantClient } from '../../client/index.js';
import { toJobError } from '../common/errors.js';
import { readScanResults } from '../common/results.js';
import { parseTimestamp } from '../common/timestamp.js';
import { resultKind } from '../common/result-kinds.js';

/** How many previous scans are read when `history` is not given: none (ages are unknown then). */
export const DEFAULT_HISTORY = 0;
/** The most previous scans one run reads (one results read each). */
export const MAX_HISTORY = 100;
/** The most failed findings kept over the whole history: memory stays bounded whatever it holds. */
const MAX_HISTORY_FINDINGS = MAX_LIST_ITEMS;

export interface HistoryScan {
  id: string;
  /** Only for the newest scan: its failed findings (the baseline `previous` takes them). */
  findings?: FindingView[];
  /** When its results were known: completedAt, else createdAt (ISO, the service's clock). */
  at: string;
  /** Identities of its failed findings (findings.ts IDENTITY_FIELDS). */
  failed: ReadonlySet<string>;
  failedCount: number;
  /** Checks it evaluated (passed + failed), by its own counts; null when they do not say. */
  evaluated: number | null;
  /** Only for the newest scan, when every result of it was read (coverage): the identities of the
   *  checks it evaluated. */
  evaluatedChecks?: string[];
}

export type HistoryRead =
  | { kind: 'none' }
  /** Newest first. Fewer than asked when the tenant has no more completed scans of the type:
   *  `complete` says every earlier scan is in. `later`: completed scans of the type dated after
   *  the current one (a scan followed by id may have later ones), left out. */
  | { kind: 'read'; scans: HistoryScan[]; complete: boolean; later: number }
  /** `skew`: the dates disagree with time running forward (a clock is wrong), said in `why`. */
  | { kind: 'unreadable'; why: string; skew?: true };

/** No scan of the service is dated before this: an earlier date is a clock that was reset. */
const EARLIEST_SCAN_MS = Date.UTC(2000, 0, 1);
/** How far ahead of this machine's clock a date may be before it cannot be right. Ages count on
 *  the service's clock alone, so one that runs a little fast is no harm; a week is no clock. */
const MAX_AHEAD_MS = 7 * 86_400_000;

/** A scan's creation and completion (epoch ms, each the other when missing), or why its dates
 *  cannot be right: not ISO 8601 with an offset, before 2000, or more than a week ahead of this machine's clock. */
function datesOf(
  scan: Pick<Scan, 'createdAt' | 'completedAt'>,
  nowMs: number,
): { created: number; at: number } | string {
  const parsed: number[] = [];
  for (const value of [scan.createdAt, scan.completedAt]) {
    if (value === undefined) continue;
    // ISO 8601 with its offset, as the API gives times: Date.parse alone reads "7" as July 2001.
    const ms = parseTimestamp(value);
    if (ms === undefined || ms < EARLIEST_SCAN_MS || ms > nowMs + MAX_AHEAD_MS)
      return `is dated ${JSON.stringify(value.slice(0, 40))}, which cannot be right`;
    parsed.push(ms);
  }
  const [first, second] = parsed;
  if (first === undefined) return 'has no date';
  return scan.createdAt === undefined
    ? { created: first, at: first }
    : { created: first, at: second ?? first };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The previous scans of the history, newest first, or why time does not run forward. */
export type HistoryScans =
  { kind: 'scans'; previous: Scan[]; later: number } | { kind: 'skew'; why: string };

/**
 * The completed, visible scans of the same type created before `current`, newest first, checked
 * for clock skew. A scan of the type dated at or after the current one is skew when the list was
 * read before the current scan existed (`listedBefore`: the job's own trigger), or when the
 * service lists it as older (after the current one; its list is newest first); otherwise it is a
 * later scan, left out. A previous scan completed after the current one, or any date that cannot
 * be right (the current scan's too), is skew.
 */
export function historyScans(
  current: Scan,
  listed: readonly Scan[],
  context: { listedBefore: boolean; nowMs: number },
): HistoryScans {
  const now = datesOf(current, context.nowMs);
  if (typeof now === 'string') return { kind: 'skew', why: `clock skew: the current scan ${now}` };
  const type = (current.scanType ?? '').toLowerCase();
  const position = listed.findIndex((scan) => scan.id === current.id);
  const previous: Array<{ scan: Scan; created: number; index: number }> = [];
  const skewed: string[] = [];
  let later = 0;
  listed.forEach((scan, index) => {
    if (scan.id === current.id || scan.phase !== 'succeeded' || scan.raw.hidden === true) return;
    if ((scan.scanType ?? '').toLowerCase() !== type) return;
    const dates = datesOf(scan, context.nowMs);
    const name = `scan ${isPlainIdentifier(scan.id) ? scan.id : '(an odd id)'}`;
    if (typeof dates === 'string') skewed.push(`${name} ${dates}`);
    else if (dates.created >= now.created) {
      if (context.listedBefore || (position !== -1 && index > position))
        skewed.push(
          `${name} is dated ${iso(dates.created)}, at or after the current scan (${iso(now.created)})`,
        );
      else later++;
    } else if (dates.at > now.at) {
      skewed.push(`${name} completed at ${iso(dates.at)}, after the current scan (${iso(now.at)})`);
    } else previous.push({ scan, created: dates.created, index });
  });
  if (skewed.length > 0) {
    const n = skewed.length - 1;
    const more = n > 0 ? `; ${n} more scan${n === 1 ? '' : 's'} too` : '';
    return { kind: 'skew', why: `clock skew: ${skewed[0]}${more}` };
  }
  previous.sort((a, b) => b.created - a.created || a.index - b.index);
  return { kind: 'scans', previous: previous.map(({ scan }) => scan), later };
}

/** When a scan's results were known (completedAt, else createdAt), or undefined. */
export function scanTime(scan: Pick<Scan, 'completedAt' | 'createdAt'>): string | undefined {
  const when = scan.completedAt ?? scan.createdAt;
  if (!when) return undefined;
  const ms = parseTimestamp(when);
  return ms === undefined ? undefined : new Date(ms).toISOString();
}

/** A previous scan as the history keeps it: its failed checks, and of the newest its findings
 *  (the baseline `previous`) and, when every result was read, the checks it evaluated. */
function historyScan(
  scan: Scan,
  at: string,
  read: FindingView[],
  newest: boolean,
  all: boolean,
): HistoryScan {
  const kinds = read.map((view) => ({ view, outcome: resultKind(view.result).outcome }));
  const failed = all ? kinds.filter((k) => k.outcome === 'failed').map((k) => k.view) : read;
  const { passed, failed: failedCount } = scan.summary ?? {};
  return {
    id: scan.id,
    at,
    failed: new Set(failed.map((view) => view.identity)),
    failedCount: failed.length,
    evaluated: passed !== undefined && failedCount !== undefined ? passed + failedCount : null,
    ...(newest ? { findings: failed } : {}),
    ...(all
      ? {
          evaluatedChecks: kinds
            .filter((k) => k.outcome !== 'not-evaluated')
            .map((k) => k.view.identity),
        }
      : {}),
  };
}

/** Reads the failed findings of up to `count` previous scans. Errors but an abort become
 *  `unreadable`: the caller decides what a missing history means. `listed`: the scan list read
 *  before the current scan was triggered (none is read again); without it the list is read now. */
export async function readHistory(
  client: TenantClient,
  current: Scan,
  count: number,
  context: {
    listed?: readonly Scan[];
    signal: AbortSignal;
    nowMs?: number;
    allNewest?: boolean;
    maxBytes?: number;
  },
): Promise<HistoryRead> {
  if (count <= 0) return { kind: 'none' };
  try {
    const listed = context.listed ?? (await client.scans.list({ signal: context.signal }));
    const found = historyScans(current, listed, {
      listedBefore: context.listed !== undefined,
      nowMs: context.nowMs ?? Date.now(),
    });
    if (found.kind === 'skew') return { kind: 'unreadable', why: found.why, skew: true };
    const earlier = found.previous;
    const chosen = earlier.slice(0, count);
    const scans: HistoryScan[] = [];
    let kept = 0;
    for (const scan of chosen) {
      const at = scanTime(scan);
      if (!isPlainIdentifier(scan.id) || at === undefined) {
        return { kind: 'unreadable', why: 'a previous scan has no plain id or no time' };
      }
      const newest = scans.length === 0;
      const all = newest && context.allNewest === true;
      const { findings: read } = await readScanResults(client, scan, {
        all,
        signal: context.signal,
        maxBytes: context.maxBytes,
      });
      kept += read.length;
      if (kept > MAX_HISTORY_FINDINGS) {
        return {
          kind: 'unreadable',
          why: `the previous scans hold more than ${MAX_HISTORY_FINDINGS} failed findings`,
        };
      }
      scans.push(historyScan(scan, at, read, newest, all));
    }
    return { kind: 'read', scans, complete: earlier.length <= count, later: found.later };
  } catch (error) {
    if (context.signal.aborted) throw error;
    const why = toJobError('Baseline', error).detail;
    return { kind: 'unreadable', why };
  }
}
