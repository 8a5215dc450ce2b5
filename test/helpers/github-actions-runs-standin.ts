// The workflow runs and artifacts routes of the GitHub REST stand-in (github-api-standin.ts): the
// runs of a workflow (by its file name or id, filtered by head_sha, event, branch and status, newest
// first, paged), a run's artifacts — those the artifact backend stand-in holds for the run's
// backend id, with the `digest` GitHub gives — and an artifact's download, answered as GitHub
// does: 302 to a signed address of the storage (the token is not needed there), 410 once expired,
// 404 for another repository's. Without `actions: read` the token gets 403.
import { createHash } from 'node:crypto';
import type { ArtifactStandin, StoredArtifact } from './artifact-standin.js';
import { json, type HandlerResult } from './http-server.js';

export type RunsOperationId =
  | 'actions/list-workflow-runs'
  | 'actions/list-workflow-run-artifacts'
  | 'actions/download-artifact';

/** A workflow run as a test seeds it. */
export interface WorkflowRunFixture {
  id: number;
  /** The workflow file, e.g. `.github/workflows/tenant-settings.yml`. */
  path: string;
  head_sha: string;
  head_branch?: string;
  /** e.g. `pull_request`, `push`. */
  event: string;
  status?: string;
  conclusion?: string | null;
  /** The repository the run is of (`owner/name`; default the runner harness's). */
  repository?: string;
  /** The repository of the head commit: a fork's for a pull request from one (default `repository`). */
  headRepository?: string;
  /** The artifact backend's id of the run: its artifacts are those uploaded under it. */
  backendRunId: string;
  /** Pull requests of the run (GitHub lists none for a pull request from a fork). */
  pullRequests?: number[];
  run_attempt?: number;
  created_at?: string;
  /** Artifact ids that have expired (GitHub keeps them listed, `expired: true`, and answers 410). */
  expiredArtifacts?: number[];
}

const DEFAULT_REPOSITORY = 'octo-org/octo-repo';
const MAX_PER_PAGE = 100;

type Params = Record<string, string>;
type Context = { params: Params; query: URLSearchParams; base: string };

function githubError(status: number, message: string): HandlerResult {
  return json(status, {
    message,
    documentation_url: 'https://docs.github.com/rest',
    status: String(status),
  });
}

/** A stable number for a name (a repository's id, a workflow's id). */
function idOf(name: string): number {
  return Number.parseInt(createHash('sha256').update(name).digest('hex').slice(0, 8), 16);
}

function repositoryView(fullName: string, base: string) {
  const [owner = '', name = ''] = fullName.split('/');
  return {
    id: idOf(fullName),
    node_id: `R_${idOf(fullName)}`,
    name,
    full_name: fullName,
    private: true,
    owner: { login: owner, id: idOf(owner), type: 'Organization' },
    html_url: `https://github.com/${fullName}`,
    url: `${base}/repos/${fullName}`,
  };
}

export function createRunsRoutes(artifacts: () => ArtifactStandin | undefined) {
  const runs: WorkflowRunFixture[] = [];

  const repositoryOf = (run: WorkflowRunFixture) => run.repository ?? DEFAULT_REPOSITORY;
  const sameRepository = (run: WorkflowRunFixture, params: Params) =>
    repositoryOf(run) === `${params.owner}/${params.repo}`;

  function runView(run: WorkflowRunFixture, base: string) {
    const repo = repositoryOf(run);
    const created = run.created_at ?? '2026-05-01T09:00:00Z';
    return {
      id: run.id,
      name: 'Tenant settings',
      node_id: `WFR_${run.id}`,
      head_branch: run.head_branch ?? 'settings',
      head_sha: run.head_sha,
      path: run.path,
      display_title: 'Tenant settings',
      run_number: run.id % 1000,
      run_attempt: run.run_attempt ?? 1,
      event: run.event,
      status: run.status ?? 'completed',
      conclusion: run.conclusion === undefined ? 'success' : run.conclusion,
      workflow_id: idOf(`${repo}/${run.path}`),
      url: `${base}/repos/${repo}/actions/runs/${run.id}`,
      html_url: `https://github.com/${repo}/actions/runs/${run.id}`,
      pull_requests: (run.pullRequests ?? []).map((number) => ({ number, id: number })),
      created_at: created,
      updated_at: created,
      run_started_at: created,
      repository: repositoryView(repo, base),
      head_repository: repositoryView(run.headRepository ?? repo, base),
    };
  }

  function artifactsOf(run: WorkflowRunFixture): StoredArtifact[] {
    return (artifacts()?.finalized() ?? []).filter(
      (a) => a.workflowRunBackendId === run.backendRunId,
    );
  }

  function artifactView(artifact: StoredArtifact, run: WorkflowRunFixture, base: string) {
    const repo = repositoryOf(run);
    const url = `${base}/repos/${repo}/actions/artifacts/${artifact.id}`;
    return {
      id: artifact.id,
      node_id: `MDg6QXJ0aWZhY3Q${artifact.id}`,
      name: artifact.name,
      size_in_bytes: artifact.content.length,
      url,
      archive_download_url: `${url}/zip`,
      expired: (run.expiredArtifacts ?? []).includes(artifact.id),
      created_at: artifact.createdAt,
      expires_at: artifact.expiresAt ?? null,
      updated_at: artifact.createdAt,
      digest: `sha256:${artifact.sha256}`,
      workflow_run: {
        id: run.id,
        repository_id: idOf(repo),
        head_repository_id: idOf(run.headRepository ?? repo),
        head_branch: run.head_branch ?? 'settings',
        head_sha: run.head_sha,
      },
    };
  }

  /** The page `query` asks of `items`, with GitHub's Link header. */
  function paged<T>(items: T[], query: URLSearchParams, path: string, base: string) {
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, MAX_PER_PAGE);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const last = Math.max(Math.ceil(items.length / perPage), 1);
    const others = new URLSearchParams(query);
    const link = (p: number, rel: string) => {
      others.set('page', String(p));
      others.set('per_page', String(perPage));
      return `<${base}${path}?${others.toString()}>; rel="${rel}"`;
    };
    const links = [
      ...(page > 1 ? [link(page - 1, 'prev'), link(1, 'first')] : []),
      ...(page < last ? [link(page + 1, 'next'), link(last, 'last')] : []),
    ];
    return {
      items: items.slice((page - 1) * perPage, page * perPage),
      headers: (links.length > 0 ? { link: links.join(', ') } : {}) as Record<string, string>,
    };
  }

  function listWorkflowRuns({ params, query, base }: Context): HandlerResult {
    const workflow = params.workflow_id ?? '';
    const ofWorkflow = runs.filter(
      (run) =>
        sameRepository(run, params) &&
        (/^\d+$/.test(workflow)
          ? idOf(`${repositoryOf(run)}/${run.path}`) === Number(workflow)
          : run.path.split('/').at(-1) === workflow),
    );
    if (ofWorkflow.length === 0) return githubError(404, 'Not Found');
    const status = query.get('status');
    const matching = ofWorkflow
      .filter((run) => !query.get('head_sha') || run.head_sha === query.get('head_sha'))
      .filter((run) => !query.get('event') || run.event === query.get('event'))
      .filter(
        (run) => !query.get('branch') || (run.head_branch ?? 'settings') === query.get('branch'),
      )
      .filter(
        (run) =>
          !status ||
          (run.status ?? 'completed') === status ||
          runView(run, base).conclusion === status,
      )
      .sort((a, b) => (b.created_at ?? '').localeCompare(a.created_at ?? '') || b.id - a.id);
    const path = `/repos/${params.owner}/${params.repo}/actions/workflows/${workflow}/runs`;
    const page = paged(matching, query, path, base);
    return json(
      200,
      { total_count: matching.length, workflow_runs: page.items.map((run) => runView(run, base)) },
      page.headers,
    );
  }

  function listRunArtifacts({ params, query, base }: Context): HandlerResult {
    const run = runs.find((r) => r.id === Number(params.run_id) && sameRepository(r, params));
    if (!run) return githubError(404, 'Not Found');
    const name = query.get('name');
    const listed = artifactsOf(run)
      .filter((a) => name === null || a.name === name)
      .sort((a, b) => b.id - a.id);
    const path = `/repos/${params.owner}/${params.repo}/actions/runs/${run.id}/artifacts`;
    const page = paged(listed, query, path, base);
    return json(
      200,
      { total_count: listed.length, artifacts: page.items.map((a) => artifactView(a, run, base)) },
      page.headers,
    );
  }

  function downloadArtifact({ params }: Context): HandlerResult {
    if (params.archive_format !== 'zip') return githubError(404, 'Not Found');
    const id = Number(params.artifact_id);
    const run = runs.find(
      (r) => sameRepository(r, params) && artifactsOf(r).some((a) => a.id === id),
    );
    if (!run) return githubError(404, 'Not Found');
    if ((run.expiredArtifacts ?? []).includes(id)) return githubError(410, 'Artifact has expired');
    const location = artifacts()?.downloadUrl(id);
    if (!location) return githubError(404, 'Not Found');
    return { status: 302, headers: { location, 'content-length': '0' }, body: '' };
  }

  const handlers: Record<RunsOperationId, (context: Context) => HandlerResult> = {
    'actions/list-workflow-runs': listWorkflowRuns,
    'actions/list-workflow-run-artifacts': listRunArtifacts,
    'actions/download-artifact': downloadArtifact,
  };

  return {
    runs,
    handlers,
    seedRun: (run: WorkflowRunFixture) => {
      runs.push(run);
    },
  };
}
