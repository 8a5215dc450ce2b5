// Tracking issues (issue 26): what a scheduled job leaves where people look. `one`: one issue per
// repository × tenant × scan type, edited in place each run, commented only when something
// changed, closed when the gate passes, reopened when it fails again. `per-finding`: one issue per
// failing check (tracking-per-finding.ts). Issues are found again by a hidden marker in their body
// (hashes, never service text) through the issues list filtered by label and by author: not the
// search API, whose index lags. An issue is ours only when the token's own account opened it
// (token-identity.ts): anyone can paste the marker, and such an issue is never edited, closed or
// believed. The list is read once a run. GitHub's rate limits are the client's (github-client.ts).
// Any GitHub error is one warning: the verdict and the exit code are never the tracking step's.

import { createHash } from 'node:crypto';
import type { JobResult } from '../pipeline/job/types.js';
import type { RunContext } from './event.js';
import { publicationWarning, type GitHubClient, type Octokit } from './github-client.js';
import { writtenBy, type TokenIdentity } from './token-identity.js';
import { trackOne } from './tracking-one.js';
import { trackPerFinding } from './tracking-per-finding.js';

export type TrackingMode = 'none' | 'one' | 'per-finding';
export const TRACKING_MODES: readonly TrackingMode[] = ['none', 'one', 'per-finding'];

export interface TrackingRequest {
  github: GitHubClient;
  mode: Exclude<TrackingMode, 'none'>;
  labels: string[];
  assignees: string[];
  result: JobResult;
  /** The job summary in Markdown, at most `maxBytes` (the issue body). */
  summary: (maxBytes: number) => string;
  context: RunContext;
  /** What names the tenant for this repository: the API's origin and the tenant's name. */
  tenant: string;
}

export interface TrackingLog {
  info(message: string): void;
  warning(message: string): void;
}

/** An issue as the list gives it, the fields the tracking reads. */
export interface TrackedIssue {
  number: number;
  state: string;
  body?: string | null;
  pull_request?: unknown;
  user?: { login?: string; id?: number } | null;
}

/** Where the tracking writes, and how. */
export interface TrackingSite {
  octokit: Octokit;
  /** Aborted when the step's time for GitHub is spent (github-client.ts). */
  signal: AbortSignal;
  owner: string;
  repo: string;
  request: TrackingRequest;
  log: TrackingLog;
  /** Our issues with the tracking labels, open and closed (read once; at most MAX_ISSUE_PAGES). */
  issues(): Promise<TrackedIssue[]>;
  /** Hash that names this repository × tenant × scan type in markers. */
  key: string;
  /** How many more duplicates this run may close (MAX_DUPLICATES_CLOSED_PER_RUN). */
  duplicatesLeft: number;
}

/** Pages of 100 of our own labelled issues read at most (the newest first): 5,000 issues. */
export const MAX_ISSUE_PAGES = 50;
/** Duplicates (issues of ours that overlapping runs opened for one thing) closed at most a run. */
export const MAX_DUPLICATES_CLOSED_PER_RUN = 10;

/** A key in a marker: a short hash of what it names. */
export function markerKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

/** The key that names a repository × tenant × scan type in markers. */
export function trackingKey(repository: string, tenant: string, scanType: string): string {
  return markerKey(repository, tenant, scanType);
}

export async function publishTrackingIssues(
  request: TrackingRequest,
  log: TrackingLog,
): Promise<void> {
  const { owner, repo } = request.context;
  if (!owner || !repo) {
    log.warning('Tracking issues skipped: GITHUB_REPOSITORY is not set');
    return;
  }
  if (request.result.verdict === undefined) {
    log.info(
      'Tracking issues left as they are: the run has no verdict (the scan did not complete or was not waited for)',
    );
    return;
  }
  const { github } = request;
  try {
    const identity = await github.identity();
    const site: TrackingSite = {
      octokit: github.octokit,
      signal: github.signal,
      owner,
      repo,
      request,
      log,
      key: trackingKey(`${owner}/${repo}`, request.tenant, request.result.scan.scanType ?? ''),
      issues: once(() => ourIssues(github.octokit, owner, repo, request.labels, identity, log)),
      duplicatesLeft: MAX_DUPLICATES_CLOSED_PER_RUN,
    };
    if (request.mode === 'one') await trackOne(site);
    else await trackPerFinding(site);
  } catch (error) {
    log.warning(
      publicationWarning(
        'Tracking issues',
        error,
        { may: 'write issues', grant: 'issues: write' },
        github.signal,
      ),
    );
  }
}

function once<T>(read: () => Promise<T>): () => Promise<T> {
  let value: Promise<T> | undefined;
  return () => (value ??= read());
}

/** The labelled issues the token's account opened: GitHub filters by `creator`, and each is
 *  checked again by its author's id (a login can change hands). */
async function ourIssues(
  octokit: Octokit,
  owner: string,
  repo: string,
  labels: string[],
  identity: TokenIdentity,
  log: TrackingLog,
): Promise<TrackedIssue[]> {
  let pages = 0;
  const issues = await octokit.paginate(
    octokit.rest.issues.listForRepo,
    { owner, repo, state: 'all', labels: labels.join(','), creator: identity.login, per_page: 100 },
    (response, done) => {
      if (++pages >= MAX_ISSUE_PAGES) done();
      return response.data;
    },
  );
  if (pages >= MAX_ISSUE_PAGES && issues.length >= MAX_ISSUE_PAGES * 100) {
    log.info(
      `Tracking issues: only the newest ${issues.length} issues with the label were read; older ones are left as they are`,
    );
  }
  return issues.filter((issue) => writtenBy(issue.user, identity));
}

/** The issues of `site` whose body carries `marker`, open first, then by number. */
export function withMarker(issues: readonly TrackedIssue[], marker: string): TrackedIssue[] {
  return issues
    .filter((issue) => !issue.pull_request && (issue.body ?? '').includes(marker))
    .sort((a, b) => Number(b.state === 'open') - Number(a.state === 'open') || a.number - b.number);
}

/**
 * Two runs that overlapped may each have opened an issue for the same thing: every open issue of
 * `issues` (sorted by withMarker) but the earliest is closed as a duplicate of it.
 */
export async function closeExtraOpen(
  site: TrackingSite,
  issues: readonly TrackedIssue[],
): Promise<void> {
  const { octokit, owner, repo, log } = site;
  const [kept, ...extra] = issues.filter((issue) => issue.state === 'open');
  if (!kept) return;
  for (const { number: issue_number } of extra) {
    if (site.duplicatesLeft <= 0) {
      log.info(
        `Tracking issue #${issue_number} is a duplicate of #${kept.number}, left open: at most ${MAX_DUPLICATES_CLOSED_PER_RUN} duplicates are closed a run (the next runs close the rest)`,
      );
      continue;
    }
    site.duplicatesLeft--;
    await octokit.rest.issues.createComment({
      owner,
      repo,
      issue_number,
      body: `Duplicate of #${kept.number}: another run opened it at the same time.`,
    });
    await octokit.rest.issues.update({
      owner,
      repo,
      issue_number,
      state: 'closed',
      state_reason: 'not_planned',
    });
    log.info(`Tracking issue #${issue_number} closed as a duplicate of #${kept.number}`);
  }
}
