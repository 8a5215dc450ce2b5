// Where the settings plan is published: one pull-request comment updated in place, and one
// tracking issue per repository × tenant that is open while the tenant drifts or a hygiene problem
// stands (edited in place, commented when the codes change, closed when clean, reopened, never
// doubled). Found again by a hidden marker of hashes, never service text, and adopted only when
// the token's own account wrote it (token-identity.ts): anyone can paste a marker. GitHub's rate
// limits go through the shared client (github-client.ts). A token that may not write is a
// warning: the verdict is not the publication's to change.

import type { PlanDocument } from '../../pipeline/tenant-settings/document.js';
import { plainTitle } from '../../pipeline/common/markdown.js';
import type { RunContext } from '../event.js';
import { createGitHubClient, type GitHubClient, type Octokit } from '../github-client.js';
import { writtenBy } from '../token-identity.js';
import { markerKey, withMarker, type TrackingLog } from '../tracking/site.js';

/** GitHub takes 65,536 characters in a comment or an issue body. */
const MAX_BODY_CHARS = 60_000;

function bounded(markdown: string): string {
  return markdown.length <= MAX_BODY_CHARS
    ? markdown
    : `${markdown.slice(0, MAX_BODY_CHARS)}\n\n(cut)`;
}

function warnFailure(log: TrackingLog, what: string, error: unknown): void {
  const status = (error as { status?: unknown })?.status;
  const text = `${typeof status === 'number' ? `${status} ` : ''}${error instanceof Error ? error.message : String(error)}`;
  const denied = status === 401 || status === 403 || status === 404;
  log.warning(
    denied
      ? `${what} skipped: the token may not write it (${text.slice(0, 300)}); grant pull-requests: write and issues: write — pull requests from forks get a read-only token`
      : `${what} failed: ${text.slice(0, 300)}`,
  );
}

function clientFor(token: string, log: TrackingLog): Promise<GitHubClient> {
  return createGitHubClient(token, { log });
}

export async function publishSettingsComment(
  request: { token: string; context: RunContext; markdown: string },
  log: TrackingLog,
): Promise<void> {
  const { owner, repo, pullNumber, commentKey } = request.context;
  if (!owner || !repo || pullNumber === undefined) return;
  const marker = `<!-- tenant-scan:settings:${markerKey(commentKey)} -->`;
  const body = `${marker}\n${bounded(request.markdown)}`;
  try {
    const github = await clientFor(request.token, log);
    const { octokit } = github;
    const identity = await github.identity();
    const comments = await octokit.paginate(octokit.rest.issues.listComments, {
      owner,
      repo,
      issue_number: pullNumber,
      per_page: 100,
    });
    const existing = comments.find(
      (c) => typeof c.body === 'string' && c.body.startsWith(marker) && writtenBy(c.user, identity),
    );
    if (existing) {
      await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
      log.info(`PR comment updated on #${pullNumber}`);
    } else {
      await octokit.rest.issues.createComment({ owner, repo, issue_number: pullNumber, body });
      log.info(`PR comment created on #${pullNumber}`);
    }
  } catch (error) {
    warnFailure(log, 'PR comment', error);
  }
}

export interface SettingsTracking {
  token: string;
  context: RunContext;
  doc: PlanDocument;
  markdown: string;
  labels: string[];
  /** With the tenant's name, what names the tenant for this repository. */
  apiUrl: string;
}

function codesLine(doc: PlanDocument): string {
  const codes = [...new Set(doc.problems.map((p) => p.code))].sort().join(',');
  return `<!-- tenant-scan-settings-state:${doc.drift.length}:${codes} -->`;
}

interface IssueSite {
  octokit: Octokit;
  owner: string;
  repo: string;
  issue_number: number;
}

/** No drift and no problem any more: said, then the issue closed. */
async function closeResolved(site: IssueSite, body: string, log: TrackingLog): Promise<void> {
  const { octokit, ...where } = site;
  await octokit.rest.issues.createComment({
    ...where,
    body: '✅ The tenant matches the file and no hygiene problem stands. Closing.',
  });
  await octokit.rest.issues.update({
    ...where,
    body,
    state: 'closed',
    state_reason: 'completed',
  });
  log.info(`Tracking issue #${where.issue_number} closed: no drift, no problem`);
}

/** Drift or problems stand: the issue shows them (reopened if closed), and a comment says what
 *  changed since the last run. */
async function reportDrift(
  site: IssueSite,
  issue: { state?: string; body?: string | null },
  page: { title: string; body: string; state: string; doc: PlanDocument },
  log: TrackingLog,
): Promise<void> {
  const { octokit, ...where } = site;
  const reopened = issue.state !== 'open';
  const changed = !(issue.body ?? '').includes(page.state);
  await octokit.rest.issues.update({
    ...where,
    title: page.title,
    body: page.body,
    ...(reopened ? { state: 'open' as const } : {}),
  });
  if (reopened || changed) {
    const lead = reopened ? '❌ Drifting again' : 'Since the last run';
    const codes = [...new Set(page.doc.problems.map((p) => `\`${p.code}\``))].join(', ');
    await octokit.rest.issues.createComment({
      ...where,
      body: `**${lead}:** ${page.doc.drift.length} drifting, problems: ${codes || 'none'}.`,
    });
  }
  log.info(`Tracking issue #${where.issue_number} ${reopened ? 'reopened' : 'updated'}`);
}

export async function trackSettings(request: SettingsTracking, log: TrackingLog): Promise<void> {
  const { owner, repo } = request.context;
  if (!owner || !repo) {
    log.warning('Tracking issue skipped: GITHUB_REPOSITORY is not set');
    return;
  }
  const { doc } = request;
  const key = markerKey(`${owner}/${repo}`, request.apiUrl, doc.tenant ?? '');
  const marker = `<!-- tenant-scan-tracking:settings:${key} -->`;
  const state = codesLine(doc);
  const failing = doc.drift.length > 0 || doc.problems.length > 0;
  const body = `${marker}\n${state}\n${bounded(request.markdown)}`;
  try {
    const github = await clientFor(request.token, log);
    const { octokit } = github;
    const identity = await github.identity();
    const listed = await octokit.paginate(octokit.rest.issues.listForRepo, {
      owner,
      repo,
      state: 'all',
      per_page: 100,
      ...(request.labels.length > 0 ? { labels: request.labels.join(',') } : {}),
    });
    const [issue] = withMarker(
      listed.filter((candidate) => writtenBy(candidate.user, identity)),
      marker,
    );
    const title = plainTitle(
      `Tenant settings${doc.tenant ? ` of ${doc.tenant}` : ''}: drift or hygiene problems`,
      200,
    );
    if (!issue) {
      if (!failing) return;
      const made = await octokit.rest.issues.create({
        owner,
        repo,
        title,
        body,
        labels: request.labels,
      });
      log.info(`Tracking issue #${made.data.number} opened`);
      return;
    }
    const site = { octokit, owner, repo, issue_number: issue.number };
    if (failing) await reportDrift(site, issue, { title, body, state, doc }, log);
    else if (issue.state === 'open') await closeResolved(site, body, log);
  } catch (error) {
    warnFailure(log, 'Tracking issue', error);
  }
}
