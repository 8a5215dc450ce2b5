// Reading run records (record.ts) for a roll-up: file paths and globs (tinyglobby), each file
// bounded in size, parsed and checked strictly. Records come from other jobs' artifacts: a record
// that is not a whole version-1 document is never read in part — the tenant is listed as
// unreadable, with why. Only what the roll-up needs is kept of each, so hundreds of records of
// thousands of findings stay small in memory.

import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { glob, isDynamicPattern } from 'tinyglobby';
import type { FindingView } from '../../client/types.js';
import { SEVERITY_ORDER } from '../common/findings.js';
import { RECORD_VERSION } from '../output/record.js';

/** A record bigger than this is not read (one of 250,000 findings is about 150 MB). */
export const MAX_RECORD_BYTES = 256 * 1024 * 1024;

type Severity = FindingView['severity'];

/** What a roll-up keeps of one record's failed finding. */
export interface RolledFinding {
  check: string;
  title: string;
  severity: Severity;
}

/** What a roll-up keeps of one readable record. */
export interface RecordSummary {
  label: string | null;
  tenant: string | null;
  scanId: string | null;
  completedAt: string | null;
  verdict: 'passed' | 'failed' | null;
  error: string | null;
  failed: number;
  gating: number | null;
  new: number | null;
  overdue: number | null;
  findings: RolledFinding[];
}

export type RecordEntry =
  | { kind: 'read'; source: string; record: RecordSummary }
  | { kind: 'unreadable'; source: string; why: string }
  | { kind: 'missing'; source: string; why: string };

/** Each pattern's files (a plain path that does not exist, or a glob that matches nothing, is a
 *  missing entry), each file once, in the order given, yielded one by one so that a caller can
 *  keep what it needs of a record and let the rest go. */
export async function* readRecords(
  patterns: readonly string[],
  cwd: string,
): AsyncGenerator<RecordEntry> {
  const reads: Array<() => Promise<RecordEntry>> = [];
  const seen = new Set<string>();
  for (const pattern of patterns) {
    const dynamic = isDynamicPattern(pattern);
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
      reads.push(() => readOne(path, shownPath(cwd, path)));
    }
  }
  // One at a time: reading several at once saved little and held several parsed records.
  for (const read of reads) yield await read();
}

/** A path as a reader wants it: relative to where the roll-up runs when inside it. */
function shownPath(cwd: string, path: string): string {
  const shown = relative(cwd, path);
  return shown === '' || shown.startsWith('..') || isAbsolute(shown) ? path : shown;
}

async function readOne(path: string, shown: string): Promise<RecordEntry> {
  let text: string;
  try {
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
  try {
    return { kind: 'read', source: shown, record: summarize(JSON.parse(text) as unknown) };
  } catch (error) {
    const why = error instanceof RecordProblem ? error.message : 'not JSON';
    return { kind: 'unreadable', source: shown, why };
  }
}

class RecordProblem extends Error {}

function problem(why: string): never {
  throw new RecordProblem(why);
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown, what: string): string {
  return typeof value === 'string' ? value : problem(`${what} is not a string`);
}

function textOrNull(value: unknown, what: string): string | null {
  return value === null || value === undefined ? null : text(value, what);
}

function count(value: unknown, what: string): number {
  return Number.isSafeInteger(value) && (value as number) >= 0
    ? (value as number)
    : problem(`${what} is not a count`);
}

function countOrNull(value: unknown, what: string): number | null {
  return value === null || value === undefined ? null : count(value, what);
}

/** The parts of a version-1 record a roll-up uses, checked; anything else in it is ignored. */
export function summarize(document: unknown): RecordSummary {
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
  return {
    label: textOrNull(document.label, '"label"'),
    tenant: textOrNull(document.tenant, '"tenant"'),
    scanId: scan ? textOrNull(scan.id, '"scan.id"') : null,
    completedAt: scan ? textOrNull(scan.completedAt, '"scan.completedAt"') : null,
    verdict,
    error: textOrNull(document.error, '"error"'),
    failed,
    gating: gate ? count(gate.failing, '"gate.failing"') : null,
    new: countOrNull(document.new, '"new"'),
    overdue: countOrNull(document.overdue, '"overdue"'),
    findings: document.findings.map(rolledFinding),
  };
}

function rolledFinding(value: unknown, index: number): RolledFinding {
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
  };
}
