// The PR comment, sized for a review: the headline, what changed since the last comment, the counts,
// the waivers the pull request adds or extends (five at most), the findings that fail the gate (ten
// at most, then "and N more") and links to the whole: the run's job summary, the HTML report, the
// CSV and OCSF artifacts. Whatever the number of findings it stays within COMMENT_MAX_LINES and
// COMMENT_MAX_CHARS (the hidden marker and state lines above it aside); the whole list stays in the
// job summary and the check run. Service text goes through the one Markdown path.

import type { JobResult } from '../pipeline/job/types.js';
import type { GateOutcome, JudgedFinding, Waiver } from '../pipeline/gate/judge.js';
import { cutChars, markdownCode, markdownLink, markdownText } from '../pipeline/common/markdown.js';
import { plural } from '../pipeline/common/text.js';
import { headline } from '../pipeline/output/headline.js';
import {
  expiredByGate,
  untilWords,
  waiverChangeWords,
  waiverEffectWords,
  type WaiverReview,
  type WaiverChange,
} from './pr-waivers.js';
import type { FileLink } from './summary.js';

export const COMMENT_MAX_LINES = 40;
export const COMMENT_MAX_CHARS = 4000;
/** Findings that fail the gate listed at most; the rest are counted. */
export const COMMENT_MAX_FINDINGS = 10;
/** Waivers the pull request adds or extends listed at most; the job summary lists all. */
export const COMMENT_MAX_WAIVERS = 5;

/** Where the whole of the run is. */
export interface CommentLinks {
  /** The workflow run's page: its job summary, its artifacts. */
  run?: string;
  /** The self-contained HTML report of the run (issue 48's html-file), when one was uploaded. */
  htmlReport?: string;
  /** The CSV and OCSF files and their artifacts. */
  files?: readonly FileLink[];
}

export interface CommentInput {
  result: JobResult;
  /** "**Since the last comment:** …", or '' (state-line.ts's changeLine). */
  changed: string;
  waivers?: WaiverReview;
  links: CommentLinks;
}

function countsLine(gate: GateOutcome | undefined): string {
  if (!gate) return '';
  const { counts } = gate;
  const parts = [`${counts.gating} fail the gate`, `${counts.failed} failed in all`];
  if (gate.baseline.kind !== 'none')
    parts.push(`${counts.new} new`, `${counts.unchanged} unchanged`);
  if (gate.baseline.kind === 'found') parts.push(`${counts.fixed} fixed`);
  if (counts.waived > 0) parts.push(`${counts.waived} waived`);
  if (gate.history.kind !== 'none') parts.push(`${counts.overdue} overdue`);
  return `**Counts:** ${parts.join(' · ')}`;
}

function waiverChanges(
  review: WaiverReview | undefined,
  expired: (waiver: Waiver) => boolean,
): {
  lead: string;
  changes: readonly WaiverChange[];
} {
  if (!review) return { lead: '', changes: [] };
  const file = markdownCode(review.file, 80, false);
  if (review.kind === 'not-compared') {
    const lead = `**⚠️ Waivers not compared with the base branch**: every waiver of ${file} counts as added.`;
    return { lead, changes: review.waivers.map((waiver) => ({ waiver })) };
  }
  const lapsed = review.changes.filter((c) => expired(c.waiver)).length;
  const effect = waiverEffectWords(review.changes.length, lapsed);
  const lead = `**⚠️ This pull request ${waiverChangeWords(review.changes)}** in ${file}: ${effect}.`;
  return { lead, changes: review.changes };
}

/** The waivers a pull request adds or extends; one the gate found expired is marked so. */
function waiversSection(review: WaiverReview | undefined, gate: GateOutcome | undefined): string {
  const expired = expiredByGate(gate?.expired);
  const { lead, changes } = waiverChanges(review, expired);
  if (changes.length === 0) return '';
  const rows = changes.slice(0, COMMENT_MAX_WAIVERS).map((change) => {
    const until = markdownText(untilWords(change, expired(change.waiver)), 40);
    return `| ${markdownCode(change.waiver.check, 60)} | ${until} | ${markdownText(change.waiver.reason, 60)} |`;
  });
  const more =
    changes.length > COMMENT_MAX_WAIVERS
      ? [
          '',
          `_…and ${plural(changes.length - COMMENT_MAX_WAIVERS, 'more waiver')}: the job summary lists all._`,
        ]
      : [];
  return [lead, '', '| Waived check | Until | Reason |', '|---|---|---|', ...rows, ...more].join(
    '\n',
  );
}

function findingRow(finding: JudgedFinding): string {
  return `| ${finding.severity} | ${markdownText(finding.title, 70)} | ${markdownCode(finding.identity, 40)} |`;
}

/** The findings that fail the gate: as many rows as `budget` characters hold, ten at most. */
function findingsSection(result: JobResult, budget: number): string {
  const gating = result.findings.filter((finding) => finding.gating);
  if (gating.length === 0) return '';
  const head = [
    `**Fail the gate (${gating.length})**`,
    '',
    '| Severity | Finding | Check |',
    '|---|---|---|',
  ];
  const more = (n: number) => `_…and ${n} more: the job summary and the check run list all._`;
  let used = head.join('\n').length + more(gating.length).length + 3;
  const rows: string[] = [];
  for (const finding of gating.slice(0, COMMENT_MAX_FINDINGS)) {
    const row = findingRow(finding);
    if (used + row.length + 1 > budget) break;
    rows.push(row);
    used += row.length + 1;
  }
  const rest = gating.length - rows.length;
  return [...head, ...rows, ...(rest > 0 ? ['', more(rest)] : [])].join('\n');
}

/** Our own links are short (GitHub's run and artifact pages); a longer one is not shown. */
const MAX_LINK_CHARS = 300;

function link(label: string, url: string | undefined): string {
  const shown = markdownLink(label, url);
  return shown.length - label.length > MAX_LINK_CHARS ? '' : shown;
}

function linksLine(links: CommentLinks): string {
  const parts = [
    link('job summary', links.run) || 'the job summary of this run',
    link('HTML report', links.htmlReport),
    ...(links.files ?? []).map((file) => link(cutChars(file.name, 60), file.url)),
  ].filter((part) => part !== '');
  return `**The whole list:** ${parts.join(' · ')}`;
}

/** The comment's Markdown (what follows the marker and the state line). */
export function buildComment(input: CommentInput): string {
  const { result } = input;
  const before = [
    `## ${markdownText(headline(result), 100)}`,
    input.changed,
    countsLine(result.gate),
    waiversSection(input.waivers, input.result.gate),
  ].filter((part) => part !== '');
  const after = linksLine(input.links);
  const fixed = [...before, after].join('\n\n').length + 4;
  const findings = findingsSection(result, COMMENT_MAX_CHARS - fixed);
  return [...before, findings, after].filter((part) => part !== '').join('\n\n');
}
