// The page of one run: the summary's headline, counts and facts, the history's trend, and every
// failed finding with its marks. From the job's result (scan run, the Action), from a judged
// scan (scan results), or from an error that ended the run (no verdict: what was known, no
// findings).

import { CLIENT_VERSION, type Scan } from '../../client/index.js';
import type { RunFacts } from '../../pipeline/common/errors.js';
import { severityRank } from '../../pipeline/common/findings.js';
import type { ResultCounts } from '../../pipeline/common/result-kinds.js';
import { MAX_DROPPED_SHOWN } from '../../pipeline/gate/coverage.js';
import { describeGate, isDefaultGate, type GateOutcome } from '../../pipeline/gate/judge.js';
import type { JudgedFinding } from '../../pipeline/gate/judge.js';
import { countRows, headline } from '../../pipeline/output/headline.js';
import type { JobResult } from '../../pipeline/job/types.js';
import { judgedRow } from './finding-rows.js';
import {
  PAGE_DATA_VERSION,
  type CoverageData,
  type PageData,
  type PageVerdict,
  type TenantData,
} from './page-data.js';
import { MAX_CHARS, PageStrings } from './strings.js';

export interface RunPageInput {
  /** The verdict and why, in one line. */
  headline: string;
  verdict: PageVerdict;
  tenantName?: string;
  /** The tenant's name in roll-ups, when the run was given one. */
  label?: string;
  scan?: Scan;
  gate?: GateOutcome;
  /** Failed findings as the gate judged them, in its order. */
  findings: readonly JudgedFinding[];
  /** Checks in the scan, when known. */
  total?: number;
  /** The checks by what became of them (the pipeline's one decision: result-kinds.ts). */
  results?: ResultCounts;
  /** The one line of the error that ended the run. */
  error?: string;
  /** When the run started and stopped (ISO 8601), when the page tells it. */
  ran?: { startedAt: string; stoppedAt: string };
}

export interface PageOptions {
  /** Redacted from every text of the page (the run's API key and other secrets). */
  secrets?: readonly string[];
  /** The page's time; default now. */
  generatedAt?: string;
}

/** The page input of a job's result. */
export function runInputOf(result: JobResult, label?: string): RunPageInput {
  return {
    headline: headline(result),
    verdict: result.verdict ?? 'pending',
    tenantName: result.tenantName,
    label,
    scan: result.scan,
    gate: result.gate,
    findings: result.findings,
    total: result.total,
    results: result.results,
  };
}

/** The headline of a run that ended in an error (a fleet's tenant says the same of its record). */
export const NO_VERDICT_ERROR = '⚠️ No verdict: the run ended in an error';

/** The page input of a run that ended in an error: its one line (as the log gives it) and what
 *  was known; no findings, for no list of them is whole. */
export function errorInputOf(line: string, known: RunFacts, label?: string): RunPageInput {
  return {
    headline: NO_VERDICT_ERROR,
    verdict: 'error',
    tenantName: known.tenantName,
    label,
    scan: known.scan,
    findings: [],
    error: line,
    ran: { startedAt: known.startedAt, stoppedAt: known.stoppedAt },
  };
}

/** "0 s", "42 s", "30 min 15 s": to the second, as the times beside it. */
function elapsedWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  const minutes = Math.floor(seconds / 60);
  return minutes === 0 ? `${seconds} s` : `${minutes} min ${seconds % 60} s`;
}

/** "Run started", "Run stopped", "Ran for", when the page tells them. */
function ranFacts(ran: RunPageInput['ran']): Array<[string, string | undefined]> {
  if (!ran) return [];
  const ms = Date.parse(ran.stoppedAt) - Date.parse(ran.startedAt);
  return [
    ['Run started', ran.startedAt],
    ['Run stopped', ran.stoppedAt],
    ['Ran for', Number.isFinite(ms) ? elapsedWords(ms) : undefined],
  ];
}

/** The counts of checks by result, from a run or a record (the kinds' names are cleaned). */
export type KindCounts = Pick<
  ResultCounts,
  'source' | 'total' | 'passed' | 'failed' | 'notEvaluated'
> & { kinds: ReadonlyArray<{ kind: string; count: number }> };

/** Checks by result, as the job summary's checks table counts them: passed, failed, each kind not
 *  evaluated by name, then the sums. */
export function resultKinds(
  counts: KindCounts | null | undefined,
  strings: PageStrings,
): Array<[string, number]> | null {
  if (!counts) return null;
  const from = counts.source === 'scan counts' ? " (the scan's own counts)" : '';
  return [
    ['Passed', counts.passed],
    ['Failed', counts.failed],
    ...counts.kinds.map(({ kind, count }): [string, number] => [
      `Not evaluated: ${strings.text(kind, MAX_CHARS.category)}`,
      count,
    ]),
    ['Not evaluated in all', counts.notEvaluated],
    [`Checks in all${from}`, counts.total],
  ];
}

/** Checks evaluated per scan when they align with the trend and any is known; else none. */
export function alignedEvaluated(
  evaluated: ReadonlyArray<number | null>,
  length: number,
): Array<number | null> {
  if (evaluated.length !== length || evaluated.every((count) => count === null)) return [];
  return [...evaluated];
}

/** The coverage a run's gate compared (null: none compared). */
function coverageOf(gate: GateOutcome | undefined, strings: PageStrings): CoverageData | null {
  const coverage = gate?.coverage;
  if (coverage?.kind !== 'compared') return null;
  return {
    evaluated: coverage.evaluatedNow,
    baseline: coverage.baselineEvaluated,
    dropped: coverage.dropped.length,
    fails: coverage.fails,
    maxDrop: coverage.maxDrop,
    source: strings.line(coverage.source, MAX_CHARS.line),
    checks: droppedChecks(coverage.dropped, strings),
  };
}

/** The first checks not evaluated now, as string indexes (the page counts the rest). */
export function droppedChecks(checks: readonly string[], strings: PageStrings): number[] {
  const shown: number[] = [];
  for (const check of checks.slice(0, MAX_DROPPED_SHOWN)) {
    const index = strings.line(check, MAX_CHARS.id);
    if (index >= 0) shown.push(index);
  }
  return shown;
}

function factsOf(input: RunPageInput, strings: PageStrings): Array<[string, string]> {
  const { scan, gate } = input;
  const facts: Array<[string, string | undefined]> = [
    ['Tenant', input.tenantName],
    ['Label', input.label],
    ['Scan', scan?.id],
    ['Scan type', scan?.scanType],
    ['Status', scan?.status],
    ['Progress', scan?.progress === undefined || scan.terminal ? undefined : `${scan.progress} %`],
    ['Created', scan?.createdAt],
    ['Started', scan?.startedAt],
    ['Completed', scan?.completedAt],
    ['Checks', input.total === undefined ? undefined : String(input.total)],
    ...ranFacts(input.ran),
  ];
  if (gate && !isDefaultGate(gate.settings)) {
    facts.push(['Gate', describeGate(gate.settings)]);
    if (gate.baseline.kind === 'found') facts.push(['Baseline', gate.baseline.source]);
    else if (gate.baseline.kind === 'missing')
      facts.push(['Baseline', `none: ${gate.baseline.why}`]);
    if (gate.history.kind === 'unreadable')
      facts.push(['History', `not read whole: ${gate.history.why}`]);
  }
  return facts
    .filter((fact): fact is [string, string] => fact[1] !== undefined && fact[1] !== '')
    .map(([label, value]) => [label, strings.text(value)]);
}

/** Failed per scan, oldest first, with each scan's time when the history says. */
function trendOf(input: RunPageInput, strings: PageStrings): Array<[number, number]> {
  const gate = input.gate;
  if (!gate || gate.trend.length === 0) return [];
  const times =
    gate.history.kind === 'read'
      ? [...gate.history.scans.map((scan) => scan.at).reverse(), input.scan?.completedAt]
      : [];
  const aligned = times.length === gate.trend.length;
  return gate.trend.map((count, index) => [
    aligned ? strings.line(times[index], MAX_CHARS.date) : -1,
    count,
  ]);
}

function notesOf(gate: GateOutcome | undefined, strings: PageStrings): string[] {
  if (!gate) return [];
  const checks = (list: ReadonlyArray<{ check: string }>) =>
    list.map((waiver) => waiver.check).join(', ');
  const notes: string[] = [];
  if (gate.expired.length > 0)
    notes.push(`Expired waivers (no longer waive): ${checks(gate.expired)}`);
  if (gate.stale.length > 0) notes.push(`Stale waivers (matched nothing): ${checks(gate.stale)}`);
  const cleaned = notes.map((note) => strings.text(note, MAX_CHARS.body));
  if (gate.coverage.kind === 'none' && gate.settings.baseline.kind !== 'none')
    cleaned.push(notComparedNote(gate.coverage.why, strings));
  return cleaned;
}

/** The note of a baseline whose coverage could not be compared: a run's, a fleet tenant's. */
export function notComparedNote(why: string, strings: PageStrings): string {
  return strings.text(`Coverage not compared: ${why}`, MAX_CHARS.body);
}

function worstOf(findings: readonly JudgedFinding[]): number {
  let worst = -1;
  for (const finding of findings) {
    const rank = severityRank(finding.severity);
    if (worst === -1 || rank < worst) worst = rank;
  }
  return worst;
}

/** The run as a page's one tenant. */
export function runTenant(input: RunPageInput, strings: PageStrings): TenantData {
  const { gate } = input;
  const name = input.label ?? input.tenantName ?? 'Tenant';
  const service = input.tenantName && input.tenantName !== name ? input.tenantName : null;
  return {
    name: strings.text(name, MAX_CHARS.id) || 'Tenant',
    serviceName: service === null ? null : strings.text(service, MAX_CHARS.id),
    verdict: input.verdict,
    headline: strings.text(input.headline),
    problem: input.error === undefined ? null : strings.text(input.error),
    headlineSaysProblem: false, // a run's headline is the verdict's words, its error a line apart
    facts: factsOf(input, strings),
    counts:
      gate && input.verdict !== 'pending'
        ? countRows(gate).map((row) => [strings.text(row.label), row.count])
        : [],
    kinds: resultKinds(input.results, strings),
    coverage: coverageOf(gate, strings),
    figures: {
      failed: gate ? gate.counts.failed : null,
      gating: gate ? gate.counts.gating : null,
      new: gate && gate.baseline.kind !== 'none' ? gate.counts.new : null,
      fixed: gate && gate.baseline.kind === 'found' ? gate.counts.fixed : null,
      overdue: gate && gate.history.kind !== 'none' ? gate.counts.overdue : null,
      worst: worstOf(input.findings),
    },
    trend: trendOf(input, strings),
    evaluatedTrend: gate ? alignedEvaluated(gate.evaluatedTrend, gate.trend.length) : [],
    notes: notesOf(gate, strings),
    fixed: (gate?.fixed ?? []).map((finding) => [
      strings.line(finding.identity, MAX_CHARS.id),
      strings.line(finding.title, MAX_CHARS.title),
    ]),
    findings: input.findings.map((finding) => judgedRow(strings, finding)),
  };
}

/** The page data of one run. */
export function runPageData(input: RunPageInput, options: PageOptions = {}): PageData {
  const strings = new PageStrings(options.secrets);
  const tenant = runTenant(input, strings);
  return {
    version: PAGE_DATA_VERSION,
    kind: 'run',
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    tool: `tenant-scan ${CLIENT_VERSION}`,
    verdict: tenant.verdict,
    headline: tenant.headline,
    strings: strings.list,
    tenants: [tenant],
    fleet: null,
  };
}
