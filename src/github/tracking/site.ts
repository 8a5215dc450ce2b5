// What every kind of tracking issue shares: the request, the site it writes to, the marker key,
// finding our issues by marker, and closing duplicates among our own (a bounded number a run).

import { createHash } from 'node:crypto';
import type { JobResult } from '../../pipeline/job/types.js';
import type { RunContext } from '../event.js';
import type { GitHubClient, Octokit } from '../github-client.js';

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
  /** Our issues that carry `marker` and are older than the labelled list read (issues() stopped
   *  at MAX_ISSUE_PAGES): GitHub's issue search, asked for our account's; [] when the list was
   *  read whole. */
  olderWithMarker(marker: string): Promise<TrackedIssue[]>;
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
