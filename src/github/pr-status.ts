// Pull request status: a check run with every failed finding as an annotation (50 per request, the
// Checks API's limit) and/or one PR comment, updated in place on later runs: the comment with our
// hidden marker that the token's own account wrote (token-identity.ts) — a comment someone else
// wrote with the marker pasted in is never edited nor its state line believed. A token without
// permission (forks) is a warning, never a failed job.

import type { FindingView } from '../client/index.js';
import type { JobResult } from '../pipeline/job/types.js';
import { annotationOf, annotationOrder } from './annotations.js';
import type { RunContext } from './event.js';
import { cutChars } from '../pipeline/common/markdown.js';
import { headline } from '../pipeline/output/headline.js';
import { publicationWarning, type GitHubClient, type Octokit } from './github-client.js';
import { writtenBy } from './token-identity.js';
import { changeLine, readRunState, runState, stateLine } from './state-line.js';
import { buildComment, type CommentInput } from './pr-comment.js';

export const CHECK_ANNOTATIONS_PER_REQUEST = 50;
/** The Checks API limits output.summary to 65,535 characters: the check run's summary stays under
 *  it (the PR comment is a short one of its own: pr-comment.ts). */
export const CHECK_SUMMARY_MAX_BYTES = 58_000;
export const CHECK_RUN_NAME = 'Tenant scan';

export interface PrStatusRequest {
  github: GitHubClient;
  checkRun: boolean;
  prComment: boolean;
  result: JobResult;
  /** Markdown of the verdict for the check run (built under CHECK_SUMMARY_MAX_BYTES). */
  summary: string;
  /** What the PR comment shows besides the result and what changed (pr-comment.ts). */
  comment: Omit<CommentInput, 'result' | 'changed'>;
  context: RunContext;
}

export interface PrStatusLog {
  info(message: string): void;
  warning(message: string): void;
}

export function commentMarker(key: string): string {
  return `<!-- tenant-scan:${key.replace(/-->/g, '')} -->`;
}

/** The change line names three checks at most, each cut to 40 characters: a comment stays short. */
const COMMENT_NAMES_SHOWN = { count: 3, chars: 40 };

function conclusion(result: JobResult): 'success' | 'failure' | 'neutral' {
  if (result.verdict === 'passed') return 'success';
  return result.failStep ? 'failure' : 'neutral';
}

/** The check run's title: the summary's one-line headline, word for word. */
function title(result: JobResult): string {
  return cutChars(headline(result), 200);
}

function checkAnnotation(finding: FindingView, path: string) {
  const annotation = annotationOf(finding);
  const level = annotation.level === 'error' ? 'failure' : annotation.level;
  return {
    path,
    start_line: 1,
    end_line: 1,
    annotation_level: level as 'failure' | 'warning' | 'notice',
    title: annotation.title,
    message: annotation.message,
  };
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function publishCheckRun(
  octokit: Octokit,
  request: PrStatusRequest,
  owner: string,
  repo: string,
  sha: string,
) {
  const { result, context } = request;
  const annotations = annotationOrder(result.findings).map((finding) =>
    checkAnnotation(finding, context.workflowPath),
  );
  const batches = chunks(annotations, CHECK_ANNOTATIONS_PER_REQUEST);
  const output = { title: title(result), summary: request.summary };
  const created = await octokit.rest.checks.create({
    owner,
    repo,
    name: CHECK_RUN_NAME,
    head_sha: sha,
    status: 'completed',
    conclusion: conclusion(result),
    output: { ...output, annotations: batches[0] ?? [] },
  });
  for (const batch of batches.slice(1)) {
    await octokit.rest.checks.update({
      owner,
      repo,
      check_run_id: created.data.id,
      output: { ...output, annotations: batch },
    });
  }
  return created.data.html_url ?? undefined;
}

async function publishComment(
  octokit: Octokit,
  request: PrStatusRequest,
  owner: string,
  repo: string,
  pull: number,
) {
  const marker = commentMarker(request.context.commentKey);
  const identity = await request.github.identity();
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: pull,
    per_page: 100,
  });
  const existing = comments.find(
    (comment) =>
      writtenBy(comment.user, identity) &&
      typeof comment.body === 'string' &&
      comment.body.startsWith(`${marker}\n`),
  );
  const state = runState(request.result);
  const changed = existing
    ? changeLine(
        'Since the last comment',
        readRunState(existing.body ?? ''),
        state,
        request.result,
        COMMENT_NAMES_SHOWN,
      )
    : '';
  const comment = buildComment({ ...request.comment, result: request.result, changed });
  const body = `${marker}\n${stateLine(state)}\n${comment}\n`;
  if (existing) {
    await octokit.rest.issues.updateComment({ owner, repo, comment_id: existing.id, body });
    return 'updated';
  }
  await octokit.rest.issues.createComment({ owner, repo, issue_number: pull, body });
  return 'created';
}

export async function publishPrStatus(request: PrStatusRequest, log: PrStatusLog): Promise<void> {
  const { owner, repo, sha, pullNumber } = request.context;
  if (!owner || !repo) {
    log.warning('PR status skipped: GITHUB_REPOSITORY is not set');
    return;
  }
  const { octokit, signal } = request.github;

  if (request.checkRun) {
    if (!sha) {
      log.warning('Check run skipped: no commit (GITHUB_SHA) to attach it to');
    } else {
      try {
        const url = await publishCheckRun(octokit, request, owner, repo, sha);
        log.info(`Check run "${CHECK_RUN_NAME}" published${url ? `: ${url}` : ''}`);
      } catch (error) {
        log.warning(
          publicationWarning(
            'Check run',
            error,
            { may: 'create check runs', grant: 'checks: write' },
            signal,
          ),
        );
      }
    }
  }

  if (request.prComment) {
    if (pullNumber === undefined) {
      log.info('PR comment skipped: this run is not for a pull request');
      return;
    }
    try {
      const done = await publishComment(octokit, request, owner, repo, pullNumber);
      log.info(`PR comment ${done} on #${pullNumber}`);
    } catch (error) {
      log.warning(
        publicationWarning(
          'PR comment',
          error,
          { may: 'write to the pull request', grant: 'pull-requests: write' },
          signal,
        ),
      );
    }
  }
}
