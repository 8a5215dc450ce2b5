// tracking-issue: per-finding — one issue per failing check. Opened when a finding that fails the
// gate has none, reopened with a comment when it fails again after a fix (at most MAX_OPENED_PER_RUN
// opened or reopened a run: a line says how many more), commented and closed when the check no
// longer fails (at most MAX_CLOSED_PER_RUN a run).
// Never a duplicate: a re-run finds the issues it opened; two runs that overlap may both open one
// for the same check, and the next run closes the later as a duplicate of the earlier (at most
// MAX_DUPLICATES_CLOSED_PER_RUN a run). Only issues the token's account opened are ours.

import {
  markdownCode,
  markdownLink,
  markdownText,
  plainTitle,
} from '../../pipeline/common/markdown.js';
import { describeDeadline } from '../../pipeline/gate/deadlines.js';
import type { JudgedFinding } from '../../pipeline/gate/judge.js';
import { describeGitHubError } from '../github-client.js';
import {
  closeExtraOpen,
  markerKey,
  withMarker,
  type TrackedIssue,
  type TrackingSite,
} from './site.js';

/** Each issue opened or reopened is a write or two a second apart: a run that finds hundreds of
 *  checks failing does not spend many minutes on issues. */
export const MAX_OPENED_PER_RUN = 20;
export const MAX_CLOSED_PER_RUN = 50;
const MARKER = /<!-- tenant-scan-tracking:finding:([0-9a-f]+):([0-9a-f]+) -->/;

/** The hidden marker of the issue of one check (its identity) under a tracking key. */
export function findingMarker(key: string, identity: string): string {
  return `<!-- tenant-scan-tracking:finding:${key}:${markerKey(key, identity)} -->`;
}

function marker(site: TrackingSite, finding: JudgedFinding): string {
  return findingMarker(site.key, finding.identity || finding.id);
}

function findingKey(site: TrackingSite, finding: JudgedFinding): string {
  return markerKey(site.key, finding.identity);
}

function titleOf(finding: JudgedFinding): string {
  return plainTitle(`Tenant scan: ${finding.identity} — ${finding.title}`, 200);
}

function scanName(site: TrackingSite): string {
  const { scan } = site.request.result;
  return `scan ${markdownCode(scan.id, 128, false)}`;
}

function bodyOf(site: TrackingSite, finding: JudgedFinding): string {
  const lines = [
    marker(site, finding),
    `## ${markdownText(finding.title, 200)}`,
    '',
    `| Check | Severity | Category |`,
    '|---|---|---|',
    `| ${markdownCode(finding.identity, 80)} | ${finding.severity} | ${markdownText(finding.category, 80) || '—'} |`,
    '',
    `Failing in ${scanName(site)}${finding.age ? `; ${markdownText(describeDeadline(finding.age))}` : ''}.`,
  ];
  if (finding.description) lines.push('', markdownText(finding.description, 2000));
  if (finding.remediation)
    lines.push('', `**Remediation:** ${markdownText(finding.remediation, 2000)}`);
  const reference = markdownLink('Reference', finding.reference);
  if (reference) lines.push('', reference);
  return lines.join('\n');
}

/** The per-finding issues of this repository × tenant × scan type, by their finding's key. */
function byFinding(
  site: TrackingSite,
  issues: readonly TrackedIssue[],
): Map<string, TrackedIssue[]> {
  const found = new Map<string, TrackedIssue[]>();
  for (const issue of withMarker(issues, `<!-- tenant-scan-tracking:finding:${site.key}:`)) {
    const key = MARKER.exec(issue.body ?? '')?.[2];
    if (key) found.set(key, [...(found.get(key) ?? []), issue]);
  }
  return found;
}

export async function trackPerFinding(site: TrackingSite): Promise<void> {
  const { request, log } = site;
  const failing = new Map<string, JudgedFinding>();
  for (const finding of request.result.findings) {
    if (finding.gating && !failing.has(findingKey(site, finding)))
      failing.set(findingKey(site, finding), finding);
  }
  const stillFailed = new Set(request.result.findings.map((f) => findingKey(site, f)));
  const existing = byFinding(site, await site.issues());
  await closeDuplicates(site, existing);
  let opened = 0;
  let notOpened = 0;
  for (const [key, finding] of failing) {
    const [issue] = existing.get(key) ?? [];
    if (issue?.state === 'open') continue;
    if (opened >= MAX_OPENED_PER_RUN) {
      notOpened++;
      continue;
    }
    await oneIssue(site, () => (issue ? reopen(site, issue, finding) : open(site, finding)));
    opened++;
  }
  if (notOpened > 0) {
    log.info(
      `Tracking issues: ${notOpened} more failing checks have no open issue yet (at most ${MAX_OPENED_PER_RUN} are opened or reopened a run; the next runs open them)`,
    );
  }
  const fixed = [...existing]
    .filter(([key, [first]]) => first?.state === 'open' && !stillFailed.has(key))
    .map(([, [first]]) => first as TrackedIssue);
  for (const issue of fixed.slice(0, MAX_CLOSED_PER_RUN))
    await oneIssue(site, () => close(site, issue));
  if (fixed.length > MAX_CLOSED_PER_RUN) {
    log.info(
      `Tracking issues: ${fixed.length - MAX_CLOSED_PER_RUN} more fixed checks keep their issue open until the next runs (at most ${MAX_CLOSED_PER_RUN} are closed a run)`,
    );
  }
}

/** One issue's writes: an error that is about this issue alone (a 5xx on a write that is not sent
 *  twice, a 422) is one line and the others go on; a refusal that would meet every other write too
 *  (no permission, a rate limit, the budget spent) stops the tracking. */
async function oneIssue(site: TrackingSite, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (error) {
    const view = describeGitHubError(error, site.signal);
    if (view.denied || view.rateLimited || view.stopped) throw error;
    site.log.info(
      `Tracking issues: one issue was left as it is (${view.text}); the next run retries`,
    );
  }
}

async function open(site: TrackingSite, finding: JudgedFinding): Promise<void> {
  const { octokit, owner, repo, request, log } = site;
  const created = await octokit.rest.issues.create({
    owner,
    repo,
    title: titleOf(finding),
    body: bodyOf(site, finding),
    labels: request.labels,
    ...(request.assignees.length > 0 ? { assignees: request.assignees } : {}),
  });
  log.info(`Tracking issue #${created.data.number} opened for ${finding.identity}`);
}

async function reopen(
  site: TrackingSite,
  issue: TrackedIssue,
  finding: JudgedFinding,
): Promise<void> {
  const { octokit, owner, repo, log } = site;
  const issue_number = issue.number;
  await octokit.rest.issues.update({
    owner,
    repo,
    issue_number,
    body: bodyOf(site, finding),
    state: 'open',
  });
  await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number,
    body: `❌ **Failing again** in ${scanName(site)}, after it was fixed.`,
  });
  log.info(`Tracking issue #${issue_number} reopened: ${finding.identity} fails again`);
}

async function close(site: TrackingSite, issue: TrackedIssue): Promise<void> {
  const { octokit, owner, repo, log } = site;
  const issue_number = issue.number;
  await octokit.rest.issues.createComment({
    owner,
    repo,
    issue_number,
    body: `✅ **Fixed:** the check no longer fails in ${scanName(site)}. Closing.`,
  });
  await octokit.rest.issues.update({
    owner,
    repo,
    issue_number,
    state: 'closed',
    state_reason: 'completed',
  });
  log.info(`Tracking issue #${issue_number} closed: fixed`);
}

/** Two runs that overlapped may each have opened an issue for one check: the earliest stays. */
async function closeDuplicates(
  site: TrackingSite,
  existing: Map<string, TrackedIssue[]>,
): Promise<void> {
  for (const issues of existing.values()) {
    await closeExtraOpen(site, issues);
  }
}
