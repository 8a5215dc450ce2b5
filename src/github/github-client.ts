// The one GitHub client of the Action's publications (check run, PR comment, tracking issues, the
// base branch's waivers): @actions/github's Octokit with @octokit/plugin-throttling (GitHub's
// recommended pacing — writes a second apart, content that notifies people three —, Retry-After and
// the rate limit's reset honoured) and @octokit/plugin-retry (5xx answers and dropped connections
// retried with backoff), all inside one budget: whatever GitHub's limits ask, the step's GitHub
// work ends within GITHUB_BUDGET_MS (plus one retry's backoff). The toolkit loads only when used.

import type { TokenIdentity } from './token-identity.js';

export type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

/** Everything the step does on GitHub together: past it, what is left is skipped (one warning). */
export const GITHUB_BUDGET_MS = 5 * 60_000;
/** How often one request may wait out a rate limit (each wait also has to end within the budget). */
const MAX_RATE_LIMIT_WAITS = 2;

export interface GitHubLog {
  info(message: string): void;
  warning(message: string): void;
}

export interface GitHubClient {
  octokit: Octokit;
  /** Aborts every request when the budget is spent. */
  signal: AbortSignal;
  /** Who the token acts as, asked once (token-identity.ts). */
  identity(): Promise<TokenIdentity>;
}

export interface GitHubClientOptions {
  log: GitHubLog;
  budgetMs?: number;
  /** The job's cancellation: stops the requests too. */
  signal?: AbortSignal;
  /** Tests in-process only: GitHub's address (else GITHUB_API_URL), the retries' backoff unit
   *  (plugin-retry's 1 s), and no pacing (plugin-throttling paces every client of the process
   *  together). */
  baseUrl?: string;
  retryAfterBaseMs?: number;
  unpaced?: boolean;
}

export async function createGitHubClient(
  token: string,
  options: GitHubClientOptions,
): Promise<GitHubClient> {
  const [{ getOctokit }, { retry }, { throttling }, { readTokenIdentity }] = await Promise.all([
    import('@actions/github'),
    import('@octokit/plugin-retry'),
    import('@octokit/plugin-throttling'),
    import('./token-identity.js'),
  ]);
  const budgetMs = options.budgetMs ?? GITHUB_BUDGET_MS;
  const deadline = Date.now() + budgetMs;
  const signal = AbortSignal.any([
    AbortSignal.timeout(budgetMs),
    ...(options.signal ? [options.signal] : []),
  ]);
  const onLimit =
    (kind: string) =>
    (retryAfter: number, request: { method: string; url: string }, _o: unknown, count: number) => {
      const fits = count < MAX_RATE_LIMIT_WAITS && Date.now() + retryAfter * 1000 < deadline;
      options.log.info(
        `GitHub's ${kind} rate limit on ${request.method} ${request.url}: ${fits ? `waiting ${retryAfter} s, as it asks` : `it asks to wait ${retryAfter} s, past the step's ${budgetMs / 1000} s for GitHub: not retried`}`,
      );
      return fits;
    };
  const octokit = getOctokit(
    token,
    {
      throttle: {
        onRateLimit: onLimit('primary'),
        onSecondaryRateLimit: onLimit('secondary'),
        ...(options.unpaced ? { enabled: false } : {}),
      },
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
      ...(options.retryAfterBaseMs !== undefined
        ? { retry: { retryAfterBaseValue: options.retryAfterBaseMs } }
        : {}),
    },
    retry,
    throttling,
  );
  octokit.hook.before('request', (request) => {
    // a request's own deadline (e.g. a read's) stays, within the budget
    const own = request.request?.signal;
    request.request = { ...request.request, signal: own ? AbortSignal.any([signal, own]) : signal };
    // A write that creates something (an issue, a comment, a check run) whose answer was lost may
    // have been done: it is never sent twice (a rate-limit refusal, which proves it was not, is
    // still waited out and sent again by the throttling plugin).
    if (request.method === 'POST' && !/\/graphql$/.test(request.url)) request.request.retries = 0;
  });
  let identity: Promise<TokenIdentity> | undefined;
  return {
    octokit,
    signal,
    identity: () => (identity ??= readTokenIdentity(octokit)),
  };
}

export interface GitHubErrorView {
  /** The token may not do this (401/403/404 that is not a rate limit). */
  denied: boolean;
  /** GitHub's rate limit refused it, and waiting was past the budget. */
  rateLimited: boolean;
  /** The budget was spent, or the job cancelled (`signal` aborted). */
  stopped: boolean;
  /** One line: status and GitHub's message, at most 300 characters. */
  text: string;
}

/** What a failed GitHub request means for the user. A 403 that is a rate limit is not a missing
 *  permission. */
export function describeGitHubError(error: unknown, signal?: AbortSignal): GitHubErrorView {
  const status = (error as { status?: unknown })?.status;
  const headers = (error as { response?: { headers?: Record<string, unknown> } })?.response
    ?.headers;
  const message = error instanceof Error ? error.message : String(error);
  const stopped = signal?.aborted === true;
  const rateLimited =
    !stopped &&
    (status === 429 ||
      (status === 403 &&
        (/rate limit/i.test(message) ||
          headers?.['x-ratelimit-remaining'] === '0' ||
          headers?.['retry-after'] !== undefined)));
  const text = `${typeof status === 'number' ? `${status} ` : ''}${message}`
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 300);
  return {
    denied: !rateLimited && !stopped && (status === 401 || status === 403 || status === 404),
    rateLimited,
    stopped,
    text,
  };
}

/** What a publication needs, for its warning when the token may not. */
export interface Permission {
  /** "write issues" */
  may: string;
  /** "issues: write" */
  grant: string;
}

/** The warning for a publication GitHub refused or that ran out of time: what and what to do. */
export function publicationWarning(
  what: string,
  error: unknown,
  permission: Permission,
  signal?: AbortSignal,
): string {
  const view = describeGitHubError(error, signal);
  if (view.stopped)
    return `${what} stopped: the step's ${GITHUB_BUDGET_MS / 60_000} minutes for GitHub are spent (its rate limits) or the job was cancelled; the next run catches up`;
  if (view.rateLimited)
    return `${what} skipped: GitHub's rate limit (${view.text}); the next run catches up`;
  if (view.denied)
    return `${what} skipped: the token may not ${permission.may} (${view.text}); grant ${permission.grant} in the job's permissions — pull requests from forks get a read-only token`;
  return `${what} failed: ${view.text}`;
}
