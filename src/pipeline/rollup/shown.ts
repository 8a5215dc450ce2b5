// What a report page (render/html) shows of a record beyond the roll-up's figures: each failed
// finding's text and marks (its waiver's disposition too), the record's trend (failed and checks
// evaluated per scan), its verdict line, its checks by result and its coverage in words. Read
// leniently: these fields decide nothing (the verdict is judged from the strictly read ones,
// verdict.ts), so a value of the wrong type is left out instead of making the tenant unreadable.
// Text is kept as the record has it; the page's builder cleans it (controls, secrets, length) like
// any service text.

import type { JsonObject } from '../../client/index.js';
import { MAX_DROPPED_SHOWN } from '../gate/coverage.js';

/** A failed finding's text and gate marks, as the record states them. */
export interface FindingShown {
  category?: string;
  description?: string;
  remediation?: string;
  reference?: string;
  baselineState?: 'new' | 'unchanged';
  waiver?: { reason: string; expires: string; owner?: string; disposition?: string };
  failingSince?: string;
  failingScans?: number;
  dueAt?: string;
  overdue?: boolean;
  gating?: boolean;
}

/** A record's own words and history, for a page. */
export interface RecordShown {
  verdictReason: string | null;
  scanType: string | null;
  /** Failed findings per scan, oldest first, this scan last (the record's `trend`). */
  trend: number[];
  /** Each trend point's scan time, when the record's history names them all; else empty. */
  trendTimes: string[];
  /** Checks evaluated per scan, aligned with `trend` (null: that scan's counts did not say);
   *  empty when the record has none that align. */
  evaluatedTrend: Array<number | null>;
  /** The checks by what became of them (the record's `results`: result-kinds.ts), when whole. */
  results: ShownResults | null;
  /** What the record says of its coverage beyond the roll-up's figures, when it compared one. */
  coverage: ShownCoverage | null;
  /** Why its coverage was not compared, when it had a baseline to compare with. */
  coverageNotCompared: string | null;
}

/** A record's `results`: passed, failed, not evaluated by kind. */
export interface ShownResults {
  source: 'results' | 'scan counts';
  total: number;
  passed: number;
  failed: number;
  notEvaluated: number;
  kinds: Array<{ kind: string; count: number }>;
}

/** A record's coverage in words: the baseline, the limit, the checks not evaluated now. */
export interface ShownCoverage {
  /** The baseline in words ("scan X of 2026-11-20"). */
  source: string | null;
  maxDrop: number | null;
  /** The first MAX_DROPPED_SHOWN checks not evaluated now, by identity. */
  dropped: string[];
}

/** Kinds of "not evaluated" kept at most (the record keeps 5 known, 8 unknown and the rest). */
const MAX_KINDS = 16;

const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function optionalCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

function waiverOf(value: unknown): FindingShown['waiver'] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { reason, expires, owner, disposition } = value as JsonObject;
  if (typeof reason !== 'string' || typeof expires !== 'string') return undefined;
  return {
    reason,
    expires,
    ...(typeof owner === 'string' ? { owner } : {}),
    ...(typeof disposition === 'string' ? { disposition } : {}),
  };
}

/** The shown part of one of a record's findings (an object already checked to be one). */
export function findingShown(finding: JsonObject): FindingShown {
  const state = finding.baselineState;
  const shown: FindingShown = {
    category: optionalText(finding.category),
    description: optionalText(finding.description),
    remediation: optionalText(finding.remediation),
    reference: optionalText(finding.reference),
    baselineState: state === 'new' || state === 'unchanged' ? state : undefined,
    waiver: waiverOf(finding.waiver),
    failingSince: optionalText(finding.failingSince),
    failingScans: optionalCount(finding.failingScans),
    dueAt: optionalText(finding.dueAt),
    overdue: typeof finding.overdue === 'boolean' ? finding.overdue : undefined,
    gating: typeof finding.gating === 'boolean' ? finding.gating : undefined,
  };
  for (const key of Object.keys(shown) as Array<keyof FindingShown>)
    if (shown[key] === undefined) delete shown[key];
  return shown;
}

/** At most this many trend points are kept (history reads at most 100 scans). */
const MAX_TREND = 101;

/** The shown part of a record (an object already checked to be one). */
export function recordShown(document: JsonObject): RecordShown {
  const scan = document.scan;
  const trend = Array.isArray(document.trend) ? document.trend : [];
  const points: number[] = [];
  for (const value of trend.slice(-MAX_TREND)) {
    const point = optionalCount(value);
    if (point === undefined) return shownWithout(document, scan);
    points.push(point);
  }
  return {
    ...shownWithout(document, scan),
    trend: points,
    trendTimes: trendTimes(document, points),
    evaluatedTrend: evaluatedTrend(document.evaluatedTrend, trend.length, points.length),
  };
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The record's checks evaluated per scan when they align with its trend (`aligned` long), the
 *  last `kept` of them as the trend keeps. */
function evaluatedTrend(value: unknown, aligned: number, kept: number): Array<number | null> {
  if (!Array.isArray(value) || kept === 0 || value.length !== aligned) return [];
  const points = value.slice(-kept).map((point) => (point === null ? null : optionalCount(point)));
  if (points.some((point) => point === undefined)) return [];
  return points.some((point) => point !== null) ? (points as Array<number | null>) : [];
}

/** The record's `results`, when each count is one (else none: a page shows no kinds). */
function resultsOf(value: unknown): ShownResults | null {
  if (!isJsonObject(value)) return null;
  const [total, passed, failed, notEvaluated] = [
    value.total,
    value.passed,
    value.failed,
    value.notEvaluated,
  ].map(optionalCount);
  if (total === undefined || passed === undefined || failed === undefined) return null;
  if (notEvaluated === undefined || !Array.isArray(value.kinds)) return null;
  const kinds: ShownResults['kinds'] = [];
  for (const kind of value.kinds.slice(0, MAX_KINDS)) {
    if (!isJsonObject(kind) || typeof kind.kind !== 'string') return null;
    const count = optionalCount(kind.count);
    if (count === undefined) return null;
    kinds.push({ kind: kind.kind, count });
  }
  const source = value.source === 'scan counts' ? 'scan counts' : 'results';
  return { source, total, passed, failed, notEvaluated, kinds };
}

/** The record's coverage in words, when it compared one. */
function coverageOf(value: unknown): ShownCoverage | null {
  if (!isJsonObject(value) || value.compared !== true) return null;
  const dropped = Array.isArray(value.dropped) ? value.dropped : [];
  const maxDrop = value.maxDrop;
  return {
    source: optionalText(value.baseline) ?? null,
    maxDrop: typeof maxDrop === 'number' && maxDrop >= 0 && maxDrop <= 100 ? maxDrop : null,
    dropped: dropped
      .slice(0, MAX_DROPPED_SHOWN)
      .filter((check): check is string => typeof check === 'string'),
  };
}

/** Why the record's coverage was not compared, when a baseline was asked for (a run without one
 *  says nothing of coverage: its `gate.baseline` is "none"). */
function notComparedWhy(document: JsonObject): string | null {
  const { coverage, gate } = document;
  if (!isJsonObject(coverage) || coverage.compared !== false) return null;
  if (!isJsonObject(gate) || gate.baseline === 'none') return null;
  return optionalText(coverage.why) ?? null;
}

/** The times of the trend's scans: the gate's history read (newest first), then this scan. */
function trendTimes(document: JsonObject, trend: readonly number[]): string[] {
  const gate = document.gate;
  const scan = document.scan;
  if (gate === null || typeof gate !== 'object' || Array.isArray(gate)) return [];
  const read = (gate as JsonObject).historyRead;
  if (!Array.isArray(read) || scan === null || typeof scan !== 'object' || Array.isArray(scan))
    return [];
  const times = [...read]
    .reverse()
    .map((item) =>
      item !== null && typeof item === 'object' && !Array.isArray(item)
        ? optionalText((item as JsonObject).at)
        : undefined,
    );
  times.push(optionalText((scan as JsonObject).completedAt));
  if (times.length !== trend.length) return [];
  return times.every((time) => time !== undefined) ? (times as string[]) : [];
}

function shownWithout(document: JsonObject, scan: unknown): RecordShown {
  const scanType =
    scan !== null && typeof scan === 'object' && !Array.isArray(scan)
      ? optionalText((scan as JsonObject).scanType)
      : undefined;
  return {
    verdictReason: optionalText(document.verdictReason) ?? null,
    scanType: scanType ?? null,
    trend: [],
    trendTimes: [],
    evaluatedTrend: [],
    results: resultsOf(document.results),
    coverage: coverageOf(document.coverage),
    coverageNotCompared: notComparedWhy(document),
  };
}
