// A run's notification as a chat message, before any chat format: a title, the facts, what
// changed (new and fixed first, worst first in each) and our own links. Every word the service
// sent (and the headline, which quotes its status word) goes through chatText: a plain-text
// element of Teams or Slack then shows it as text, with no mention or live link. A message that
// does not fit its format's limits keeps its first lines and says how many more there are.

import type { FindingView, Severity } from '../client/index.js';
import { chatText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';
import { severityRank } from '../pipeline/common/findings.js';
import type { JudgedFinding, Waiver } from '../pipeline/gate/judge.js';
import { headline } from '../pipeline/output/headline.js';
import type { NotifyMessage } from '../pipeline/notify/notify.js';
import type { TenantRow } from '../pipeline/rollup/rollup.js';
import { kindWords, type ResultCounts } from '../pipeline/common/result-kinds.js';
import { rollupHeadline } from './rollup-markdown.js';

/** Microsoft's cap on a Teams message is 28 KB; this leaves room for what Teams adds. */
export const CHAT_MAX_BYTES = 27_000;

export interface ChatLine {
  severity?: Severity;
  /** Plain text (chatText). */
  text: string;
}

export interface ChatSection {
  title: string;
  lines: ChatLine[];
}

export interface ChatMessage {
  /** Plain text (chatText). */
  title: string;
  failed: boolean;
  /** Plain text: why it speaks, then the verdict's reason. */
  summary: string[];
  facts: Array<{ title: string; value: string }>;
  sections: ChatSection[];
  /** "…and 9,990 more lines — the run's summary has them all", once cut. */
  more?: string;
  /** Ours only: http(s) addresses. */
  links: Array<{ label: string; url: string }>;
}

function findingLine(finding: FindingView): ChatLine {
  return {
    severity: finding.severity,
    text: `${finding.severity.toUpperCase()} · ${chatText(finding.identity, 128)} — ${chatText(finding.title, 200)}`,
  };
}

function waiverLine(waiver: Waiver): ChatLine {
  const owner = waiver.owner ? `, owner ${chatText(waiver.owner, 60)}` : '';
  return { text: `${chatText(waiver.check, 128)} — waiver ended ${waiver.expires}${owner}` };
}

function worstFirst<T extends FindingView>(findings: readonly T[]): T[] {
  return [...findings].sort((a, b) => severityRank(a.severity) - severityRank(b.severity));
}

function sectionsOf(message: NotifyMessage): ChatSection[] {
  const { changes, result } = message;
  if (!changes || !result) return [];
  const changed = new Set<JudgedFinding>([...changes.newFailing, ...changes.newlyOverdue]);
  const still = (result.gate?.findings ?? []).filter((f) => f.gating && !changed.has(f));
  const sections: ChatSection[] = [
    { title: 'New failing', lines: worstFirst(changes.newFailing).map(findingLine) },
    { title: 'Fixed', lines: worstFirst(changes.fixed).map(findingLine) },
    { title: 'Now overdue', lines: worstFirst(changes.newlyOverdue).map(findingLine) },
    { title: 'Expired waivers', lines: changes.expiredWaivers.map(waiverLine) },
    {
      title: 'Evaluated in the baseline, not evaluated now',
      lines: changes.notEvaluatedNow.map((check) => ({ text: chatText(check, 128) })),
    },
    { title: 'Still failing the gate', lines: worstFirst(still).map(findingLine) },
  ];
  return sections.filter((section) => section.lines.length > 0);
}

function linksOf(message: NotifyMessage): ChatMessage['links'] {
  const candidates: Array<[string, string | undefined]> = [
    ['Open the run', message.links.run],
    ['Pull request', message.links.pullRequest],
    ['Report', message.links.report],
  ];
  return candidates.flatMap(([label, url]) => (url && isWebAddress(url) ? [{ label, url }] : []));
}

function isWebAddress(address: string): boolean {
  try {
    const url = new URL(address);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

function tenantLine(row: TenantRow): ChatLine {
  const counts = [
    row.new ? `${row.new} new` : '',
    row.fixed ? `${row.fixed} fixed` : '',
    row.coverage?.fails
      ? `coverage dropped: ${row.coverage.dropped} of ${row.coverage.baselineEvaluated} checks not evaluated`
      : '',
    row.problem ? chatText(row.problem, 200) : '',
  ].filter((part) => part !== '');
  return {
    severity: row.worst ?? undefined,
    text: `${chatText(row.tenant, 100)} — ${row.verdict}${counts.length > 0 ? `: ${counts.join(', ')}` : ''}`,
  };
}

/** What changed since the baseline, as the card says it (never "changed" when nothing did). */
function changeLine(changed: readonly string[] | undefined): string {
  if (changed === undefined) return 'No baseline to compare with: what changed is not known';
  return changed.length > 0
    ? `Changed: ${changed.join(', ')}`
    : 'Nothing changed since the baseline';
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The message of a roll-up: the fleet's verdict, the tenants that changed, those unjudged. */
function fleetMessageOf(message: NotifyMessage, fleet: NonNullable<NotifyMessage['fleet']>) {
  const { rollup } = fleet;
  const sections: ChatSection[] = [
    { title: 'Tenants that changed', lines: fleet.changed.map(tenantLine) },
    { title: 'Tenants without a verdict', lines: fleet.unjudged.map(tenantLine) },
  ];
  return {
    title: chatText(rollupHeadline(rollup), 150),
    failed: rollup.verdict === 'failed',
    summary: [chatText(capitalised(message.why), 300)],
    facts: [
      { title: 'Tenants', value: String(rollup.totalTenants) },
      { title: 'Failed', value: String(rollup.failedTenants) },
    ],
    sections: sections.filter((section) => section.lines.length > 0),
    links: linksOf(message),
  };
}

/** The message of a run (or of a job that ended in an error, or of a roll-up). */
export function chatMessageOf(message: NotifyMessage): ChatMessage {
  if (message.fleet) return fleetMessageOf(message, message.fleet);
  const { result } = message;
  const title = result
    ? chatText(headline(result), 150)
    : chatText(`❌ Tenant scan failed: ${message.error ?? 'the job ended in an error'}`, 150);
  const facts: ChatMessage['facts'] = [];
  if (result?.tenantName) facts.push({ title: 'Tenant', value: chatText(result.tenantName, 100) });
  if (result) facts.push({ title: 'Scan', value: chatText(result.scanId, 128) });
  if (result?.total !== undefined)
    facts.push({ title: 'Failed', value: `${result.failed} of ${result.total} checks` });
  if (result?.results) for (const fact of checksFacts(result.results)) facts.push(fact);
  const coverage = result?.gate?.coverage;
  if (coverage?.kind === 'compared') {
    facts.push({
      title: 'Coverage',
      value: `${coverage.evaluatedNow} evaluated, ${coverage.baselineEvaluated} in the baseline${coverage.dropped.length > 0 ? `, ${coverage.dropped.length} not evaluated now` : ''}`,
    });
  }
  const summary = result ? [chatText(changeLine(message.changed), 300)] : [];
  if (result?.verdictReason) summary.push(chatText(`Verdict: ${result.verdictReason}`, 300));
  if (message.error && result === undefined) summary.push(chatText(message.error, 300));
  return {
    title,
    failed: result ? result.verdict === 'failed' : true,
    summary,
    facts,
    sections: sectionsOf(message),
    links: linksOf(message),
  };
}

/** The checks not evaluated, by kind: words the service sent (an unknown kind's name) as text. */
function checksFacts(counts: ResultCounts): ChatMessage['facts'] {
  const kinds = counts.kinds.length > 0 ? ` (${chatText(kindWords(counts.kinds), 200)})` : '';
  return [
    { title: 'Passed', value: String(counts.passed) },
    { title: 'Not evaluated', value: `${counts.notEvaluated}${kinds}` },
  ];
}

/** The message with only its first `keep` lines (in section order) and a line for the rest. */
function cut(message: ChatMessage, keep: number): ChatMessage {
  let left = keep;
  let dropped = 0;
  const sections = message.sections.flatMap((section) => {
    const kept = section.lines.slice(0, Math.max(0, left));
    dropped += section.lines.length - kept.length;
    left -= kept.length;
    return kept.length > 0 ? [{ ...section, lines: kept }] : [];
  });
  if (dropped === 0) return message;
  return {
    ...message,
    sections,
    more: `…and ${plural(dropped, 'more line')} not shown — the run's summary has them all`,
  };
}

/** The rendering of the most of `message` that `fits`: every line if it can, else the longest
 *  beginning of them (found by halving) with a line that counts the rest. */
export function renderWithin(
  message: ChatMessage,
  render: (message: ChatMessage) => string,
  fits: (rendered: string) => boolean,
): string {
  const whole = render(message);
  if (fits(whole)) return whole;
  const total = message.sections.reduce((n, section) => n + section.lines.length, 0);
  let low = 0;
  let high = total - 1;
  let best = render(cut(message, 0));
  while (low <= high) {
    const middle = Math.floor((low + high) / 2);
    const rendered = render(cut(message, middle));
    if (fits(rendered)) {
      best = rendered;
      low = middle + 1;
    } else high = middle - 1;
  }
  if (!fits(best)) throw new Error('even without a finding the message is over its limits');
  return best;
}

export function byteLength(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
