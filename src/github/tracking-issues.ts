// Tracking issues (issue 26): what a scheduled job leaves where people look. `one`: one issue per
// repository × tenant × scan type, edited in place each run, commented only when something
// changed, closed when the gate passes, reopened when it fails again. `per-finding`: one issue per
// failing check (tracking-per-finding.ts). Issues are found again by a hidden marker in their body
// (hashes, never service text) through the issues list filtered by label: not the search API,
// whose index lags. Writes are paced under GitHub's secondary rate limits. Any GitHub error is one
// warning: the verdict and the exit code are never the tracking step's to change.

import { createHash } from 'node:crypto';
import { testPacingMs } from '../pipeline/pacing.js';
import type { JobResult } from '../pipeline/types.js';
import type { RunContext } from './event.js';
import { trackOne } from './tracking-one.js';
import { trackPerFinding } from './tracking-per-finding.js';

export type TrackingMode = 'none' | 'one' | 'per-finding';
export const TRACKING_MODES: readonly TrackingMode[] = ['none', 'one', 'per-finding'];

export interface TrackingRequest {
  token: string;
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

export type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

/** An issue as the list gives it, the fields the tracking reads. */
export interface TrackedIssue {
  number: number;
  state: string;
  body?: string | null;
  pull_request?: unknown;
}

/** Where the tracking writes, and how. */
export interface TrackingSite {
  octokit: Octokit;
  owner: string;
  repo: string;
  request: TrackingRequest;
  log: TrackingLog;
  /** Waits its turn before each write (GitHub's secondary rate limits). */
  write<T>(call: () => Promise<T>): Promise<T>;
  /** Every issue of the repository with the tracking labels, open and closed, every page. */
  issues(): Promise<TrackedIssue[]>;
  /** Hash that names this repository × tenant × scan type in markers. */
  key: string;
}

/** Spacing of writes: GitHub asks for at least a second between requests that create content. */
export const WRITE_SPACING_MS = 1_000;

/** A key in a marker: a short hash of what it names. */
export function markerKey(...parts: string[]): string {
  return createHash('sha256').update(parts.join('\n')).digest('hex').slice(0, 16);
}

function describeError(error: unknown): { denied: boolean; text: string } {
  const status = (error as { status?: unknown })?.status;
  const message = error instanceof Error ? error.message : String(error);
  const text = `${typeof status === 'number' ? `${status} ` : ''}${message}`
    .replace(/\s+/g, ' ')
    .trim();
  return { denied: status === 403 || status === 404 || status === 401, text: text.slice(0, 300) };
}

function pacer(spacingMs: number): <T>(call: () => Promise<T>) => Promise<T> {
  let next = 0;
  return async (call) => {
    const wait = next - Date.now();
    next = Math.max(Date.now(), next) + spacingMs;
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    return call();
  };
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
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(request.token);
  const site: TrackingSite = {
    octokit,
    owner,
    repo,
    request,
    log,
    write: pacer(testPacingMs(process.env) ?? WRITE_SPACING_MS),
    key: markerKey(`${owner}/${repo}`, request.tenant, request.result.scan.scanType ?? ''),
    issues: () =>
      octokit.paginate(octokit.rest.issues.listForRepo, {
        owner,
        repo,
        state: 'all',
        per_page: 100,
        ...(request.labels.length > 0 ? { labels: request.labels.join(',') } : {}),
      }),
  };
  try {
    if (request.mode === 'one') await trackOne(site);
    else await trackPerFinding(site);
  } catch (error) {
    const { denied, text } = describeError(error);
    log.warning(
      denied
        ? `Tracking issues skipped: the token may not write issues (${text}); grant issues: write in the job's permissions — pull requests from forks get a read-only token`
        : `Tracking issues failed: ${text}; the verdict stands`,
    );
  }
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
    await site.write(() =>
      octokit.rest.issues.createComment({
        owner,
        repo,
        issue_number,
        body: `Duplicate of #${kept.number}: another run opened it at the same time.`,
      }),
    );
    await site.write(() =>
      octokit.rest.issues.update({
        owner,
        repo,
        issue_number,
        state: 'closed',
        state_reason: 'not_planned',
      }),
    );
    log.info(`Tracking issue #${issue_number} closed as a duplicate of #${kept.number}`);
  }
}
