// Coverage against the baseline: the checks the baseline evaluated (passed or failed) that were not
// evaluated now — skipped, not applicable, an error, or absent — listed by identity. A scan that
// evaluated 200 checks where the baseline evaluated 240 has 40 fewer chances to fail: beyond
// `max-coverage-drop` percent of the baseline's evaluated checks, the gate fails (the strict
// side, as for evidence that cannot be read). Pure: the sets are read elsewhere (apply.ts).

import { quoteValue } from '../common/text.js';
import { SettingProblem } from '../common/settings-problems.js';

/** Percent of the baseline's evaluated checks that may go unevaluated now (max-coverage-drop). */
export const DEFAULT_MAX_COVERAGE_DROP = 10;
/** max-coverage-drop at which coverage is off: nothing is compared, nothing more is read. */
export const COVERAGE_OFF = 100;
/** max-coverage-drop: a percent from 0 to 100 (fractions and a trailing % allowed); empty: the
 *  default. `label` names the setting as the face spells it. */
export function parseMaxCoverageDrop(label: string, raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_MAX_COVERAGE_DROP;
  const match = /^(\d+(?:\.\d+)?)\s*%?$/.exec(value);
  const n = match ? Number(match[1]) : Number.NaN;
  if (!Number.isFinite(n) || n < 0 || n > COVERAGE_OFF) {
    throw new SettingProblem(
      `${label} must be a percent of the baseline's evaluated checks from 0 to 100 (100: off), got ${quoteValue(value)}`,
    );
  }
  return n;
}

/** Checks named in a line at most; the rest are counted. */
const NAMED_IN_LINE = 10;
/** Checks not evaluated now that a report page names at most; the rest are counted. */
export const MAX_DROPPED_SHOWN = 200;

export type CoverageJudgement =
  /** max-coverage-drop is 100 (off). */
  | { kind: 'off' }
  /** Nothing to compare with: no baseline, or one whose evaluated checks are not known. */
  | { kind: 'none'; why: string }
  | {
      kind: 'compared';
      /** The baseline in words ("scan X of 2026-11-20", "baseline file b.json"). */
      source: string;
      baselineEvaluated: number;
      evaluatedNow: number;
      /** Evaluated in the baseline, not evaluated now: identities in the baseline's order. */
      dropped: string[];
      /** dropped / baselineEvaluated, in percent (0 when the baseline evaluated nothing). */
      dropPercent: number;
      maxDrop: number;
      /** The drop is more than maxDrop percent: the gate fails. */
      fails: boolean;
    };

/** Whether the gate compares coverage: a baseline is asked for and coverage is not off. */
export function coverageWanted(gate: {
  baseline: { kind: string };
  maxCoverageDrop?: number;
}): boolean {
  return (
    gate.baseline.kind !== 'none' &&
    (gate.maxCoverageDrop ?? DEFAULT_MAX_COVERAGE_DROP) < COVERAGE_OFF
  );
}

/** Judges the evaluated checks now against the baseline's (identities; repeats count once). */
export function judgeCoverage(
  baselineEvaluated: Iterable<string>,
  evaluatedNow: Iterable<string>,
  maxDrop: number,
  source: string,
): Extract<CoverageJudgement, { kind: 'compared' }> {
  const now = new Set(evaluatedNow);
  const before = [...new Set(baselineEvaluated)];
  const dropped = before.filter((check) => !now.has(check));
  const dropPercent = before.length === 0 ? 0 : (dropped.length * 100) / before.length;
  return {
    kind: 'compared',
    source,
    baselineEvaluated: before.length,
    evaluatedNow: now.size,
    dropped,
    dropPercent,
    maxDrop,
    // Compared as integers where it can be: 1 of 10 is exactly 10 %, not over it.
    fails: maxDrop < COVERAGE_OFF && dropped.length * 100 > maxDrop * before.length,
  };
}

export function coverageFails(coverage: CoverageJudgement | undefined): boolean {
  return coverage?.kind === 'compared' && coverage.fails;
}

/** "MT.1201, MT.1202, … and 30 more": the first checks named, the rest counted. */
export function namedChecks(checks: readonly string[], max = NAMED_IN_LINE): string {
  const shown = checks.slice(0, max).join(', ');
  return checks.length > max ? `${shown}, … and ${checks.length - max} more` : shown;
}

function percent(value: number): string {
  return `${Number.isInteger(value) ? value : value.toFixed(1)} %`;
}

/** The line of a coverage drop that fails the gate: "Coverage dropped: 40 of 240 checks evaluated
 *  in scan X were not evaluated now (MT.1201, …): 16.7 %, more than 10 % (max-coverage-drop)".
 *  `label` names the setting as the face spells it. */
export function coverageDropLine(
  coverage: Extract<CoverageJudgement, { kind: 'compared' }>,
  label = 'max-coverage-drop',
): string {
  const { dropped, baselineEvaluated, source } = coverage;
  return `Coverage dropped: ${dropped.length} of ${baselineEvaluated} check${baselineEvaluated === 1 ? '' : 's'} evaluated in ${source} ${dropped.length === 1 ? 'was' : 'were'} not evaluated now (${namedChecks(dropped)}): ${percent(coverage.dropPercent)}, more than ${percent(coverage.maxDrop)} (${label})`;
}

/** The log's line for any judgement: what was compared, or why nothing was. */
export function coverageLogLine(coverage: CoverageJudgement): string | undefined {
  if (coverage.kind === 'off') return undefined;
  if (coverage.kind === 'none') return `Coverage: not compared — ${coverage.why}`;
  if (coverage.fails) return coverageDropLine(coverage);
  const lost =
    coverage.dropped.length > 0
      ? `; ${coverage.dropped.length} of them not evaluated now (${namedChecks(coverage.dropped)}), ${percent(coverage.dropPercent)}, within ${percent(coverage.maxDrop)}`
      : '; every one evaluated now';
  return `Coverage: ${coverage.evaluatedNow} checks evaluated now, ${coverage.baselineEvaluated} in ${coverage.source}${lost}`;
}
