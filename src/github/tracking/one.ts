// tracking-issue: one — one issue per repository × tenant × scan type. Opened when the gate fails;
// its body is the run's summary (new, overdue, unchanged, waived, fixed, the trend), edited in place
// each run; a comment only when something changed (new failures, fixes, an expired waiver); closed
// with a comment naming the clean scan when the gate passes; reopened, not duplicated, when it fails
// again. Only an issue the token's account opened is ours (issues.ts), and only its state
// line is believed.

import { markdownCode, markdownText, plainTitle } from '../../pipeline/common/markdown.js';
import { changes, readRunState, runState, stateLine } from '../state-line.js';
import { closeExtraOpen, withMarker, type TrackingSite } from './site.js';

/** GitHub takes up to 65,536 characters in an issue body: the summary stays well under, with room
 *  for the markers; rows that do not fit are counted in its last line. */
const BODY_SUMMARY_BYTES = 60_000;

/** The hidden marker of the `one` issue of a repository × tenant × scan type (trackingKey). */
export function oneMarker(key: string): string {
  return `<!-- tenant-scan-tracking:one:${key} -->`;
}

function titleOf(site: TrackingSite): string {
  const { result } = site.request;
  const tenant = result.tenantName ? ` of ${result.tenantName}` : '';
  return plainTitle(
    `Tenant scan: ${result.scan.scanType ?? 'scan'} findings${tenant} fail the gate`,
    200,
  );
}

function bodyOf(site: TrackingSite): string {
  const state = runState(site.request.result);
  return [oneMarker(site.key), stateLine(state), site.request.summary(BODY_SUMMARY_BYTES)].join(
    '\n',
  );
}

/** "scan `abc` of 2026-11-25" */
function scanName(site: TrackingSite): string {
  const { scan } = site.request.result;
  const when = (scan.completedAt ?? scan.createdAt ?? '').slice(0, 10);
  return `scan ${markdownCode(scan.id, 128, false)}${when ? ` of ${markdownCode(when, 10, false)}` : ''}`;
}

export async function trackOne(site: TrackingSite): Promise<void> {
  const { octokit, owner, repo, request, log } = site;
  const marker = oneMarker(site.key);
  let found = withMarker(await site.issues(), marker);
  // Many newer labelled issues of ours (other tenants', per-finding ones) may push it past the
  // pages read: it is looked for by its marker then, never opened a second time.
  if (found.length === 0) found = withMarker(await site.olderWithMarker(marker), marker);
  await closeExtraOpen(site, found);
  const [issue] = found;
  const failed = request.result.verdict === 'failed';
  if (!issue) {
    if (!failed) return;
    const created = await octokit.rest.issues.create({
      owner,
      repo,
      title: titleOf(site),
      body: bodyOf(site),
      labels: request.labels,
      ...(request.assignees.length > 0 ? { assignees: request.assignees } : {}),
    });
    log.info(`Tracking issue #${created.data.number} opened`);
    return;
  }
  const before = readRunState(issue.body ?? '');
  const now = runState(request.result);
  const issue_number = issue.number;
  if (!failed) {
    if (issue.state !== 'open') return;
    await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number,
      body: `✅ The gate passes: ${scanName(site)} is clean at the gate. Closing.`,
    });
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number,
      body: bodyOf(site),
      state: 'closed',
      state_reason: 'completed',
    });
    log.info(`Tracking issue #${issue_number} closed: the gate passes`);
    return;
  }
  const reopened = issue.state !== 'open';
  await octokit.rest.issues.update({
    owner,
    repo,
    issue_number,
    title: titleOf(site),
    body: bodyOf(site),
    ...(reopened ? { state: 'open' as const } : {}),
  });
  const changed = before ? changes(before, now, request.result) : [];
  if (reopened || changed.length > 0) {
    const lead = reopened
      ? `❌ Failing again in ${scanName(site)}`
      : `Since the last run (${scanName(site)})`;
    const why = markdownText(request.result.failureReason ?? 'the gate fails', 400);
    const body = `**${lead}:** ${changed.length > 0 ? changed.join('; ') : why}.`;
    await octokit.rest.issues.createComment({ owner, repo, issue_number, body });
  }
  log.info(
    `Tracking issue #${issue_number} ${reopened ? 'reopened' : 'updated'}${changed.length > 0 || reopened ? ', with a comment on what changed' : ' (nothing changed: no comment)'}`,
  );
}
