// Scan status words → normalised phase. The seed lists no status values, so words are compared
// case-insensitively (spaces and hyphens read as underscores) against the usual vocabularies;
// an unknown word is "running" (keep polling) with knownStatus=false so callers can say so.
import { isObject } from './envelope.js';
import type { JsonObject, Scan, ScanPhase, ScanSummary } from './types.js';

const WORDS: Record<ScanPhase, readonly string[]> = {
  pending: [
    'queued',
    'pending',
    'waiting',
    'created',
    'scheduled',
    'new',
    'accepted',
    'submitted',
    'not_started',
  ],
  running: [
    'running',
    'in_progress',
    'inprogress',
    'started',
    'processing',
    'scanning',
    'active',
    'cancelling',
    'canceling',
    'stopping',
  ],
  succeeded: [
    'completed',
    'complete',
    'succeeded',
    'success',
    'successful',
    'done',
    'finished',
    'passed',
    'ok',
  ],
  failed: ['failed', 'failure', 'error', 'errored'],
  cancelled: ['cancelled', 'canceled', 'aborted', 'stopped'],
  timed_out: ['timed_out', 'timedout', 'timeout', 'expired'],
};

const TERMINAL: ReadonlySet<ScanPhase> = new Set(['succeeded', 'failed', 'cancelled', 'timed_out']);

const LOOKUP = new Map<string, ScanPhase>(
  Object.entries(WORDS).flatMap(([phase, words]) =>
    words.map((w) => [w, phase as ScanPhase] as const),
  ),
);

function normaliseWord(status: unknown): string {
  return typeof status === 'string'
    ? status
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    : '';
}

/** The phase a status word stands for, or undefined for a word this client does not know. */
export function knownScanPhase(status: unknown): ScanPhase | undefined {
  return LOOKUP.get(normaliseWord(status));
}

/** Normalised phase; 'running' for an unknown word (polling goes on). */
export function toScanPhase(status: unknown): ScanPhase {
  return knownScanPhase(status) ?? 'running';
}

export function isTerminalPhase(phase: ScanPhase): boolean {
  return TERMINAL.has(phase);
}

/** A scan object as the server sent it, read tolerantly. */
export function toScan(raw: unknown, fallbackId?: string): Scan {
  const obj: JsonObject = isObject(raw) ? raw : {};
  const status = typeof obj.status === 'string' ? obj.status : '';
  const known = knownScanPhase(status);
  const phase = known ?? 'running';
  return {
    id: text(obj.id) ?? text(obj.scanId) ?? fallbackId ?? '',
    status,
    phase,
    knownStatus: known !== undefined,
    terminal: isTerminalPhase(phase),
    progress: progressOf(obj.progress),
    scanType: text(obj.scanType) ?? text(obj.type),
    createdAt: text(obj.createdAt),
    startedAt: text(obj.startedAt),
    completedAt: text(obj.completedAt) ?? text(obj.finishedAt),
    summary: summaryOf(obj),
    raw: obj,
  };
}

function text(value: unknown): string | undefined {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return undefined;
}

function numberOf(value: unknown): number | undefined {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof n === 'number' && Number.isFinite(n) ? n : undefined;
}

/** 0–100; a 0–1 fraction is not guessed at (the emulator and the usual APIs send percent). */
function progressOf(value: unknown): number | undefined {
  const n = numberOf(value);
  return n === undefined ? undefined : Math.min(100, Math.max(0, n));
}

// The seed does not show a scan's counts: the emulator's `summary {total,passed,failed,skipped}`
// is one guess among the usual shapes, nested under one of these names or on the scan itself.
const COUNTS_OBJECTS = [
  'summary',
  'counts',
  'totals',
  'results',
  'stats',
  'statistics',
  'resultCounts',
];
const COUNT_NAMES: Record<keyof ScanSummary, readonly string[]> = {
  total: ['total', 'totalChecks', 'checks', 'checksTotal', 'count', 'totalCount'],
  passed: ['passed', 'pass', 'passedChecks', 'passedCount', 'succeeded'],
  failed: ['failed', 'fail', 'failedChecks', 'failedCount', 'failures'],
  skipped: ['skipped', 'skip', 'skippedChecks', 'skippedCount', 'notApplicable'],
};

/** On the scan itself only unambiguous names count: `count` or `checks` may mean anything there. */
const AMBIGUOUS_ON_SCAN = new Set(['count', 'checks']);

function countsIn(obj: JsonObject, onScan = false): ScanSummary | undefined {
  const summary: ScanSummary = {};
  for (const field of Object.keys(COUNT_NAMES) as Array<keyof ScanSummary>) {
    for (const name of COUNT_NAMES[field]) {
      if (onScan && AMBIGUOUS_ON_SCAN.has(name)) continue;
      const n = numberOf(obj[name]);
      if (n !== undefined && n >= 0) {
        summary[field] = n;
        break;
      }
    }
  }
  if (summary.total === undefined && summary.failed !== undefined && summary.passed !== undefined)
    summary.total = summary.failed + summary.passed + (summary.skipped ?? 0);
  return Object.keys(summary).length > 0 ? summary : undefined;
}

/** The scan's counts under any of the usual names, nested or on the scan; numbers may be strings. */
function summaryOf(scan: JsonObject): ScanSummary | undefined {
  for (const name of COUNTS_OBJECTS) {
    const nested = scan[name];
    const counts = isObject(nested) ? countsIn(nested) : undefined;
    if (counts) return counts;
  }
  return countsIn(scan, true);
}
