// What a result word means: the one decision for every value the service may send. A check either
// failed, passed, or was not evaluated — skipped, not applicable, not licensed, an error, not run,
// or a word this project does not know, which is not evaluated either and keeps its own name. Words
// are compared without case, spaces or punctuation (`NotApplicable`, `not_applicable`, `N/A`).
// Pure: the gate, coverage, every output's counts and the roll-up ask here.

import type { ScanSummary } from '../../client/index.js';

export type ResultOutcome = 'failed' | 'passed' | 'not-evaluated';

/** The kinds of a check that was not evaluated, as every output names them. */
export const NOT_EVALUATED_KINDS = [
  'skipped',
  'not applicable',
  'not licensed',
  'error',
  'not run',
] as const;
export type NotEvaluatedKind = (typeof NOT_EVALUATED_KINDS)[number];

export interface ResultKind {
  outcome: ResultOutcome;
  /** 'failed', 'passed', a NotEvaluatedKind, or an unknown value under its own name (lower case,
   *  words joined by '-', at most 24 characters; 'no result' when there is none). */
  kind: string;
  /** Whether the word is one this project knows. */
  known: boolean;
  /** What tells two spellings of one word apart from two words: the word without case, spaces or
   *  punctuation. */
  key: string;
}

const WORDS: Record<string, 'failed' | 'passed' | NotEvaluatedKind> = {
  failed: 'failed',
  fail: 'failed',
  failure: 'failed',
  failing: 'failed',
  noncompliant: 'failed',
  passed: 'passed',
  pass: 'passed',
  success: 'passed',
  succeeded: 'passed',
  successful: 'passed',
  compliant: 'passed',
  skipped: 'skipped',
  skip: 'skipped',
  notapplicable: 'not applicable',
  na: 'not applicable',
  nonapplicable: 'not applicable',
  inapplicable: 'not applicable',
  notlicensed: 'not licensed',
  unlicensed: 'not licensed',
  nolicense: 'not licensed',
  licenserequired: 'not licensed',
  error: 'error',
  errored: 'error',
  erred: 'error',
  notrun: 'not run',
  notexecuted: 'not run',
  notevaluated: 'not run',
};

/** The longest name an unknown word keeps: a word, never a sentence (nor a key echoed whole). */
const MAX_NAME_CHARS = 24;
const NO_RESULT = 'no result';

/** The kind of one result value (a finding's `result`, or a filter word). Never throws. */
export function resultKind(value: unknown): ResultKind {
  const text = typeof value === 'string' ? value : '';
  const key = text.toLowerCase().replace(/[^a-z0-9]/g, '');
  const known = WORDS[key];
  if (known === 'failed' || known === 'passed')
    return { outcome: known, kind: known, known: true, key };
  if (known) return { outcome: 'not-evaluated', kind: known, known: true, key };
  const name = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_NAME_CHARS)
    .replace(/-+$/, '');
  return { outcome: 'not-evaluated', kind: name || NO_RESULT, known: false, key: key || '' };
}

export function isFailedResult(value: unknown): boolean {
  return resultKind(value).outcome === 'failed';
}

/** Evaluated: passed or failed (what coverage counts). */
export function isEvaluatedResult(value: unknown): boolean {
  return resultKind(value).outcome !== 'not-evaluated';
}

export interface KindCount {
  kind: string;
  count: number;
  known: boolean;
}

/** The checks of a scan by what became of them. passed + failed + notEvaluated = total, and the
 *  kinds add up to notEvaluated. */
export interface ResultCounts {
  /** 'results': every result was read and judged here; 'scan counts': the scan's own counts (the
   *  failed results alone were read), which split "not evaluated" only as far as they say. */
  source: 'results' | 'scan counts';
  total: number;
  passed: number;
  failed: number;
  notEvaluated: number;
  /** The checks not evaluated by kind: the known kinds in NOT_EVALUATED_KINDS order, then unknown
   *  words most first; none with a count of 0. */
  kinds: KindCount[];
}

/** Unknown words kept apart at most; the rest are counted under OTHER_UNKNOWN. */
export const MAX_UNKNOWN_KINDS = 8;
export const OTHER_UNKNOWN = 'other words';
/** The scan's counts leave part of "not evaluated" unsplit. */
export const UNSPLIT = 'not evaluated (kind not given)';

/** The counts of every result read. */
export function countResults(values: Iterable<unknown>): ResultCounts {
  let passed = 0;
  let failed = 0;
  const known = new Map<string, number>();
  const unknown = new Map<string, { kind: string; count: number }>();
  let other = 0;
  for (const value of values) {
    const { outcome, kind, known: isKnown, key } = resultKind(value);
    if (outcome === 'passed') passed++;
    else if (outcome === 'failed') failed++;
    else if (isKnown) known.set(kind, (known.get(kind) ?? 0) + 1);
    else {
      const entry = unknown.get(key);
      if (entry) entry.count++;
      else if (unknown.size < MAX_UNKNOWN_KINDS) unknown.set(key, { kind, count: 1 });
      else other++;
    }
  }
  const kinds: KindCount[] = [
    ...NOT_EVALUATED_KINDS.filter((kind) => known.has(kind)).map((kind) => ({
      kind,
      count: known.get(kind) ?? 0,
      known: true,
    })),
    ...[...unknown.values()]
      .sort((a, b) => b.count - a.count)
      .map(({ kind, count }) => ({ kind, count, known: false })),
    ...(other > 0 ? [{ kind: OTHER_UNKNOWN, count: other, known: false }] : []),
  ];
  const notEvaluated = kinds.reduce((n, k) => n + k.count, 0);
  return {
    source: 'results',
    total: passed + failed + notEvaluated,
    passed,
    failed,
    notEvaluated,
    kinds,
  };
}

/** The counts from the scan's own numbers when only its failed results were read (`failed`: how
 *  many were read); undefined when they do not give the total and the passed. */
export function countsFromScan(
  summary: ScanSummary | undefined,
  failed: number,
): ResultCounts | undefined {
  const { total, passed } = summary ?? {};
  if (total === undefined || passed === undefined) return undefined;
  const notEvaluated = Math.max(0, total - passed - failed);
  let left = notEvaluated;
  const kinds: KindCount[] = [];
  const take = (kind: string, count: number | undefined, known: boolean) => {
    const n = Math.min(left, Math.max(0, Math.floor(count ?? 0)));
    if (n > 0) kinds.push({ kind, count: n, known });
    left -= n;
  };
  take('skipped', summary?.skipped, true);
  take('error', summary?.errors, true);
  take(UNSPLIT, left, false);
  return {
    source: 'scan counts',
    total: passed + failed + notEvaluated,
    passed,
    failed,
    notEvaluated,
    kinds,
  };
}

/** "3 skipped, 2 not applicable, 1 deferred": the checks not evaluated, in words ('' for none). */
export function kindWords(kinds: readonly KindCount[]): string {
  return kinds.map(({ kind, count }) => `${count} ${kind}`).join(', ');
}

/** "240 checks: 200 passed, 20 failed, 20 not evaluated (15 skipped, 5 error)". */
export function countsLine(counts: ResultCounts): string {
  const head = `${counts.total} check${counts.total === 1 ? '' : 's'}: ${counts.passed} passed, ${counts.failed} failed, ${counts.notEvaluated} not evaluated`;
  return counts.kinds.length > 0 ? `${head} (${kindWords(counts.kinds)})` : head;
}
