// Pull request status: a check run with every failed finding as an annotation (50 per request, the
// Checks API's limit) and/or one PR comment, updated in place on later runs (found by a hidden
// marker). A token without permission (forks) is a warning, never a failed job. The toolkit's
// GitHub client is loaded only when one of them is enabled.

import type { FindingView } from '../client/types.js';
import type { JobResult } from '../pipeline/types.js';
import { annotationOf, annotationOrder } from './annotations.js';
import type { RunContext } from './event.js';
import { cutChars } from '../formats/markdown.js';

export const CHECK_ANNOTATIONS_PER_REQUEST = 50;
/** The Checks API limits output.summary to 65,535 characters; PR comments to 65,536. */
export const CHECK_SUMMARY_MAX_BYTES = 65_000;
export const CHECK_RUN_NAME = 'Tenant scan';

export interface PrStatusRequest {
  token: string;
  checkRun: boolean;
  prComment: boolean;
  result: JobResult;
  /** Markdown of the verdict (built under CHECK_SUMMARY_MAX_BYTES). */
  summary: string;
  context: RunContext;
}

export interface PrStatusLog {
  info(message: string): void;
  warning(message: string): void;
}

type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

export function commentMarker(key: string): string {
  return `<!-- tenant-scan:${key.replace(/-->/g, '')} -->`;
}

function conclusion(result: JobResult): 'success' | 'failure' | 'neutral' {
  if (result.verdict === 'passed') return 'success';
  return result.failStep ? 'failure' : 'neutral';
}

function title(result: JobResult): string {
  if (result.verdict === 'passed')
    return cutChars(`Passed: ${result.verdictReason ?? 'no failed findings'}`, 200);
  return cutChars(`Failed: ${result.failureReason ?? result.status}`, 200);
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

function describeError(error: unknown): { denied: boolean; text: string } {
  const status = (error as { status?: unknown })?.status;
  const message = error instanceof Error ? error.message : String(error);
  const text = `${typeof status === 'number' ? `${status} ` : ''}${message}`
    .replace(/\s+/g, ' ')
    .trim();
  return { denied: status === 403 || status === 404 || status === 401, text: cutChars(text, 300) };
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
  const body = `${marker}\n${request.summary}`;
  const comments = await octokit.paginate(octokit.rest.issues.listComments, {
    owner,
    repo,
    issue_number: pull,
    per_page: 100,
  });
  const existing = comments.find(
    (comment) => typeof comment.body === 'string' && comment.body.includes(marker),
  );
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
  const { getOctokit } = await import('@actions/github');
  const octokit = getOctokit(request.token);

  if (request.checkRun) {
    if (!sha) {
      log.warning('Check run skipped: no commit (GITHUB_SHA) to attach it to');
    } else {
      try {
        const url = await publishCheckRun(octokit, request, owner, repo, sha);
        log.info(`Check run "${CHECK_RUN_NAME}" published${url ? `: ${url}` : ''}`);
      } catch (error) {
        const { denied, text } = describeError(error);
        log.warning(
          denied
            ? `Check run skipped: the token may not create check runs (${text}); grant checks: write — pull requests from forks get a read-only token`
            : `Check run failed: ${text}`,
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
      const { denied, text } = describeError(error);
      log.warning(
        denied
          ? `PR comment skipped: the token may not write to the pull request (${text}); grant pull-requests: write — pull requests from forks get a read-only token`
          : `PR comment failed: ${text}`,
      );
    }
  }
}
