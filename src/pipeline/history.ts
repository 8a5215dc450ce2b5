// The history of a scan's failed findings: the previous completed scans of the same type (the
// scan list the job already read, else one list read), each one's failed results read whole
// (results.ts: every page, agreeing with its counts), newest first. A history that cannot be read
// whole is not a history: it is `unreadable`, and every age then counts as unknown (deadlines.ts).

import { isPlainIdentifier } from '../client/index.js';
import type { FindingView, Scan, TenantClient } from '../client/types.js';
import { MAX_LIST_ITEMS } from '../client/index.js';
import { toJobError } from './errors.js';
import { readScanResults } from './results.js';

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
}

export type HistoryRead =
  | { kind: 'none' }
  /** Newest first. Fewer than asked when the tenant has no more completed scans of the type:
   *  `complete` says every earlier scan is in. */
  | { kind: 'read'; scans: HistoryScan[]; complete: boolean }
  | { kind: 'unreadable'; why: string };

function timeOf(scan: Scan): number {
  const time = Date.parse(scan.createdAt ?? '');
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/** When a scan's results were known (completedAt, else createdAt), or undefined. */
export function scanTime(scan: Pick<Scan, 'completedAt' | 'createdAt'>): string | undefined {
  const when = scan.completedAt ?? scan.createdAt;
  if (!when) return undefined;
  const ms = Date.parse(when);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}

/** The completed, visible scans of the same type created before `current`, newest first (the
 *  service's order breaks ties; its list is newest first). */
export function previousScans(current: Scan, listed: readonly Scan[]): Scan[] {
  const type = (current.scanType ?? '').toLowerCase();
  const before = timeOf(current);
  return listed
    .map((scan, index) => ({ scan, index }))
    .filter(
      ({ scan }) =>
        scan.id !== current.id &&
        scan.phase === 'succeeded' &&
        scan.raw.hidden !== true &&
        (scan.scanType ?? '').toLowerCase() === type &&
        (before === Number.NEGATIVE_INFINITY || timeOf(scan) < before),
    )
    .sort((a, b) => timeOf(b.scan) - timeOf(a.scan) || a.index - b.index)
    .map(({ scan }) => scan);
}

/** Reads the failed findings of up to `count` previous scans. Errors but an abort become
 *  `unreadable`: the caller decides what a missing history means. */
export async function readHistory(
  client: TenantClient,
  current: Scan,
  count: number,
  context: { listed?: readonly Scan[]; signal: AbortSignal },
): Promise<HistoryRead> {
  if (count <= 0) return { kind: 'none' };
  try {
    const listed = context.listed ?? (await client.scans.list({ signal: context.signal }));
    const earlier = previousScans(current, listed);
    const chosen = earlier.slice(0, count);
    const scans: HistoryScan[] = [];
    let kept = 0;
    for (const scan of chosen) {
      const at = scanTime(scan);
      if (!isPlainIdentifier(scan.id) || at === undefined) {
        return { kind: 'unreadable', why: 'a previous scan has no plain id or no time' };
      }
      const read = await readScanResults(client, scan, { all: false, signal: context.signal });
      kept += read.length;
      if (kept > MAX_HISTORY_FINDINGS) {
        return {
          kind: 'unreadable',
          why: `the previous scans hold more than ${MAX_HISTORY_FINDINGS} failed findings`,
        };
      }
      const failed = new Set(read.map(({ view }) => view.identity));
      const findings = scans.length === 0 ? read.map(({ view }) => view) : undefined;
      scans.push({
        id: scan.id,
        at,
        failed,
        failedCount: read.length,
        ...(findings ? { findings } : {}),
      });
    }
    return { kind: 'read', scans, complete: earlier.length <= count };
  } catch (error) {
    if (context.signal.aborted) throw error;
    const why = toJobError('Baseline', error).message.replace(/^Baseline failed: /, '');
    return { kind: 'unreadable', why };
  }
}
