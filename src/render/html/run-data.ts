// The page of one run: the summary's headline, counts and facts, the history's trend, and every
// failed finding with its marks. From the job's result (scan run, the Action), from a judged
// scan (scan results), or from an error that ended the run.

import { CLIENT_VERSION, type Scan } from '../../client/index.js';
import { severityRank } from '../../pipeline/common/findings.js';
import { describeGate, isDefaultGate, type GateOutcome } from '../../pipeline/gate/judge.js';
import type { JudgedFinding } from '../../pipeline/gate/judge.js';
import { countRows, headline } from '../../pipeline/output/headline.js';
import type { JobResult } from '../../pipeline/job/types.js';
import { judgedRow } from './finding-rows.js';
import {
  PAGE_DATA_VERSION,
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
  /** The one line of the error that ended the run. */
  error?: string;
  /** The service's origin. */
  service?: string;
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
  };
}

/** Checks by result kind, from the scan's own counts. Issue 47's result kinds replace this source
 *  when the pipeline counts every kind itself. */
export function resultKinds(
  summary: { passed?: number; failed?: number; skipped?: number } | null | undefined,
): Array<[string, number]> | null {
  if (!summary) return null;
  const kinds: Array<[string, number | undefined]> = [
    ['Passed', summary.passed],
    ['Failed', summary.failed],
    ['Not evaluated (skipped)', summary.skipped],
  ];
  const known = kinds.filter((kind): kind is [string, number] => kind[1] !== undefined);
  return known.length > 0 ? known : null;
}

function factsOf(input: RunPageInput, strings: PageStrings): Array<[string, string]> {
  const { scan, gate } = input;
  const facts: Array<[string, string | undefined]> = [
    ['Tenant', input.tenantName],
    ['Label', input.label],
    ['Scan', scan?.id],
    ['Scan type', scan?.scanType],
    ['Status', scan?.status],
    ['Created', scan?.createdAt],
    ['Completed', scan?.completedAt],
    ['Checks', input.total === undefined ? undefined : String(input.total)],
    ['Service', input.service],
    ['Error', input.error],
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
  return notes.map((note) => strings.text(note, MAX_CHARS.body));
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
    facts: factsOf(input, strings),
    counts:
      gate && input.verdict !== 'pending'
        ? countRows(gate).map((row) => [strings.text(row.label), row.count])
        : [],
    kinds: resultKinds(input.scan?.summary),
    coverage: null,
    figures: {
      failed: gate ? gate.counts.failed : null,
      gating: gate ? gate.counts.gating : null,
      new: gate && gate.baseline.kind !== 'none' ? gate.counts.new : null,
      fixed: gate && gate.baseline.kind === 'found' ? gate.counts.fixed : null,
      overdue: gate && gate.history.kind !== 'none' ? gate.counts.overdue : null,
      worst: worstOf(input.findings),
    },
    trend: trendOf(input, strings),
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
