// What a report page (render/html) shows of a record beyond the roll-up's figures: each failed
// finding's text and marks, the record's trend and verdict line. Read leniently: these fields decide
// nothing (the verdict is judged from the strictly read ones, verdict.ts), so a value of the wrong
// type is left out instead of making the tenant unreadable. Text is kept as the record has it; the
// page's builder cleans it (controls, secrets, length) like any service text.

import type { JsonObject } from '../../client/index.js';

/** A failed finding's text and gate marks, as the record states them. */
export interface FindingShown {
  category?: string;
  description?: string;
  remediation?: string;
  reference?: string;
  baselineState?: 'new' | 'unchanged';
  waiver?: { reason: string; expires: string; owner?: string };
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
  /** The scan's own counts of checks by result (the record's `scan.summary`), when given. */
  checks: { passed?: number; failed?: number; skipped?: number } | null;
}

const optionalText = (value: unknown): string | undefined =>
  typeof value === 'string' ? value : undefined;

function optionalCount(value: unknown): number | undefined {
  return Number.isSafeInteger(value) && (value as number) >= 0 ? (value as number) : undefined;
}

function waiverOf(value: unknown): FindingShown['waiver'] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const { reason, expires, owner } = value as JsonObject;
  if (typeof reason !== 'string' || typeof expires !== 'string') return undefined;
  return { reason, expires, ...(typeof owner === 'string' ? { owner } : {}) };
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
  };
}

/** The scan's counts by result, each a count or left out. */
function checksOf(scan: unknown): RecordShown['checks'] {
  if (scan === null || typeof scan !== 'object' || Array.isArray(scan)) return null;
  const summary = (scan as JsonObject).summary;
  if (summary === null || typeof summary !== 'object' || Array.isArray(summary)) return null;
  const { passed, failed, skipped } = summary as JsonObject;
  const checks = {
    passed: optionalCount(passed),
    failed: optionalCount(failed),
    skipped: optionalCount(skipped),
  };
  return Object.values(checks).some((count) => count !== undefined) ? checks : null;
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
    checks: checksOf(scan),
  };
}
