// The job summary (and the check run's / PR comment's body): verdict first, counts, tenant and
// scan facts, failed findings grouped by severity, the report. Always under the size limit it is
// given: rows that do not fit are dropped with an "and N more" line; text is cut on characters.

import type { Severity } from '../client/index.js';
import { countBySeverity } from '../pipeline/common/findings.js';
import { describeDeadline, trendLine, type FindingAge } from '../pipeline/gate/deadlines.js';
import {
  describeGate,
  isDefaultGate,
  type GateOutcome,
  type JudgedFinding,
} from '../pipeline/gate/judge.js';
import { countRows, headline } from '../pipeline/output/headline.js';
import type { JobResult } from '../pipeline/job/types.js';
import type { JobErrorKind } from '../pipeline/common/errors.js';
import { cutBytes, markdownCode, markdownLink, markdownText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';
import type { WaiverReview } from './pr-waivers.js';
import { waiverReviewSection } from './waiver-review-section.js';
import { dispositionWords } from '../pipeline/gate/dispositions.js';

/** The runner drops a step summary over 1 MiB whole; stay clearly below. */
export const SUMMARY_MAX_BYTES = 1024 * 1024 - 16 * 1024;

export interface ReportLink {
  /** File name of the artifact (or of the report on disk). */
  name: string;
  url?: string;
  path?: string;
  /** Why the report is not an artifact, or not there at all. */
  note?: string;
}

/** A findings file of the run (the CSV, the OCSF file) and its artifact. */
export interface FileLink {
  kind: 'CSV' | 'OCSF';
  /** The artifact's name: the file's own. */
  name: string;
  path: string;
  url?: string;
  /** Why it is not an artifact. */
  note?: string;
}

export interface SummaryInput {
  result?: JobResult;
  /** The job stopped with this error (one line) instead of a result. */
  error?: string;
  /** What the error line starts with ("Trigger failed", "Connection failed"), and whether the user
   *  must fix something or the service or network failed (JobError's heading and kind). */
  errorHeading?: string;
  errorKind?: JobErrorKind;
  scanId?: string;
  apiOrigin?: string;
  report?: ReportLink;
  /** The run's report page (html-file): its artifact, or where it is. */
  page?: ReportLink;
  /** The CSV and OCSF files written, and their artifacts. */
  files?: FileLink[];
  /** On a pull request: the waivers it adds or extends (pr-waivers.ts). */
  waivers?: WaiverReview;
}

const SEVERITY_TITLE: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
  unknown: 'Unknown severity',
};

/** The first line: the verdict and the one fact that decided it (pipeline/headline.ts). */
export function summaryHeadline(input: SummaryInput): string {
  const result = input.result;
  if (input.error || !result) {
    return `❌ Tenant scan error: ${input.errorHeading ?? 'the run stopped'}`;
  }
  return headline(result);
}

/** Whose move it is, as the CodeQL action tells a user error from a failure. */
const NEXT_STEP: Partial<Record<JobErrorKind, string>> = {
  user: 'This needs a change on your side (a setting, the key, the plan): the line above says which. Re-running as is will fail the same way.',
  failure: 'The service or the network failed: re-running the job later may help.',
};

function heading(input: SummaryInput): string {
  const line = `## ${markdownText(summaryHeadline(input), 100)}`;
  if (!input.error && input.result) return line;
  const next = input.errorKind ? NEXT_STEP[input.errorKind] : undefined;
  const why = markdownText(input.error ?? 'no result', 2000);
  return next ? `${line}\n\n${why}\n\n${next}` : `${line}\n\n${why}`;
}

/** The failed findings by what the gate made of them (the headline's number first); fixed beneath. */
function countsTable(result: JobResult | undefined): string {
  const gate = result?.gate;
  if (!gate || result?.verdict === undefined) return '';
  const rows = countRows(gate).map(({ label, count }) => `| ${markdownText(label)} | ${count} |`);
  const table = ['| Failed findings | Count |', '|---|---|', ...rows].join('\n');
  return [table, fixedLine(gate)].join('\n\n').trim();
}

/** "**Fixed since the baseline (1):** `CIS-2.1.1`": failed in the baseline, not failed now. */
function fixedLine(gate: GateOutcome): string {
  const fixed = gate.fixed.map((f) => ({ check: f.identity }));
  if (gate.baseline.kind !== 'found') return '';
  if (fixed.length === 0) return '**Fixed since the baseline:** none';
  return `**Fixed since the baseline (${fixed.length}):** ${checkList(fixed)}`;
}

/** Up to 20 checks as code, then how many more. */
function checkList(list: ReadonlyArray<{ check: string }>): string {
  const shown = list.slice(0, 20).map((w) => markdownCode(w.check, 80, false));
  return shown.join(', ') + (list.length > 20 ? ` and ${list.length - 20} more` : '');
}

/** The checks by what became of them: passed, failed, and each kind not evaluated. */
function checksTable(result: JobResult | undefined): string {
  const counts = result?.results;
  if (!counts) return '';
  const from = counts.source === 'scan counts' ? " (the scan's own counts)" : '';
  const rows = [
    `| Passed | ${counts.passed} |`,
    `| Failed | ${counts.failed} |`,
    ...counts.kinds.map((k) => `| Not evaluated: ${markdownText(k.kind, 40)} | ${k.count} |`),
    `| Not evaluated in all | ${counts.notEvaluated} |`,
    `| Checks in all | ${counts.total} |`,
  ];
  return [`| Checks${from} | Count |`, '|---|---|', ...rows].join('\n');
}

function coverageRow(gate: GateOutcome): Array<[string, string]> {
  const coverage = gate.coverage;
  // Without a baseline asked for, "not compared" is the log's line, not the summary's.
  if (coverage.kind === 'off' || gate.settings.baseline.kind === 'none') return [];
  if (coverage.kind === 'none')
    return [['Coverage', markdownText(`not compared: ${coverage.why}`, 300)]];
  const drop = coverage.dropped.length;
  const words = `${coverage.evaluatedNow} checks evaluated now, ${coverage.baselineEvaluated} in ${coverage.source}; ${drop} not evaluated now (${coverage.dropPercent.toFixed(1)} %, at most ${coverage.maxDrop} %)${coverage.fails ? ' — fails the gate' : ''}`;
  return [['Coverage', markdownText(words, 400)]];
}

function facts(input: SummaryInput): string {
  const result = input.result;
  const scanId = result?.scanId ?? input.scanId;
  const rows: Array<[string, string]> = [];
  if (result?.tenantName) rows.push(['Tenant', markdownText(result.tenantName, 200)]);
  if (scanId) rows.push(['Scan', markdownCode(scanId)]);
  if (result?.scan.scanType) rows.push(['Scan type', markdownText(result.scan.scanType, 64)]);
  if (result) rows.push(['Status', markdownText(result.status, 64)]);
  if (result?.scan.completedAt) rows.push(['Completed', markdownText(result.scan.completedAt, 64)]);
  if (result?.total !== undefined) rows.push(['Checks', String(result.total)]);
  if (result?.gate) {
    for (const row of coverageRow(result.gate)) rows.push(row);
    for (const row of gateRows(result.gate)) rows.push(row);
  }
  if (input.apiOrigin) rows.push(['Service', markdownText(input.apiOrigin, 200)]);
  if (rows.length === 0) return '';
  return [
    '| Scan detail | Value |',
    '|---|---|',
    ...rows.map(([name, value]) => `| ${name} | ${value} |`),
  ].join('\n');
}

function gateRows(gate: GateOutcome): Array<[string, string]> {
  if (isDefaultGate(gate.settings)) return [];
  const rows: Array<[string, string]> = [['Gate', markdownText(describeGate(gate.settings), 200)]];
  if (gate.baseline.kind === 'found')
    rows.push(['Baseline', markdownText(gate.baseline.source, 200)]);
  else if (gate.baseline.kind === 'missing')
    rows.push(['Baseline', markdownText(`none: ${gate.baseline.why}`, 300)]);
  if (gate.history.kind === 'unreadable')
    rows.push(['History', markdownText(`not read whole: ${gate.history.why}`, 300)]);
  if (gate.trend.length > 0)
    rows.push(['Trend (failed, oldest first)', markdownText(trendLine(gate.trend), 400)]);
  if (gate.evaluatedTrend.length > 0) {
    const evaluated = gate.evaluatedTrend.map((n) => (n === null ? '?' : String(n))).join(' → ');
    rows.push(['Evaluated checks per scan', markdownText(evaluated, 400)]);
  }
  return rows;
}

/** Expired and stale waivers, and checks no longer evaluated: each one line under the counts. */
function gateLines(result: JobResult | undefined): string {
  const gate = result?.gate;
  if (!gate) return '';
  const lines: string[] = [];
  if (gate.expired.length > 0)
    lines.push(`**Expired waivers (no longer waive):** ${checkList(gate.expired)}`);
  if (gate.stale.length > 0)
    lines.push(`**Stale waivers (matched nothing):** ${checkList(gate.stale)}`);
  if (gate.coverage.kind === 'compared' && gate.coverage.dropped.length > 0) {
    const dropped = gate.coverage.dropped.map((check) => ({ check }));
    lines.push(`**Evaluated in the baseline, not evaluated now:** ${checkList(dropped)}`);
  }
  return lines.join('\n\n');
}

/** Waivers shown in the summary at most; the rest are counted. */
function severityLine(findings: readonly JudgedFinding[]): string {
  if (findings.length === 0) return '';
  const parts = countBySeverity(findings).map(([severity, count]) => `${count} ${severity}`);
  return `**Failed findings:** ${parts.join(' · ')}`;
}

function reportSection(report: ReportLink | undefined, label = 'Report'): string {
  if (!report) return '';
  if (report.url) return `**${label}:** ${markdownLink(report.name || 'report', report.url)}`;
  const where = report.path ? ` at ${markdownCode(report.path, 300, false)}` : '';
  const note = report.note ? ` — ${markdownText(report.note, 500)}` : '';
  return `**${label}:** ${markdownText(report.name, 200)}${where}${note}`;
}

/** "**Files:** [findings.csv](…) (CSV) · `out/findings.ocsf.jsonl` (OCSF) — why not uploaded". */
function filesSection(files: readonly FileLink[] | undefined): string {
  if (!files || files.length === 0) return '';
  const parts = files.map((file) => {
    const kind = ` (${file.kind})`;
    if (file.url) return `${markdownLink(file.name, file.url)}${kind}`;
    const note = file.note ? ` — ${markdownText(file.note, 300)}` : '';
    return `${markdownCode(file.path, 300, false)}${kind}${note}`;
  });
  return `**Files:** ${parts.join(' · ')}`;
}

function findingRow(finding: JudgedFinding): string {
  const check =
    finding.identity !== finding.title ? ` (${markdownCode(finding.identity, 80)})` : '';
  const waiver = finding.waiver
    ? `_Waived (${dispositionWords(finding.waiver.disposition)}) until ${markdownText(finding.waiver.expires, 10)}: ${markdownText(withStop(finding.waiver.reason), 200)}_`
    : '';
  const age = finding.age ? `_${markdownText(withStop(ageText(finding.age)), 120)}_` : '';
  const remediation = [
    age,
    waiver,
    markdownText(finding.remediation, 400),
    markdownLink('reference', finding.reference),
  ]
    .filter((x) => x !== '')
    .join(' ');
  return `| ${markdownText(finding.title, 200)}${check} | ${markdownText(finding.category, 80)} | ${remediation} |`;
}

/** The waiver's reason and the age run into the remediation in one cell: each ends a sentence. */
function withStop(text: string): string {
  const trimmed = text.trimEnd();
  return trimmed === '' || /[.!?…:;]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** "overdue by 3 days, failing since 2026-11-02 (5 scans)". */
function ageText(age: FindingAge): string {
  const scans = age.failingScans > 1 ? ` (${age.failingScans} scans)` : '';
  const since = age.failingSince ? `, failing since ${age.failingSince.slice(0, 10)}${scans}` : '';
  return `${describeDeadline(age)}${since}`;
}

/** The group a finding is listed in: its gate state (when there is one to tell) and severity. */
function groupOf(finding: JudgedFinding): string {
  const state = finding.waiver
    ? 'Waived · '
    : finding.age?.overdue
      ? 'Overdue · '
      : finding.baselineState === 'new'
        ? 'New · '
        : finding.baselineState === 'unchanged'
          ? 'Unchanged · '
          : '';
  return `${state}${SEVERITY_TITLE[finding.severity]}`;
}

function groupHeading(group: string, count: number): string {
  return `### ${group} (${count})\n\n| Finding | Category | Remediation |\n|---|---|---|`;
}

function moreLine(count: number, resultsFile: string | undefined, hasArtifact: boolean): string {
  const where = [
    resultsFile ? `the results file ${markdownCode(resultsFile, 300, false)}` : 'the results file',
    hasArtifact ? 'the report artifact' : '',
  ]
    .filter((x) => x !== '')
    .join(' / ');
  return `\n_…and ${plural(count, 'more failed finding')} — see ${where}._`;
}

/** Lines of the findings tables that fit in `budget` bytes, grouped by severity (worst first). */
function findingTables(input: SummaryInput, budget: number): string {
  const findings = input.result?.findings ?? [];
  if (findings.length === 0) return '';
  const counts = new Map<string, number>();
  for (const finding of findings)
    counts.set(groupOf(finding), (counts.get(groupOf(finding)) ?? 0) + 1);
  const hasArtifact = Boolean(input.report?.url);
  const resultsFile = input.result?.resultsPath;
  const reserve = Buffer.byteLength(moreLine(findings.length, resultsFile, hasArtifact)) + 2;
  const lines: string[] = [];
  let used = 0;
  let shown = 0;
  let group: string | undefined;
  for (const finding of findings) {
    const heading =
      groupOf(finding) !== group
        ? groupHeading(groupOf(finding), counts.get(groupOf(finding)) ?? 0)
        : '';
    const row = findingRow(finding);
    const size = Buffer.byteLength(heading) + Buffer.byteLength(row) + 2;
    if (used + size + reserve > budget) break;
    if (heading) lines.push(lines.length > 0 ? `\n${heading}` : heading);
    lines.push(row);
    used += size;
    shown += 1;
    group = groupOf(finding);
  }
  if (shown < findings.length)
    lines.push(moreLine(findings.length - shown, resultsFile, hasArtifact));
  return lines.join('\n');
}

/** The whole summary in Markdown, at most `maxBytes` UTF-8 bytes. */
export function buildSummary(input: SummaryInput, maxBytes = SUMMARY_MAX_BYTES): string {
  const head = [
    heading(input),
    waiverReviewSection(input.waivers, input.result?.gate),
    countsTable(input.result),
    checksTable(input.result),
    facts(input),
    severityLine(input.result?.findings ?? []),
    gateLines(input.result),
  ]
    .filter((x) => x !== '')
    .join('\n\n');
  const tail = [
    reportSection(input.page, 'Report page (HTML)'),
    reportSection(input.report),
    filesSection(input.files),
  ]
    .filter((x) => x !== '')
    .join('\n\n');
  const fixed = Buffer.byteLength(head) + Buffer.byteLength(tail) + 8;
  const tables = findingTables(input, Math.max(0, maxBytes - fixed));
  const body = [head, tables, tail].filter((x) => x !== '').join('\n\n') + '\n';
  return cutBytes(body, maxBytes);
}
