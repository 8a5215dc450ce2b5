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

// The seed does not show a scan's counts. They are found by their shape, not by a list of names:
// an object of numbers keyed by result words (Passed/Failed/Skipped/Error, with or without a
// suffix such as Checks or Count, numbers possibly as strings), nested under whatever name the
// service gives it, or on the scan itself. The object with the most result words wins.

const RESULT_WORDS: Record<string, keyof ScanSummary> = {
  pass: 'passed',
  passed: 'passed',
  passes: 'passed',
  passing: 'passed',
  succeeded: 'passed',
  success: 'passed',
  successful: 'passed',
  compliant: 'passed',
  fail: 'failed',
  failed: 'failed',
  fails: 'failed',
  failing: 'failed',
  failure: 'failed',
  failures: 'failed',
  noncompliant: 'failed',
  skip: 'skipped',
  skipped: 'skipped',
  skips: 'skipped',
  notapplicable: 'skipped',
  notevaluated: 'skipped',
  error: 'errors',
  errors: 'errors',
  errored: 'errors',
  total: 'total',
};
/** On the scan itself: names a count may carry besides its result word. */
const SUFFIXES = ['checks', 'check', 'count', 'results', 'findings', 'tests', 'controls'];
const PREFIXES = ['number', 'num', 'total'];

/** The count a key names ("failedChecks", "Failed", "num_failed", "totalChecks"), if any. */
function countField(key: string): keyof ScanSummary | undefined {
  let word = key.toLowerCase().replace(/[^a-z]/g, '');
  for (const suffix of SUFFIXES) {
    if (word.length > suffix.length && word.endsWith(suffix)) {
      word = word.slice(0, -suffix.length);
      break;
    }
  }
  if (RESULT_WORDS[word]) return RESULT_WORDS[word];
  const prefix = PREFIXES.find((p) => word.length > p.length && word.startsWith(p));
  const rest = prefix ? RESULT_WORDS[word.slice(prefix.length)] : undefined;
  return rest === 'total' ? undefined : rest;
}

function countsIn(obj: JsonObject): { summary: ScanSummary; results: number } {
  const summary: ScanSummary = {};
  for (const [key, value] of Object.entries(obj)) {
    const field = countField(key);
    const n = numberOf(value);
    if (field && n !== undefined && n >= 0 && summary[field] === undefined) summary[field] = n;
  }
  const results = (['passed', 'failed', 'skipped', 'errors'] as const).filter(
    (field) => summary[field] !== undefined,
  ).length;
  return { summary, results };
}

/** The scan's counts wherever they are (see above); `total` is given or the sum of the results. */
function summaryOf(scan: JsonObject): ScanSummary | undefined {
  const candidates = [
    ...Object.values(scan)
      .filter(isObject)
      .map((nested) => countsIn(nested)),
    countsIn(scan),
  ];
  const best = candidates.reduce<{ summary: ScanSummary; results: number } | undefined>(
    (chosen, candidate) =>
      candidate.results > 0 && candidate.results > (chosen?.results ?? 0) ? candidate : chosen,
    undefined,
  );
  if (!best) return undefined;
  const { summary } = best;
  if (summary.total === undefined && summary.failed !== undefined && summary.passed !== undefined)
    summary.total =
      summary.failed + summary.passed + (summary.skipped ?? 0) + (summary.errors ?? 0);
  return summary;
}
