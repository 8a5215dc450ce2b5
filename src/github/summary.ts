// The job summary (and the check run's / PR comment's body): verdict first, counts, tenant and
// scan facts, failed findings grouped by severity, the report. Always under the size limit it is
// given: rows that do not fit are dropped with an "and N more" line; text is cut on characters.

import type { FindingView, Severity } from '../client/types.js';
import { countBySeverity } from '../pipeline/findings.js';
import type { JobResult } from '../pipeline/types.js';
import { cell, cutBytes, link, plural } from './markdown.js';

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

export interface SummaryInput {
  result?: JobResult;
  /** The job stopped with this error (one line) instead of a result. */
  error?: string;
  scanId?: string;
  failOnFindings: boolean;
  apiOrigin?: string;
  report?: ReportLink;
}

const SEVERITY_TITLE: Record<Severity, string> = {
  critical: 'Critical',
  high: 'High',
  medium: 'Medium',
  low: 'Low',
  info: 'Info',
  unknown: 'Unknown severity',
};

function headline(input: SummaryInput): string {
  const result = input.result;
  if (input.error || !result)
    return `## ❌ Tenant scan: error\n\n${cell(input.error ?? 'no result', 2000)}`;
  if (result.verdict === undefined) {
    return `## ⏳ Tenant scan: triggered, not waited for (status ${cell(result.status, 60)})`;
  }
  if (result.verdict === 'passed') return '## ✅ Tenant scan: passed — no failed findings';
  const reason = cell(result.failureReason ?? 'failed', 300);
  if (!result.failStep) return `## ⚠️ Tenant scan: ${reason} (fail-on-findings is false)`;
  return `## ❌ Tenant scan: failed — ${reason}`;
}

function facts(input: SummaryInput): string {
  const result = input.result;
  const scanId = result?.scanId ?? input.scanId;
  const rows: Array<[string, string]> = [];
  if (result?.tenantName) rows.push(['Tenant', cell(result.tenantName, 200)]);
  if (scanId) rows.push(['Scan', `\`${cell(scanId, 128).replace(/\\/g, '')}\``]);
  if (result?.scan.scanType) rows.push(['Scan type', cell(result.scan.scanType, 64)]);
  if (result) rows.push(['Status', cell(result.status, 64)]);
  if (result?.total !== undefined) rows.push(['Checks', String(result.total)]);
  if (result && result.verdict !== undefined && result.scan.phase === 'succeeded') {
    rows.push(['Failed', String(result.failed)]);
  }
  if (result?.scan.completedAt) rows.push(['Completed', cell(result.scan.completedAt, 64)]);
  if (input.apiOrigin) rows.push(['Service', cell(input.apiOrigin, 200)]);
  if (rows.length === 0) return '';
  return ['| | |', '|---|---|', ...rows.map(([name, value]) => `| ${name} | ${value} |`)].join(
    '\n',
  );
}

function severityLine(findings: readonly FindingView[]): string {
  if (findings.length === 0) return '';
  const parts = countBySeverity(findings).map(([severity, count]) => `${count} ${severity}`);
  return `**Failed findings:** ${parts.join(' · ')}`;
}

function reportSection(report: ReportLink | undefined): string {
  if (!report) return '';
  if (report.url) return `**Report:** ${link(cell(report.name, 200) || 'report', report.url)}`;
  const where = report.path ? ` at \`${cell(report.path, 300).replace(/\\/g, '')}\`` : '';
  const note = report.note ? ` — ${cell(report.note, 500)}` : '';
  return `**Report:** ${cell(report.name, 200)}${where}${note}`;
}

function findingRow(finding: FindingView): string {
  const check =
    finding.checkId && finding.checkId !== finding.title ? ` (${cell(finding.checkId, 80)})` : '';
  const remediation = [cell(finding.remediation, 400), link('reference', finding.reference)]
    .filter((x) => x !== '')
    .join(' ');
  return `| ${cell(finding.title, 200)}${check} | ${cell(finding.category, 80)} | ${remediation} |`;
}

function groupHeading(severity: Severity, count: number): string {
  return `### ${SEVERITY_TITLE[severity]} (${count})\n\n| Finding | Category | Remediation |\n|---|---|---|`;
}

function moreLine(count: number, resultsFile: string | undefined, hasArtifact: boolean): string {
  const where = [
    resultsFile ? `the results file \`${resultsFile}\`` : 'the results file',
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
  const counts = new Map(countBySeverity(findings));
  const hasArtifact = Boolean(input.report?.url);
  const resultsFile = input.result?.resultsPath;
  const reserve = Buffer.byteLength(moreLine(findings.length, resultsFile, hasArtifact)) + 2;
  const lines: string[] = [];
  let used = 0;
  let shown = 0;
  let group: Severity | undefined;
  for (const finding of findings) {
    const heading =
      finding.severity !== group
        ? groupHeading(finding.severity, counts.get(finding.severity) ?? 0)
        : '';
    const row = findingRow(finding);
    const size = Buffer.byteLength(heading) + Buffer.byteLength(row) + 2;
    if (used + size + reserve > budget) break;
    if (heading) lines.push(lines.length > 0 ? `\n${heading}` : heading);
    lines.push(row);
    used += size;
    shown += 1;
    group = finding.severity;
  }
  if (shown < findings.length)
    lines.push(moreLine(findings.length - shown, resultsFile, hasArtifact));
  return lines.join('\n');
}

/** The whole summary in Markdown, at most `maxBytes` UTF-8 bytes. */
export function buildSummary(input: SummaryInput, maxBytes = SUMMARY_MAX_BYTES): string {
  const head = [headline(input), facts(input), severityLine(input.result?.findings ?? [])]
    .filter((x) => x !== '')
    .join('\n\n');
  const tail = reportSection(input.report);
  const fixed = Buffer.byteLength(head) + Buffer.byteLength(tail) + 8;
  const tables = findingTables(input, Math.max(0, maxBytes - fixed));
  const body = [head, tables, tail].filter((x) => x !== '').join('\n\n') + '\n';
  return cutBytes(body, maxBytes);
}
