// Annotations: one per failed finding up to the `annotations` input, level by severity, then one
// line saying how many more there are. "Worst first": the findings that fail the gate come first,
// then the others (below the threshold, or known in the baseline with fail-on new); within each,
// critical first. Waived findings are not annotated.

import { displayLine } from '../client/index.js';
import type { FindingView, Severity } from '../client/index.js';
import { severityRank } from '../pipeline/common/findings.js';
import type { JudgedFinding } from '../pipeline/gate/judge.js';
import { cutChars } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

/** The runner cuts an annotation at 4,096 characters; keep within it. */
const MAX_MESSAGE_CHARS = 4000;

export function levelOf(severity: Severity): AnnotationLevel {
  if (severity === 'critical' || severity === 'high') return 'error';
  if (severity === 'medium') return 'warning';
  return 'notice';
}

export interface Annotation {
  level: AnnotationLevel;
  title: string;
  message: string;
}

function oneLine(text: string | undefined): string {
  return displayLine(text ?? '');
}

export function annotationOf(finding: FindingView): Annotation {
  const check = finding.identity !== finding.title ? ` (${finding.identity})` : '';
  const parts = [`${oneLine(finding.title)}${check === '' ? '' : ` ${oneLine(check)}`}`];
  if (finding.category) parts.push(`Category: ${oneLine(finding.category)}`);
  if (finding.remediation) parts.push(`Remediation: ${oneLine(finding.remediation)}`);
  if (finding.reference) parts.push(`Reference: ${oneLine(finding.reference)}`);
  return {
    level: levelOf(finding.severity),
    title: cutChars(`Tenant scan: ${finding.severity} finding`, 200),
    message: cutChars(parts.join(' — '), MAX_MESSAGE_CHARS),
  };
}

/** The failed findings to annotate, worst first (see the top of this file). */
export function annotationOrder(findings: readonly JudgedFinding[]): JudgedFinding[] {
  // The sort is stable: ties keep the gate's order without a wrapper for each finding.
  return findings
    .filter((finding) => !finding.waiver)
    .sort(
      (a, b) =>
        Number(b.gating) - Number(a.gating) || severityRank(a.severity) - severityRank(b.severity),
    );
}

/** The annotations to emit, and the closing line when some findings were not annotated. */
export function planAnnotations(
  findings: readonly FindingView[],
  limit: number,
): { annotations: Annotation[]; more?: string } {
  const annotations = findings.slice(0, Math.max(0, limit)).map(annotationOf);
  const rest = findings.length - annotations.length;
  if (rest <= 0) return { annotations };
  return {
    annotations,
    more: `…and ${plural(rest, 'more failed finding')} not annotated — see the job summary and the results file`,
  };
}
