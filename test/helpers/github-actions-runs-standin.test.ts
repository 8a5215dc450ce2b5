// The workflow runs and artifacts routes of the REST stand-in, driven by the real Octokit and by
// @actions/artifact's own download from another run (what the toolkit does with `findBy`): runs by
// workflow file and head commit, a run's artifacts as GitHub's response schema says, the download's
// 302 to the storage (which never sees the token), 410 once expired, 404 elsewhere, 403 without
// `actions: read`; and the merged pull request of a commit.
import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { getOctokit } from '@actions/github';
import { startArtifactStandin, type ArtifactStandin } from './artifact-standin.js';
import {
  createOpenApiValidator,
  startGitHubApiStandin,
  type GitHubApiStandin,
} from './github-api-standin.js';
import { NODE_24 } from './runner.js';

const TOKEN = 'ghs_runsStandinToken';
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const UPLOADER = fileURLToPath(new URL('../fixtures/upload-artifact.mjs', import.meta.url));
const SUBSET = fileURLToPath(new URL('../fixtures/github-openapi-subset.json', import.meta.url));
const repo = { owner: 'octo-org', repo: 'octo-repo' };
const RUN_IDS = {
  workflowRunBackendId: 'c0ffee00-0000-4000-8000-0000000000a1',
  workflowJobRunBackendId: 'c0ffee00-0000-4000-8000-0000000000a2',
};
const HEAD = 'b'.repeat(40);
const CONTENT = '{"kind":"tenant-scan-plan"}\n';

function child(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      NODE_24,
      args,
      { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, cwd: ROOT },
      (error, stdout, stderr) =>
        resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    return ((await promise) as { status: number }).status;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe('GitHub REST stand-in: workflow runs and artifacts', () => {
  let artifacts: ArtifactStandin;
  let github: GitHubApiStandin;
  let octokit: ReturnType<typeof getOctokit>;
  let dir: string;
  let artifactId: number;

  before(async () => {
    artifacts = await startArtifactStandin();
    github = await startGitHubApiStandin({
      token: TOKEN,
      artifacts,
      pullRequests: [
        {
          number: 36,
          head: { sha: HEAD, ref: 'settings' },
          base: { ref: 'main' },
          merged_at: '2026-05-01T10:00:00Z',
          merge_commit_sha: 'c'.repeat(40),
        },
      ],
    });
    octokit = getOctokit(TOKEN, { baseUrl: github.url });
    dir = await mkdtemp(join(tmpdir(), 'runs-standin-'));
    await writeFile(join(dir, 'tenant-plan.json'), CONTENT);
    const upload = await child(
      [UPLOADER, 'tenant-plan.json', join(dir, 'tenant-plan.json'), dir, 'true'],
      { ...artifacts.runtimeEnv(RUN_IDS), GITHUB_SERVER_URL: 'https://github.com' },
    );
    assert.equal(upload.code, 0, upload.stderr);
    artifactId = (artifacts.finalized()[0]?.id ?? 0) as number;
    github.seedWorkflowRun({
      id: 9001,
      path: '.github/workflows/tenant-settings.yml',
      head_sha: HEAD,
      event: 'pull_request',
      backendRunId: RUN_IDS.workflowRunBackendId,
      pullRequests: [36],
    });
    github.seedWorkflowRun({
      id: 9003,
      path: '.github/workflows/tenant-settings.yml',
      head_sha: 'e'.repeat(40),
      event: 'pull_request',
      backendRunId: 'a-later-run',
      created_at: '2026-05-02T09:00:00Z',
    });
    github.seedWorkflowRun({
      id: 9002,
      path: '.github/workflows/other.yml',
      head_sha: HEAD,
      event: 'pull_request',
      backendRunId: 'elsewhere',
    });
  });
  after(async () => {
    await Promise.all([
      artifacts.close(),
      github.close(),
      rm(dir, { recursive: true, force: true }),
    ]);
  });

  test('the merged pull request of a commit; runs of a workflow by its file and head commit', async () => {
    const pulls = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: 'c'.repeat(40),
    });
    assert.deepEqual(
      pulls.data.map((p) => [p.number, p.head.sha, p.merged_at]),
      [[36, HEAD, '2026-05-01T10:00:00Z']],
    );
    const none = await octokit.rest.repos.listPullRequestsAssociatedWithCommit({
      ...repo,
      commit_sha: 'd'.repeat(40),
    });
    assert.deepEqual(none.data, []);
    const runs = await octokit.rest.actions.listWorkflowRuns({
      ...repo,
      workflow_id: 'tenant-settings.yml',
      head_sha: HEAD,
      event: 'pull_request',
    });
    assert.deepEqual(
      runs.data.workflow_runs.map((r) => [r.id, r.path, r.head_repository?.full_name]),
      [[9001, '.github/workflows/tenant-settings.yml', 'octo-org/octo-repo']],
    );
    const byId = await octokit.rest.actions.listWorkflowRuns({
      ...repo,
      workflow_id: runs.data.workflow_runs[0]?.workflow_id ?? 0,
    });
    assert.deepEqual(
      byId.data.workflow_runs.map((r) => r.id),
      [9003, 9001],
      'newest first',
    );
    assert.equal(
      await statusOf(octokit.rest.actions.listWorkflowRuns({ ...repo, workflow_id: 'nope.yml' })),
      404,
    );
  });

  test("a run's artifacts answer as GitHub's schema says, with the digest of their bytes", async () => {
    const listed = await octokit.rest.actions.listWorkflowRunArtifacts({
      ...repo,
      run_id: 9001,
      name: 'tenant-plan.json',
    });
    assert.equal(listed.data.total_count, 1);
    const [artifact] = listed.data.artifacts;
    assert.equal(artifact?.digest, `sha256:${createHash('sha256').update(CONTENT).digest('hex')}`);
    assert.equal(artifact?.workflow_run?.head_sha, HEAD);
    const subset = JSON.parse(await readFile(SUBSET, 'utf8')) as {
      operations: Record<string, { responseSchema: object }>;
    };
    const validate = createOpenApiValidator()(
      subset.operations['actions/list-workflow-run-artifacts']?.responseSchema ?? {},
    );
    assert.ok(validate(listed.data), JSON.stringify(validate.errors));
    const other = await octokit.rest.actions.listWorkflowRunArtifacts({ ...repo, run_id: 9002 });
    assert.equal(other.data.total_count, 0);
    assert.equal(
      await statusOf(octokit.rest.actions.listWorkflowRunArtifacts({ ...repo, run_id: 1 })),
      404,
    );
  });

  test('a download is a 302 to the storage, which serves the bytes without the token', async () => {
    const answer = await octokit.rest.actions.downloadArtifact({
      ...repo,
      artifact_id: artifactId,
      archive_format: 'zip',
      request: { redirect: 'manual' },
    });
    assert.equal(answer.status, 302);
    const location = String(answer.headers.location);
    const bytes = await fetch(location);
    assert.equal(bytes.status, 200);
    assert.equal(await bytes.text(), CONTENT);
    const fetched = artifacts.requests.filter((r) =>
      r.path.startsWith('/artifactstandin/download/'),
    );
    assert.ok(fetched.length > 0 && fetched.every((r) => r.headers.authorization === undefined));
    assert.equal((await fetch(location.replace(/sig=[^&]+/, 'sig=forged'))).status, 403);
    const tar = octokit.rest.actions.downloadArtifact({
      ...repo,
      artifact_id: artifactId,
      archive_format: 'tar',
    });
    assert.equal(await statusOf(tar), 404);
    const elsewhere = octokit.rest.actions.downloadArtifact({
      owner: 'someone',
      repo: 'else',
      artifact_id: artifactId,
      archive_format: 'zip',
    });
    assert.equal(await statusOf(elsewhere), 404);
  });

  test("@actions/artifact's own download from another run takes it, with its digest", async () => {
    const script = `import { DefaultArtifactClient } from '@actions/artifact';
const [id, token, path, digest] = process.argv.slice(1);
const result = await new DefaultArtifactClient().downloadArtifact(Number(id), {
  path, expectedHash: digest,
  findBy: { token, workflowRunId: 9001, repositoryOwner: 'octo-org', repositoryName: 'octo-repo' },
});
console.log('RESULT ' + JSON.stringify(result));`;
    const out = join(dir, 'out');
    const digest = `sha256:${createHash('sha256').update(CONTENT).digest('hex')}`;
    const result = await child(
      ['--input-type=module', '-e', script, String(artifactId), TOKEN, out, digest],
      {
        GITHUB_API_URL: github.url,
        GITHUB_SERVER_URL: 'https://github.com',
      },
    );
    assert.equal(result.code, 0, result.stderr + result.stdout);
    assert.match(result.stdout, /RESULT \{"downloadPath":"[^"]+","digestMismatch":false\}/);
    assert.equal(await readFile(join(out, 'tenant-plan.json'), 'utf8'), CONTENT);
  });

  test('expired: 410; without actions: read, 403', async () => {
    const run = github.workflowRuns.find((r) => r.id === 9001);
    assert.ok(run);
    run.expiredArtifacts = [artifactId];
    const expired = octokit.rest.actions.downloadArtifact({
      ...repo,
      artifact_id: artifactId,
      archive_format: 'zip',
    });
    assert.equal(await statusOf(expired), 410);
    run.expiredArtifacts = [];
    const reader = await startGitHubApiStandin({ artifacts, actionsRead: false });
    try {
      const denied = getOctokit(TOKEN, {
        baseUrl: reader.url,
      }).rest.actions.listWorkflowRunArtifacts({ ...repo, run_id: 9001 });
      assert.equal(await statusOf(denied), 403);
    } finally {
      await reader.close();
    }
  });
});
