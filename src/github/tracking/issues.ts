// Tracking issues (issue 26): what a scheduled job leaves where people look. `one`: one issue per
// repository × tenant × scan type, edited in place each run, commented only when something
// changed, closed when the gate passes, reopened when it fails again. `per-finding`: one issue per
// failing check (per-finding.ts). Issues are found again by a hidden marker in their body
// (hashes, never service text) through the issues list filtered by label and by author: not the
// search API, whose index lags. Only when that list is cut (MAX_ISSUE_PAGES of newer issues) is
// the `one` issue looked for with the search API, by its marker and our account as its author
// (issues others open with our marker must not crowd ours out of the page). An issue is ours
// only when the token's own account opened it
// (token-identity.ts): anyone can paste the marker, and such an issue is never edited, closed or
// believed. The list is read once a run. GitHub's rate limits are the client's (github-client.ts).
// Any GitHub error is one warning: the verdict and the exit code are never the tracking step's.

import { publicationWarning, type Octokit } from '../github-client.js';
import { writtenBy, type TokenIdentity } from '../token-identity.js';
import {
  MAX_DUPLICATES_CLOSED_PER_RUN,
  MAX_ISSUE_PAGES,
  trackingKey,
  type TrackedIssue,
  type TrackingLog,
  type TrackingRequest,
  type TrackingSite,
} from './site.js';
import { trackOne } from './one.js';
import { trackPerFinding } from './per-finding.js';

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
    const labelled = once(() =>
      ourIssues(github.octokit, owner, repo, request.labels, identity, log),
    );
    const site: TrackingSite = {
      octokit: github.octokit,
      signal: github.signal,
      owner,
      repo,
      request,
      log,
      key: trackingKey(`${owner}/${repo}`, request.tenant, request.result.scan.scanType ?? ''),
      issues: async () => (await labelled()).issues,
      olderWithMarker: async (marker) =>
        (await labelled()).whole
          ? []
          : searchOurs(github.octokit, { owner, repo, labels: request.labels }, identity, marker),
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
): Promise<{ issues: TrackedIssue[]; whole: boolean }> {
  let pages = 0;
  const issues = await octokit.paginate(
    octokit.rest.issues.listForRepo,
    { owner, repo, state: 'all', labels: labels.join(','), creator: identity.login, per_page: 100 },
    (response, done) => {
      if (++pages >= MAX_ISSUE_PAGES) done();
      return response.data;
    },
  );
  const whole = !(pages >= MAX_ISSUE_PAGES && issues.length >= MAX_ISSUE_PAGES * 100);
  if (!whole) {
    log.info(
      `Tracking issues: only the newest ${issues.length} issues with the label were read; older ones are left as they are`,
    );
  }
  return { issues: issues.filter((issue) => writtenBy(issue.user, identity)), whole };
}

/** How issue search names an account: a bot (`name[bot]`) as `app/name`. */
function searchAuthor(login: string): string {
  return login.endsWith('[bot]') ? `app/${login.slice(0, -'[bot]'.length)}` : login;
}

/** Our issues of the repository with the labels whose body holds `marker` (an HTML comment: its
 *  text is searched), oldest first: one page, checked again by author and marker. */
async function searchOurs(
  octokit: Octokit,
  where: { owner: string; repo: string; labels: readonly string[] },
  identity: TokenIdentity,
  marker: string,
): Promise<TrackedIssue[]> {
  const text = marker.replace(/^<!--\s*|\s*-->$/g, '');
  const labels = where.labels.map((label) => `label:${JSON.stringify(label)}`).join(' ');
  const q = `repo:${where.owner}/${where.repo} is:issue in:body author:${searchAuthor(identity.login)} ${labels} "${text}"`;
  const { data } = await octokit.rest.search.issuesAndPullRequests({
    q,
    sort: 'created',
    order: 'asc',
    per_page: 100,
  });
  return data.items.filter((issue) => writtenBy(issue.user, identity));
}
