// The findings gate: which failed findings fail the job. A finding fails it unless it is waived,
// below the severity threshold, or (with fail-on new) unchanged since the baseline. Pure: the
// baseline and the waivers are read elsewhere (baseline.ts, waivers.ts).

import type { FindingView, Severity } from '../../client/index.js';
import type { FindingAge, SlaDays } from './deadlines.js';
import { severityRank } from '../common/findings.js';
import { plural } from '../common/text.js';
import type { HistoryRead } from './history.js';
import { coverageDropLine, coverageFails, type CoverageJudgement } from './coverage.js';
import {
  countDispositions,
  dispositionCountWords,
  type Disposition,
  type DispositionCounts,
} from './dispositions.js';

export type GateSeverity = Exclude<Severity, 'unknown'>;
/** The threshold's words, lowest first. */
export const GATE_SEVERITIES: readonly GateSeverity[] = [
  'info',
  'low',
  'medium',
  'high',
  'critical',
];
export type FailOn = 'any' | 'new' | 'overdue';
export const FAIL_ON_WORDS: readonly FailOn[] = ['any', 'new', 'overdue'];

export type BaselineSetting =
  { kind: 'none' } | { kind: 'previous' } | { kind: 'file'; path: string };

export interface GateSettings {
  /** Failed findings below this severity do not fail the gate (unknown severity always does). */
  threshold: GateSeverity;
  /** 'new': only failed findings that are not in the baseline fail the gate; 'overdue': only
   *  those past their remediation deadline (deadlines.ts). */
  failOn: FailOn;
  baseline: BaselineSetting;
  /** A waivers file (waivers.ts); undefined: no waivers. */
  waiversFile?: string;
  /** A waiver may expire at most this many days ahead (waivers.ts); undefined: 365. */
  waiversMaxDays?: number;
  /** How many previous completed scans of the type to read for ages and the trend (0: none). */
  history?: number;
  /** Remediation deadlines per severity; undefined: DEFAULT_SLA_DAYS. */
  slaDays?: SlaDays;
  /** Percent of the baseline's evaluated checks that may go unevaluated now (coverage.ts);
   *  undefined: DEFAULT_MAX_COVERAGE_DROP; 100: coverage is off. */
  maxCoverageDrop?: number;
}

/** Today's behaviour: every failed finding fails the gate. */
export const DEFAULT_GATE: GateSettings = {
  threshold: 'info',
  failOn: 'any',
  baseline: { kind: 'none' },
};

/** A waiver of the waivers file: the finding of this check does not fail the gate until `expires`
 *  (the last day it holds, UTC). */
export interface Waiver {
  check: string;
  reason: string;
  /** YYYY-MM-DD. */
  expires: string;
  owner?: string;
  /** Why it waives (dispositions.ts); undefined: risk-accepted. */
  disposition?: Disposition;
  /** Line of the entry in the file (1-based). */
  line: number;
}

/** What the baseline was, once looked for. */
export type BaselineRead =
  | { kind: 'none' }
  /** Asked for, but there is none (no earlier scan, or it could not be read): all is new. */
  | { kind: 'missing'; why: string }
  /** `source` names it in messages: "scan X of 2026-11-20" or "baseline file x.json"; `at` is the
   *  baseline scan's time (ISO), unknown for a file. */
  | {
      kind: 'found';
      source: string;
      failed: FindingView[];
      at?: string;
      /** Identities of the checks it evaluated (passed or failed), when every result was read;
       *  undefined when only its failed ones are known (coverage cannot be compared). */
      evaluated?: string[];
    };

export type BaselineState = 'new' | 'unchanged';

/** A failed finding as the gate judged it. */
export interface JudgedFinding extends FindingView {
  /** Set when a baseline was found. */
  baselineState?: BaselineState;
  /** The waiver in force that matched it. */
  waiver?: Waiver;
  /** How long it has failed and its deadline; set when a history was asked for. */
  age?: FindingAge;
  /** Whether this finding fails the gate. */
  gating: boolean;
}

export interface GateCounts {
  failed: number;
  /** Failed findings that fail the gate. */
  gating: number;
  /** Not waived and not in the baseline (every such finding when there is no baseline). The
   *  failed findings are new + unchanged + waived. */
  new: number;
  /** Not waived, failed in the baseline too. */
  unchanged: number;
  /** Failed in the baseline, not failed now. */
  fixed: number;
  waived: number;
  /** The waived findings by their waiver's disposition ("3 accepted risks, 1 false positive"). */
  dispositions: DispositionCounts;
  /** Waived findings whose waiver ends within WAIVER_WARNING_DAYS. */
  expiringSoon: number;
  belowThreshold: number;
  unknownSeverity: number;
  /** Not waived, past their deadline or of unknown age (only with a history). */
  overdue: number;
}

export interface GateOutcome {
  settings: GateSettings;
  /** Failed findings, new first, then unchanged, then waived; worst first within each. */
  findings: JudgedFinding[];
  /** Findings failed in the baseline that did not fail now. */
  fixed: FindingView[];
  counts: GateCounts;
  baseline: BaselineRead;
  /** Waivers past their date: they waive nothing. */
  expired: Waiver[];
  /** Waivers in force that matched no failed finding. */
  stale: Waiver[];
  /** The previous scans read for ages (none unless `history` asked for some), and the failed
   *  findings per scan, oldest first, this scan last. */
  history: HistoryRead;
  trend: number[];
  /** Evaluated checks per scan, oldest first, this scan last, aligned with `trend` (null: the
   *  scan's counts do not say). Empty without a history. */
  evaluatedTrend: Array<number | null>;
  /** The checks evaluated now against the baseline's (coverage.ts). */
  coverage: CoverageJudgement;
}

export const WAIVER_WARNING_DAYS = 7;
const DAY_MS = 86_400_000;

/** The first instant after the waiver's last day (UTC). */
function waiverEndMs(waiver: Waiver): number {
  return Date.parse(`${waiver.expires}T00:00:00Z`) + DAY_MS;
}

/** Whether a severity reaches the threshold (an unknown one always does: the safe side). */
export function atOrAbove(severity: Severity, threshold: GateSeverity): boolean {
  return severity === 'unknown' || severityRank(severity) <= severityRank(threshold);
}

/** Overdue first, then new, then unchanged, then waived. */
function stateRank(finding: JudgedFinding): number {
  if (finding.waiver) return 3;
  if (finding.age?.overdue) return 0;
  return finding.baselineState === 'unchanged' ? 2 : 1;
}

/** The oldest failure first: an unknown age before any known one. */
function sinceRank(finding: JudgedFinding): number {
  const since = Date.parse(finding.age?.failingSince ?? '');
  return Number.isNaN(since) ? Number.NEGATIVE_INFINITY : since;
}

/** What the gate looks at in a failed finding. */
export interface GateFacts {
  severity: Severity;
  waived: boolean;
  baselineState?: BaselineState;
  /** Past its deadline or of unknown age; undefined without a history (unknown: overdue). */
  overdue?: boolean;
}

/** Whether a failed finding fails the gate: not waived, counted by fail-on (with `new`, not
 *  unchanged since the baseline; with `overdue`, overdue) and at or above the threshold. The one
 *  rule: the judgement here, and a roll-up checking a record's verdict (rollup-verdict.ts). */
export function failsGate(
  settings: Pick<GateSettings, 'threshold' | 'failOn'>,
  facts: GateFacts,
): boolean {
  const counted =
    settings.failOn === 'new'
      ? facts.baselineState !== 'unchanged'
      : settings.failOn === 'overdue'
        ? (facts.overdue ?? true)
        : true;
  return !facts.waived && counted && atOrAbove(facts.severity, settings.threshold);
}

export interface GateEvidence {
  baseline: BaselineRead;
  waivers: readonly Waiver[];
  /** The previous scans read, and each current failed finding's age by identity. */
  history?: HistoryRead;
  ages?: ReadonlyMap<string, FindingAge>;
  trend?: number[];
  evaluatedTrend?: Array<number | null>;
  /** Identities of the checks evaluated now, when every result was read: a check failed in the
   *  baseline is fixed only when it was evaluated (and passed) now. */
  evaluatedNow?: ReadonlySet<string>;
  coverage?: CoverageJudgement;
}

/** The baseline's failed checks that fail no more (and, when every result was read, were
 *  evaluated now: a check not evaluated is not fixed). */
function fixedSince(
  before: readonly FindingView[],
  failed: readonly FindingView[],
  evaluatedNow: ReadonlySet<string> | undefined,
): FindingView[] {
  const now = new Set(failed.map((f) => f.identity));
  return uniqueByIdentity(before).filter(
    (f) => !now.has(f.identity) && (evaluatedNow?.has(f.identity) ?? true),
  );
}

/** Judges the failed findings (worst first) against the gate settings and what was read. */
export function judgeFindings(
  failed: readonly FindingView[],
  settings: GateSettings,
  evidence: GateEvidence,
  nowMs: number,
  /** 'in-place': the findings are the caller's own (a job's fresh read) and get their marks
   *  themselves, instead of a marked copy each (250,000 findings are not held twice). */
  marking: 'copy' | 'in-place' = 'copy',
): GateOutcome {
  const { baseline, waivers, ages } = evidence;
  const inForce = waivers.filter((waiver) => waiverEndMs(waiver) > nowMs);
  const byCheck = new Map(inForce.map((waiver) => [waiver.check, waiver]));
  const before = new Set(baseline.kind === 'found' ? baseline.failed.map((f) => f.identity) : []);
  const matched = new Set<Waiver>();
  // Array sort is stable: ties keep the order of `failed` (worst first) without a wrapper each.
  const judged = failed.map((finding): JudgedFinding => {
    const waiver = byCheck.get(finding.identity);
    if (waiver) matched.add(waiver);
    const baselineState: BaselineState | undefined =
      baseline.kind !== 'found' ? undefined : before.has(finding.identity) ? 'unchanged' : 'new';
    const age = ages === undefined ? undefined : (ages.get(finding.identity) ?? UNKNOWN_AGE);
    const gating = failsGate(settings, {
      severity: finding.severity,
      waived: waiver !== undefined,
      baselineState,
      overdue: age?.overdue,
    });
    if (marking === 'copy') return { ...finding, baselineState, waiver, age, gating };
    // In place, only the marks it has: each added property costs the finding a slot.
    const judged = finding as JudgedFinding;
    judged.gating = gating;
    if (baselineState) judged.baselineState = baselineState;
    if (waiver) judged.waiver = waiver;
    if (age) judged.age = age;
    return judged;
  });
  const fixed =
    baseline.kind === 'found' ? fixedSince(baseline.failed, failed, evidence.evaluatedNow) : [];
  const findings = judged.sort(
    (a, b) =>
      stateRank(a) - stateRank(b) ||
      severityRank(a.severity) - severityRank(b.severity) ||
      sinceRank(a) - sinceRank(b),
  );
  const soon = nowMs + WAIVER_WARNING_DAYS * DAY_MS;
  return {
    settings,
    findings,
    fixed,
    baseline,
    expired: waivers.filter((waiver) => waiverEndMs(waiver) <= nowMs),
    stale: inForce.filter((waiver) => !matched.has(waiver)),
    history: evidence.history ?? { kind: 'none' },
    trend: evidence.trend ?? [],
    evaluatedTrend: evidence.evaluatedTrend ?? [],
    coverage: evidence.coverage ?? { kind: 'off' },
    counts: {
      failed: findings.length,
      gating: count(findings, (f) => f.gating),
      new: count(findings, (f) => !f.waiver && f.baselineState !== 'unchanged'),
      unchanged: count(findings, (f) => !f.waiver && f.baselineState === 'unchanged'),
      fixed: fixed.length,
      waived: count(findings, (f) => f.waiver !== undefined),
      dispositions: countDispositions(
        findings.flatMap((f) => (f.waiver ? [f.waiver.disposition] : [])),
      ),
      expiringSoon: count(findings, (f) => f.waiver !== undefined && waiverEndMs(f.waiver) <= soon),
      belowThreshold: count(findings, (f) => !atOrAbove(f.severity, settings.threshold)),
      unknownSeverity: count(findings, (f) => f.severity === 'unknown'),
      overdue: count(findings, (f) => !f.waiver && f.age?.overdue === true),
    },
  };
}

/** The age of a finding the history could not follow: unknown, so overdue (the strict side). */
const UNKNOWN_AGE: FindingAge = { failingScans: 1, beyondWindow: false, overdue: true };

function count<T>(items: readonly T[], test: (item: T) => boolean): number {
  return items.reduce((n, item) => n + (test(item) ? 1 : 0), 0);
}

function uniqueByIdentity(findings: readonly FindingView[]): FindingView[] {
  const seen = new Map<string, FindingView>();
  for (const finding of findings)
    if (!seen.has(finding.identity)) seen.set(finding.identity, finding);
  return [...seen.values()];
}

/** " at high or above", or "" for every severity: the gate's threshold in words. */
export function thresholdWords(threshold: GateSeverity): string {
  return threshold === 'info' ? '' : ` at ${threshold} or above`;
}

/** "new failed findings at high or above": the findings a gate counts, in words. */
function countedWords({ threshold, failOn }: GateSettings, n?: number): string {
  const fresh = failOn === 'any' ? '' : `${failOn} `;
  const level = thresholdWords(threshold);
  return `${fresh}failed finding${n === 1 ? '' : 's'}${level}`;
}

/** "3 new failed findings at high or above since scan X of 2026-11-20": what fails the gate. */
function gatingPhrase(outcome: GateOutcome, n: number): string {
  const { settings, baseline } = outcome;
  const since =
    settings.failOn === 'new' && baseline.kind === 'found' ? ` since ${baseline.source}` : '';
  return `${n === 0 ? 'no' : n} ${countedWords(settings, n)}${since}`;
}

/** What sets the verdict apart from "N failed findings", each a short phrase. */
function gateNotes(outcome: GateOutcome): string[] {
  const { counts, baseline, settings } = outcome;
  const notes: string[] = [];
  if (baseline.kind === 'found') {
    if (settings.failOn === 'any') notes.push(`${counts.new} new since ${baseline.source}`);
    else if (counts.unchanged > 0) notes.push(`${counts.unchanged} unchanged`);
    notes.push(`${counts.fixed} fixed`);
  }
  if (baseline.kind === 'missing')
    notes.push(`no baseline: ${baseline.why}, every failed finding counts as new`);
  if (settings.failOn !== 'overdue' && outcome.history.kind !== 'none' && counts.overdue > 0)
    notes.push(`${counts.overdue} overdue`);
  if (outcome.history.kind === 'unreadable')
    notes.push(`no history: ${outcome.history.why}, every age counts as unknown`);
  if (settings.threshold !== 'info' && counts.belowThreshold > 0)
    notes.push(`${counts.belowThreshold} below ${settings.threshold}`);
  if (counts.waived > 0) {
    const soon =
      counts.expiringSoon > 0
        ? `, ${counts.expiringSoon} expiring within ${WAIVER_WARNING_DAYS} days`
        : '';
    notes.push(`${counts.waived} waived (${dispositionCountWords(counts.dispositions)})${soon}`);
  }
  if (outcome.expired.length > 0) notes.push(plural(outcome.expired.length, 'expired waiver'));
  if (outcome.stale.length > 0) notes.push(plural(outcome.stale.length, 'stale waiver'));
  return notes;
}

/** The verdict's why, one line: "3 new failed findings at high or above since scan X of
 *  2026-11-20; 2 fixed; 5 waived, 1 expiring within 7 days". With the default gate and no waivers it
 *  is today's "3 failed findings" (or "no failed findings"). */
export function gateReason(outcome: GateOutcome): string {
  const coverage =
    outcome.coverage.kind === 'compared' && outcome.coverage.fails
      ? [coverageDropLine(outcome.coverage)]
      : [];
  return [...coverage, gatingPhrase(outcome, outcome.counts.gating), ...gateNotes(outcome)].join(
    '; ',
  );
}

/** Whether the gate fails: a failed finding fails it, or coverage dropped beyond the setting. */
export function gateFails(outcome: Pick<GateOutcome, 'counts' | 'coverage'>): boolean {
  return outcome.counts.gating > 0 || coverageFails(outcome.coverage);
}

/** The gate's settings in words, for a log line: "fail on new failed findings at high or above". */
export function describeGate(settings: GateSettings): string {
  return `fail on ${countedWords(settings)}`;
}

/** Whether the gate differs from "every failed finding fails": worth a line in the log. */
export function isDefaultGate(settings: GateSettings): boolean {
  return (
    settings.threshold === 'info' &&
    settings.failOn === 'any' &&
    settings.baseline.kind === 'none' &&
    settings.waiversFile === undefined &&
    (settings.history ?? 0) === 0
  );
}
