// Failed findings, worst first: the order every face shows them in (summary, annotations, files).

import type { FindingView, Severity } from '../../client/index.js';

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

/** What is kept of a result once read: its view (text cut, client findings.ts). A result read
 *  strictly has a result word, which its view keeps, so `isFailedFinding(view)` says whether it
 *  failed. The result as sent is not kept (results-spool.ts writes the failed ones to the
 *  results file as they are read). */
export type ReadFinding = FindingView;

/** Sorted by severity, critical first; ties keep the server's order (the sort is stable). */
export function worstFirst(findings: readonly ReadFinding[]): ReadFinding[] {
  return findings.slice().sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

/** Counts per severity, in SEVERITY_ORDER, omitting zeros. */
export function countBySeverity(findings: readonly FindingView[]): Array<[Severity, number]> {
  const counts = new Map<Severity, number>();
  for (const finding of findings)
    counts.set(finding.severity, (counts.get(finding.severity) ?? 0) + 1);
  return SEVERITY_ORDER.filter((s) => counts.has(s)).map((s) => [s, counts.get(s) ?? 0]);
}
