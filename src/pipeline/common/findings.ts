// Failed findings, worst first: the order every face shows them in (summary, annotations, files).

import type { Finding, FindingView, Severity } from '../../client/index.js';

export const SEVERITY_ORDER: readonly Severity[] = [
  'critical',
  'high',
  'medium',
  'low',
  'info',
  'unknown',
];

export function severityRank(severity: Severity): number {
  const rank = SEVERITY_ORDER.indexOf(severity);
  return rank === -1 ? SEVERITY_ORDER.length : rank;
}

export interface ReadFinding {
  raw: Finding;
  view: FindingView;
}

/** Stable sort by severity, critical first; ties keep the server's order. */
export function worstFirst(findings: ReadFinding[]): ReadFinding[] {
  return findings
    .map((finding, index) => ({ finding, index }))
    .sort(
      (a, b) =>
        severityRank(a.finding.view.severity) - severityRank(b.finding.view.severity) ||
        a.index - b.index,
    )
    .map(({ finding }) => finding);
}

/** Counts per severity, in SEVERITY_ORDER, omitting zeros. */
export function countBySeverity(findings: readonly FindingView[]): Array<[Severity, number]> {
  const counts = new Map<Severity, number>();
  for (const finding of findings)
    counts.set(finding.severity, (counts.get(finding.severity) ?? 0) + 1);
  return SEVERITY_ORDER.filter((s) => counts.has(s)).map((s) => [s, counts.get(s) ?? 0]);
}
