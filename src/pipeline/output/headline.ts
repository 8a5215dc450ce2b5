// The verdict in one line a reader acts on — the verdict and the one fact that decided it — and
// the counts beneath it, each labelled with what it counts, so the headline's number is the
// table's. Plain text: the faces render it (a Markdown heading, a check run's title, a PR comment).

import type { Severity } from '../../client/index.js';
import { severityRank } from '../common/findings.js';
import {
  DEFAULT_GATE,
  atOrAbove,
  thresholdWords,
  type GateOutcome,
  type JudgedFinding,
} from '../gate/judge.js';
import { plural } from '../common/text.js';
import { dispositionWords } from '../gate/dispositions.js';
import type { JobResult } from '../job/types.js';

/** What the headline reads of a gate's outcome. */
type Judged = Pick<GateOutcome, 'settings' | 'findings'> & Partial<Pick<GateOutcome, 'coverage'>>;

/** "new ", "overdue " or "": which failed findings the gate counts. */
function qualifier(gate: Judged): string {
  return gate.settings.failOn === 'any' ? '' : `${gate.settings.failOn} `;
}

function level(gate: Judged): string {
  return thresholdWords(gate.settings.threshold);
}

/** "1 new critical finding", "3 new findings at high or above, the worst critical". */
function gatingPhrase(gate: Judged, gating: readonly JudgedFinding[]): string {
  const severities = new Set<Severity>(gating.map((f) => f.severity));
  const worst = [...severities].sort((a, b) => severityRank(a) - severityRank(b))[0] ?? 'unknown';
  const words = qualifier(gate);
  if (severities.size === 1 && worst !== 'unknown') {
    return `${gating.length} ${words}${worst} finding${gating.length === 1 ? '' : 's'}`;
  }
  return `${gating.length} ${words}findings${level(gate)}, the worst ${worst === 'unknown' ? 'of unknown severity' : worst}`;
}

/** The verdict and why, in one line: "❌ Tenant scan failed: 1 new critical finding", "✅ Tenant
 *  scan passed: nothing new at medium or above (3 other failed findings)". */
export function headline(
  result: Pick<JobResult, 'verdict' | 'status' | 'scan' | 'gate' | 'findings' | 'failStep'>,
): string {
  if (result.verdict === undefined)
    return `⏳ Tenant scan triggered, not waited for (status ${result.status})`;
  if (result.scan.phase !== 'succeeded')
    return `❌ Tenant scan failed: the scan ended with status "${result.status}"`;
  // A completed scan always has its gate; a result made without one is judged by today's gate.
  const gate: Judged = result.gate ?? { settings: DEFAULT_GATE, findings: result.findings };
  const gating = gate.findings.filter((f) => f.gating);
  const coverage = gate.coverage;
  if (gating.length === 0 && coverage?.kind === 'compared' && coverage.fails) {
    const phrase = `${coverage.dropped.length} of the baseline's ${coverage.baselineEvaluated} evaluated checks not evaluated now`;
    return result.failStep
      ? `❌ Tenant scan failed: ${phrase}`
      : `⚠️ Tenant scan failed, the step passes: ${phrase}`;
  }
  if (gating.length === 0) {
    const others = gate.findings.length;
    if (others === 0) return '✅ Tenant scan passed: no failed findings';
    const counted = [qualifier(gate).trim(), level(gate).trim()].filter((w) => w !== '');
    const nothing = counted.length > 0 ? `nothing ${counted.join(' ')}` : 'nothing fails the gate';
    return `✅ Tenant scan passed: ${nothing} (${plural(others, 'other failed finding')})`;
  }
  const phrase = gatingPhrase(gate, gating);
  if (!result.failStep) return `⚠️ Tenant scan failed, the step passes: ${phrase}`;
  return `❌ Tenant scan failed: ${phrase}`;
}

export interface CountRow {
  /** What the number counts, e.g. "New, below medium". */
  label: string;
  count: number;
}

/**
 * The failed findings by what the gate made of them, each in exactly one row: those that fail the
 * gate, then those that do not and why (waived, below the threshold, unchanged since the baseline,
 * not overdue yet). These rows add up to the next, "Failed in all"; with a history, how many of
 * them are overdue follows. A fixed finding is not a failed one: the faces show it apart.
 */
export function countRows(gate: GateOutcome): CountRow[] {
  const { settings, findings } = gate;
  const buckets = new Map<string, number>();
  const add = (label: string) => buckets.set(label, (buckets.get(label) ?? 0) + 1);
  const failing = `Fail the gate (${gateWords(gate)})`;
  buckets.set(failing, 0);
  for (const finding of findings) {
    if (finding.gating) add(failing);
    else if (finding.waiver) add(`Waived: ${dispositionWords(finding.waiver.disposition)}`);
    else if (!atOrAbove(finding.severity, settings.threshold))
      add(`${stateWord(finding)}, below ${settings.threshold}`);
    else if (settings.failOn === 'new') add('Unchanged since the baseline');
    else add('Not overdue yet');
  }
  const rows = [...buckets].map(([label, count]) => ({ label, count }));
  rows.push({ label: 'Failed in all', count: gate.counts.failed });
  if (gate.history.kind !== 'none')
    rows.push({ label: 'Of these, overdue', count: gate.counts.overdue });
  return rows;
}

/** "new, at medium or above": what the gate counts, for its row's label. */
function gateWords(gate: GateOutcome): string {
  const parts = [gate.settings.failOn === 'any' ? 'any' : gate.settings.failOn];
  const level = thresholdWords(gate.settings.threshold).trim();
  if (level !== '') parts.push(level);
  return parts.join(', ');
}

function stateWord(finding: JudgedFinding): string {
  if (finding.baselineState === 'new') return 'New';
  if (finding.baselineState === 'unchanged') return 'Unchanged';
  return 'Failed';
}
