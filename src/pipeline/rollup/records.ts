// Reading run records (record.ts) for a roll-up: file paths and globs (tinyglobby), each file
// bounded in size and nesting, parsed and checked strictly. Records come from other jobs'
// artifacts: a record that is not a whole version-1 document is never read in part — the tenant
// is listed as unreadable, with why — a link that leads out of the records' folder is refused, and
// a record's verdict is judged again from its own findings and gate (rollup-verdict.ts). Only what
// the roll-up needs is kept of each, so hundreds of records of thousands of findings stay small in
// memory. A tenant plan (plans.ts) is recognised by its kind and read beside the records.

import { isObject, type FindingView, type JsonObject } from '../../client/index.js';
import { readFile, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import { SEVERITY_ORDER } from '../common/findings.js';
import { RECORD_VERSION } from '../output/record.js';
import {
  DocumentProblem,
  count,
  countOrNull,
  problem,
  text,
  textOrNull,
} from './document-fields.js';
import { isPlanDocument, summarizePlan, type PlanSummary } from './plans.js';
import { rejudgeRecord } from './verdict.js';
import { findingShown, recordShown, type FindingShown, type RecordShown } from './shown.js';

/** A record bigger than this is not read (one of 250,000 findings is about 150 MB). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;
/** A record nests 4 deep; deeper than this is not one, and is refused before it is parsed (a
 *  parser takes minutes and gigabytes over 100 MB of `[`). */
export const MAX_RECORD_DEPTH = 32;

type Severity = FindingView['severity'];

/** What a roll-up keeps of one record's failed finding. */
export interface RolledFinding {
  check: string;
  title: string;
  severity: Severity;
  /** Its text and marks, for a report page (shown.ts): read leniently, decides nothing; only
   *  when the reader asks for them (readRecords' `display`). */
  shown?: FindingShown;
}

/** What a roll-up keeps of one readable record. */
export interface RecordSummary {
  label: string | null;
  tenant: string | null;
  scanId: string | null;
  completedAt: string | null;
  /** When the scan was created: the time of a record whose scan did not complete. */
  createdAt: string | null;
  /** When the record was written: the time of a record without a scan time (older records have
   *  none). */
  writtenAt: string | null;
  verdict: 'passed' | 'failed' | null;
  /** Why the record contradicts itself (its verdict and its own findings and gate disagree). */
  contradiction: string | null;
  error: string | null;
  failed: number;
  /** Failed findings that fail the record's own gate, judged again (null: no completed scan). */
  gating: number | null;
  new: number | null;
  fixed: number | null;
  overdue: number | null;
  findings: RolledFinding[];
  /** The record's trend and verdict line, for a report page (shown.ts), when asked for. */
  shown?: RecordShown;
  /** The checks not evaluated, when the record counts them (older records do not). */
  notEvaluated: number | null;
  /** Coverage against its baseline, when it compared one. */
  coverage: RolledCoverage | null;
}

export interface ReadOptions {
  /** Keep what a report page shows of each record (shown.ts): only a reader that shows it pays
   *  for it. */
  display?: boolean;
}

/** What a roll-up keeps of a record's coverage. */
export interface RolledCoverage {
  evaluatedNow: number;
  baselineEvaluated: number;
  dropped: number;
  /** Dropped beyond the record's own max-coverage-drop (judged again: rollup/verdict.ts). */
  fails: boolean;
}

export type RecordEntry =
  | {
      kind: 'read';
      source: string;
      record: RecordSummary;
      /** The whole record as read, for a reader that lists its findings (the CSV and OCSF files);
       *  a consumer that keeps only the summary lets it go with the entry. */
      document?: unknown;
    }
  | { kind: 'plan'; source: string; plan: PlanSummary }
  | { kind: 'unreadable'; source: string; why: string; /** It says it is a plan. */ plan?: true }
  | { kind: 'missing'; source: string; why: string };

/** Each pattern's files (a plain path that does not exist, or a glob that matches nothing, is a
 *  missing entry), each file once, in the order given, yielded one by one so that a caller can
 *  keep what it needs of a record and let the rest go. */
export async function* readRecords(
  patterns: readonly string[],
  cwd: string,
  options: ReadOptions = {},
): AsyncGenerator<RecordEntry> {
  const reads: Array<() => Promise<RecordEntry>> = [];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    const dynamic = isDynamicPattern(pattern);
    const folder = recordsFolder(pattern, cwd);
    const paths = dynamic
      ? (await glob(pattern, { cwd, absolute: true, onlyFiles: true })).sort()
      : [resolve(cwd, pattern)];
    if (dynamic && paths.length === 0) {
      const entry: RecordEntry = {
        kind: 'missing',
        source: pattern,
        why: 'no record file matches this pattern',
      };
      reads.push(() => Promise.resolve(entry));
    }
    for (const path of paths) {
      if (seen.has(path)) continue;
      seen.add(path);
      reads.push(() => readOne(path, shownPath(cwd, path), folder, cwd, options));
    }
  }
  // One at a time: reading several at once saved little and held several parsed records.
  for (const read of reads) yield await read();
}

/** What a pattern names before any match: a plain path itself, a glob's fixed part (the folder its
 *  matches must stay in). A face that keeps the records in a place checks this. */
export function patternBase(pattern: string, cwd: string): string {
  return isDynamicPattern(pattern) ? recordsFolder(pattern, cwd) : resolve(cwd, pattern);
}

/** The folder a pattern's records must stay in: its part before the first glob segment (for a
 *  plain path, the folder the file is in). */
function recordsFolder(pattern: string, cwd: string): string {
  if (!isDynamicPattern(pattern)) return dirname(resolve(cwd, pattern));
  const parts = pattern.split('/');
  const fixed = parts.slice(
    0,
    parts.findIndex((part) => isDynamicPattern(part)),
  );
  return resolve(cwd, fixed.join('/') || '.');
}

/** Why a record file is refused for where it really is (a link out of its folder), or null. */
async function outsideFolder(path: string, folder: string, cwd: string): Promise<string | null> {
  const [real, realFolder] = await Promise.all([realpath(path), realpath(folder)]);
  if (real.startsWith(realFolder + sep)) return null;
  return `a link out of the records' folder (${shownPath(cwd, folder)}): refused`;
}

/** Whether JSON text nests deeper than `max`: a look at its brackets (strings skipped), before a
 *  parser spends minutes and gigabytes on a document of `[`. */
export function nestsDeeperThan(text: string, max: number): boolean {
  // test() and the index, not exec(): no match object for each of a record's many strings.
  const structural = /[[\]{}"]/g;
  let depth = 0;
  while (structural.test(text)) {
    const char = text.charCodeAt(structural.lastIndex - 1);
    if (char === 0x22) {
      structural.lastIndex = stringEnd(text, structural.lastIndex);
      if (structural.lastIndex === 0) return false; // unterminated: not JSON at all
    } else if (char === 0x5b || char === 0x7b) {
      if (++depth > max) return true;
    } else depth--;
  }
  return false;
}

/** The index after the quote that closes the string opened before `from`; 0 if none does. */
function stringEnd(text: string, from: number): number {
  for (let quote = text.indexOf('"', from); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote + 1;
  }
  return 0;
}

/** A path as a reader wants it: relative to where the roll-up runs when inside it. */
function shownPath(cwd: string, path: string): string {
  const shown = relative(cwd, path);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

async function readOne(
  path: string,
  shown: string,
  folder: string,
  cwd: string,
  options: ReadOptions,
): Promise<RecordEntry> {
  let text: string;
  try {
    const outside = await outsideFolder(path, folder, cwd);
    if (outside) return { kind: 'unreadable', source: shown, why: outside };
    const info = await stat(path);
    if (!info.isFile()) return { kind: 'unreadable', source: shown, why: 'not a regular file' };
    if (info.size > MAX_RECORD_BYTES) {
      return {
        kind: 'unreadable',
        source: shown,
        why: `larger than ${MAX_RECORD_BYTES / 1024 / 1024} MiB`,
      };
    }
    text = await readFile(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'missing', source: shown, why: 'no such file' };
    return { kind: 'unreadable', source: shown, why: code ?? 'could not be read' };
  }
  if (nestsDeeperThan(text, MAX_RECORD_DEPTH)) {
    const why = `nested deeper than ${MAX_RECORD_DEPTH} levels: not a run record`;
    return { kind: 'unreadable', source: shown, why };
  }
  let document: unknown;
  try {
    document = JSON.parse(text) as unknown;
  } catch {
    return { kind: 'unreadable', source: shown, why: 'not JSON' };
  }
  try {
    if (isPlanDocument(document))
      return { kind: 'plan', source: shown, plan: summarizePlan(document) };
    return { kind: 'read', source: shown, record: summarize(document, options), document };
  } catch (error) {
    if (!(error instanceof DocumentProblem)) throw error;
    const unreadable = { kind: 'unreadable', source: shown, why: error.message } as const;
    return isPlanDocument(document) ? { ...unreadable, plan: true } : unreadable;
  }
}

/** The parts of a version-1 record a roll-up uses, checked; anything else in it is ignored. */
export function summarize(document: unknown, options: ReadOptions = {}): RecordSummary {
  if (!isObject(document)) problem('not a run record (a JSON object)');
  const version = document.version;
  if (version !== RECORD_VERSION) {
    if (typeof version === 'number' && version > RECORD_VERSION)
      problem(`record version ${version} is newer than this tenant-scan reads (${RECORD_VERSION})`);
    problem('not a run record (no "version": 1)');
  }
  const verdict = document.verdict;
  if (verdict !== null && verdict !== 'passed' && verdict !== 'failed')
    problem('"verdict" is not passed, failed or null');
  if (!Array.isArray(document.findings)) problem('"findings" is not a list');
  const failed = count(document.failed, '"failed"');
  if (document.findings.length !== failed) {
    problem(`it says ${failed} failed but lists ${document.findings.length} findings`);
  }
  const gate = document.gate;
  if (gate !== null && gate !== undefined && !isObject(gate)) problem('"gate" is not an object');
  const scan = document.scan;
  if (scan !== null && scan !== undefined && !isObject(scan)) problem('"scan" is not an object');
  const findings = document.findings.map((value, index) =>
    rolledFinding(value, index, options.display === true),
  );
  const { gating, coverageFails, contradiction } = rejudgeRecord(
    document,
    document.findings as JsonObject[],
  );
  return {
    label: textOrNull(document.label, '"label"'),
    tenant: textOrNull(document.tenant, '"tenant"'),
    scanId: scan ? textOrNull(scan.id, '"scan.id"') : null,
    completedAt: scan ? textOrNull(scan.completedAt, '"scan.completedAt"') : null,
    // Read only for their age (--max-age): a record is not refused for them when no age is asked.
    createdAt: typeof scan?.createdAt === 'string' ? scan.createdAt : null,
    writtenAt: typeof document.writtenAt === 'string' ? document.writtenAt : null,
    verdict,
    contradiction,
    error: textOrNull(document.error, '"error"'),
    failed,
    gating: gating ?? (gate ? count(gate.failing, '"gate.failing"') : null),
    new: countOrNull(document.new, '"new"'),
    fixed: countOrNull(document.fixed, '"fixed"'),
    overdue: countOrNull(document.overdue, '"overdue"'),
    findings,
    ...(options.display ? { shown: recordShown(document) } : {}),
    notEvaluated: notEvaluatedOf(document.results),
    coverage: rolledCoverage(document.coverage, coverageFails),
  };
}

function notEvaluatedOf(results: unknown): number | null {
  if (results === null || results === undefined) return null;
  if (!isObject(results)) problem('"results" is not an object');
  return count(results.notEvaluated, '"results.notEvaluated"');
}

function rolledCoverage(coverage: unknown, fails: boolean): RolledCoverage | null {
  if (!isObject(coverage) || coverage.compared !== true) return null;
  const dropped = Array.isArray(coverage.dropped) ? coverage.dropped.length : 0;
  return {
    evaluatedNow: count(coverage.evaluatedNow, '"coverage.evaluatedNow"'),
    baselineEvaluated: count(coverage.baselineEvaluated, '"coverage.baselineEvaluated"'),
    dropped,
    fails,
  };
}

function rolledFinding(value: unknown, index: number, display: boolean): RolledFinding {
  const what = `finding ${index + 1}`;
  if (!isObject(value)) problem(`${what} is not an object`);
  const severity = value.severity;
  if (!SEVERITY_ORDER.includes(severity as Severity)) problem(`${what} has no known severity`);
  const title = text(value.title, `${what}'s title`);
  const checkId = textOrNull(value.checkId, `${what}'s checkId`);
  return {
    check: checkId ?? title,
    title,
    severity: severity as Severity,
    ...(display ? { shown: findingShown(value) } : {}),
  };
}
