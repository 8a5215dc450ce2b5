// The plan reviewed in the pull request that a push to the default branch merged, found through
// GitHub's API: the merged pull request of the pushed commit, the runs of this very workflow on its
// head commit, the plan artifact of the newest such run, its download (a redirect to GitHub's
// storage, fetched without the token, bounded in size and time). An artifact is taken as ours only
// when GitHub says the run is of this repository's workflow file, on that head, from this
// repository (not a fork's), and the bytes have the digest GitHub gives; the plan itself is then
// checked against the file and the tenant (pipeline/tenant-settings/plan-check.ts).

import { createHash } from 'node:crypto';
import {
  MAX_SAVED_PLAN_BYTES,
  parseSavedPlan,
  PlanFileError,
  type SavedPlan,
} from '../../pipeline/tenant-settings/saved-plan.js';
import { createGitHubClient, describeGitHubError, type Octokit } from '../github-client.js';
import type { TrackingLog } from '../tracking/site.js';

/** How many of the head's runs are looked at (newest first) for the plan. */
const MAX_RUNS = 20;
/** The download of the plan from GitHub's storage, whole. */
const DOWNLOAD_MS = 60_000;

export interface ReviewedPlanRequest {
  token: string;
  owner: string;
  repo: string;
  /** The pushed commit (GITHUB_SHA). */
  sha: string;
  /** This workflow's file (from GITHUB_WORKFLOW_REF), e.g. .github/workflows/tenant-settings.yml. */
  workflowPath: string;
  /** The plan artifact's name (the settings sub-action's `plan-artifact`). */
  artifactName: string;
  signal?: AbortSignal;
}

export interface ReviewedPlan {
  plan: SavedPlan;
  pullNumber: number;
  runId: number;
}

/** Why no reviewed plan can be applied: one line, with what to do. */
export class NoReviewedPlan extends Error {
  override name = 'NoReviewedPlan';
}

const LATEST = 'set apply: latest to plan again and apply instead';

interface Site {
  octokit: Octokit;
  owner: string;
  repo: string;
}

export async function fetchReviewedPlan(
  request: ReviewedPlanRequest,
  log: TrackingLog,
): Promise<ReviewedPlan> {
  const github = await createGitHubClient(request.token, { log, signal: request.signal });
  const site = { octokit: github.octokit, owner: request.owner, repo: request.repo };
  try {
    const pull = await mergedPullRequest(site, request.sha);
    const found = await planArtifact(site, request, pull);
    const bytes = await download(site, found.artifactId, github.signal);
    const digest = `sha256:${createHash('sha256').update(bytes).digest('hex')}`;
    if (digest !== found.digest) {
      throw new NoReviewedPlan(
        `the plan artifact of run ${found.runId} does not have the digest GitHub gives it: it is not the plan that run made; plan again in the pull request, or ${LATEST}`,
      );
    }
    const name = `the artifact ${request.artifactName} of run ${found.runId}`;
    return {
      plan: parseSavedPlan(bytes.toString('utf8'), name),
      pullNumber: pull.number,
      runId: found.runId,
    };
  } catch (error) {
    throw explain(error, github.signal);
  }
}

/** A GitHub refusal as what to grant; any other failure as one line. */
function explain(error: unknown, signal: AbortSignal): Error {
  if (error instanceof NoReviewedPlan || error instanceof PlanFileError) return error;
  if (typeof (error as { status?: unknown })?.status !== 'number') {
    const said = error instanceof Error ? error.message : String(error);
    return new NoReviewedPlan(`the reviewed plan could not be downloaded: ${said.slice(0, 300)}`);
  }
  const view = describeGitHubError(error, signal);
  if (view.denied) {
    return new NoReviewedPlan(
      `the token may not read the pull request's workflow runs and artifacts (${view.text}): give the job actions: read and pull-requests: read`,
    );
  }
  return new NoReviewedPlan(`the reviewed plan could not be read from GitHub: ${view.text}`);
}

async function mergedPullRequest(site: Site, sha: string) {
  const { octokit, owner, repo } = site;
  const { data } = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
    owner,
    repo,
    commit_sha: sha,
    per_page: 100,
  });
  const pull = data.find((p) => p.merged_at && p.merge_commit_sha === sha);
  if (!pull) {
    throw new NoReviewedPlan(
      `no pull request was merged as ${sha.slice(0, 12)}: there is no reviewed plan to apply; merge the change through a pull request, or ${LATEST}`,
    );
  }
  if (pull.head.repo?.full_name !== `${owner}/${repo}`) {
    throw new NoReviewedPlan(
      `pull request #${pull.number} came from another repository (${pull.head.repo?.full_name ?? 'a deleted fork'}): a plan made there is not taken; ${LATEST}`,
    );
  }
  return { number: pull.number, head: pull.head.sha };
}

interface FoundArtifact {
  runId: number;
  artifactId: number;
  digest: string;
}

/** The plan artifact of the newest run of this workflow on the pull request's head. */
async function planArtifact(
  site: Site,
  request: ReviewedPlanRequest,
  pull: { number: number; head: string },
): Promise<FoundArtifact> {
  const { octokit, owner, repo } = site;
  const here = `${owner}/${repo}`;
  const { data } = await octokit.rest.actions.listWorkflowRuns({
    owner,
    repo,
    workflow_id: request.workflowPath.split('/').at(-1) ?? request.workflowPath,
    head_sha: pull.head,
    event: 'pull_request',
    per_page: MAX_RUNS,
  });
  const runs = data.workflow_runs
    .filter(
      (run) =>
        run.head_sha === pull.head &&
        run.path === request.workflowPath &&
        run.event === 'pull_request' &&
        run.repository.full_name === here &&
        run.head_repository?.full_name === here,
    )
    .sort((a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id);
  for (const run of runs) {
    const listed = await octokit.rest.actions.listWorkflowRunArtifacts({
      owner,
      repo,
      run_id: run.id,
      name: request.artifactName,
    });
    const artifact = listed.data.artifacts.find(
      (a) =>
        a.name === request.artifactName &&
        !a.expired &&
        a.workflow_run?.id === run.id &&
        a.workflow_run.head_sha === pull.head,
    );
    if (artifact?.digest)
      return { runId: run.id, artifactId: artifact.id, digest: artifact.digest };
  }
  throw new NoReviewedPlan(
    `no plan of pull request #${pull.number}: no run of ${request.workflowPath} on its head ${pull.head.slice(0, 12)} left an artifact ${request.artifactName} (mode: plan saves it on pull requests; artifacts expire); plan again in the pull request, or ${LATEST}`,
  );
}

/** The artifact's bytes: GitHub answers with a redirect to its storage, which is fetched without
 *  the token, within MAX_SAVED_PLAN_BYTES and DOWNLOAD_MS. */
async function download(site: Site, artifactId: number, budget: AbortSignal): Promise<Buffer> {
  const { octokit, owner, repo } = site;
  const answer = await octokit.rest.actions.downloadArtifact({
    owner,
    repo,
    artifact_id: artifactId,
    archive_format: 'zip',
    request: { redirect: 'manual' },
  });
  const location = String(answer.headers.location ?? '');
  if ((answer.status as number) !== 302 || !/^https?:\/\//.test(location)) {
    throw new NoReviewedPlan(
      `GitHub gave no address to download the plan artifact from (status ${answer.status})`,
    );
  }
  const signal = AbortSignal.any([budget, AbortSignal.timeout(DOWNLOAD_MS)]);
  const response = await fetch(location, { redirect: 'error', signal });
  if (!response.ok || !response.body) {
    throw new NoReviewedPlan(`the plan artifact's download failed: ${response.status}`);
  }
  return readBounded(response.body, MAX_SAVED_PLAN_BYTES);
}

async function readBounded(body: ReadableStream<Uint8Array>, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.byteLength;
    if (size > max) {
      throw new NoReviewedPlan(
        `the plan artifact is larger than ${max / 1024 / 1024} MiB: it is not a plan`,
      );
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}
