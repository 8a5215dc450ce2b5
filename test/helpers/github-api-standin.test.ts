import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { getOctokit } from '@actions/github';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  createOpenApiValidator,
  startGitHubApiStandin,
  type CheckRunAnnotation,
  type GitHubApiStandin,
} from './github-api-standin.js';

const TOKEN = 'ghs_standinTestToken';
const SUBSET = fileURLToPath(new URL('../fixtures/github-openapi-subset.json', import.meta.url));
const repo = { owner: 'octo-org', repo: 'octo-repo' };

function annotations(count: number, level = 'failure'): CheckRunAnnotation[] {
  return Array.from({ length: count }, (_, i) => ({
    path: 'tenant',
    start_line: 1,
    end_line: 1,
    annotation_level: level as CheckRunAnnotation['annotation_level'],
    message: `finding ${i + 1}`,
  }));
}

async function statusOf(promise: Promise<unknown>): Promise<number> {
  try {
    await promise;
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
}

describe('GitHub REST stand-in with the real Octokit', () => {
  let standin: GitHubApiStandin;
  let octokit: ReturnType<typeof getOctokit>;

  before(async () => {
    standin = await startGitHubApiStandin({
      token: TOKEN,
      pullRequests: [{ number: 7, head: { sha: 'abc', ref: 'feature' }, base: { ref: 'main' } }],
    });
    octokit = getOctokit(TOKEN, { baseUrl: standin.url });
  });
  after(() => standin.close());

  test('a check run takes 50 annotations per call and appends those of updates', async () => {
    const created = await octokit.rest.checks.create({
      ...repo,
      name: 'tenant-scan',
      head_sha: 'abc',
      status: 'in_progress',
      output: { title: 'Scan', summary: 'running', annotations: annotations(50) },
    });
    assert.equal(created.status, 201);
    const updated = await octokit.rest.checks.update({
      ...repo,
      check_run_id: created.data.id,
      conclusion: 'failure',
      output: { title: 'Scan', summary: 'failed', annotations: annotations(7, 'warning') },
    });
    assert.equal(updated.data.status, 'completed');
    const [run] = standin.checkRuns;
    assert.equal(run?.annotations.length, 57);
    assert.equal(run?.output.summary, 'failed');
    assert.equal(run?.conclusion, 'failure');
    assert.equal(run?.calls, 2);
  });

  test('answers 422 where GitHub does: 51 annotations, unknown level, summary over 65,535', async () => {
    const create = (output: object) =>
      statusOf(
        octokit.rest.checks.create({ ...repo, name: 'n', head_sha: 'abc', output } as never),
      );
    assert.equal(await create({ title: 't', summary: 's', annotations: annotations(51) }), 422);
    assert.equal(
      await create({ title: 't', summary: 's', annotations: annotations(1, 'error') }),
      422,
    );
    assert.equal(await create({ title: 't', summary: 'x'.repeat(65_536) }), 422);
    assert.equal(await create({ title: 't', summary: 'x'.repeat(65_535) }), 200);
    const refused = standin.requestsFor('checks/create').filter((r) => r.status === 422);
    assert.equal(refused.length, 3);
    assert.deepEqual(
      refused.map(
        (r) =>
          /must NOT have more than 50 items|must be equal to one of|must NOT have more than 65535 characters/.exec(
            (r.validationErrors ?? []).join('\n'),
          )?.[0],
      ),
      [
        'must NOT have more than 50 items',
        'must be equal to one of',
        'must NOT have more than 65535 characters',
      ],
    );
  });

  test('GitHub rules beyond the schema: comment body limit, unknown head SHA', async () => {
    const body = (length: number) => ({ ...repo, issue_number: 11, body: 'x'.repeat(length) });
    assert.equal(await statusOf(octokit.rest.issues.createComment(body(65_537))), 422);
    assert.equal(await statusOf(octokit.rest.issues.createComment(body(65_536))), 200);
    const strict = await startGitHubApiStandin({ knownShas: ['abc'] });
    try {
      const client = getOctokit(TOKEN, { baseUrl: strict.url });
      const create = (head_sha: string) =>
        statusOf(client.rest.checks.create({ ...repo, name: 'n', head_sha }));
      assert.equal(await create('merge-commit-sha'), 422);
      assert.equal(await create('abc'), 200);
    } finally {
      await strict.close();
    }
    standin.comments.delete(11);
  });

  test('comments: create, update in place, list with pagination', async () => {
    for (let i = 0; i < 34; i++) standin.seedComment(7, `old ${i}`, 'someone');
    const created = await octokit.rest.issues.createComment({
      ...repo,
      issue_number: 7,
      body: 'v1',
    });
    assert.equal(created.data.user?.login, 'github-actions[bot]');
    await octokit.rest.issues.updateComment({ ...repo, comment_id: created.data.id, body: 'v2' });
    const all = await octokit.paginate(octokit.rest.issues.listComments, {
      ...repo,
      issue_number: 7,
      per_page: 10,
    });
    assert.equal(all.length, 35);
    assert.equal(all.at(-1)?.body, 'v2');
    assert.equal(standin.requestsFor('issues/list-comments').length, 4);
    assert.equal(standin.comments.get(7)?.length, 35);
  });

  test('pulls/get serves the configured pull requests and 404s others', async () => {
    const pull = await octokit.rest.pulls.get({ ...repo, pull_number: 7 });
    assert.equal(pull.data.head.sha, 'abc');
    assert.equal(await statusOf(octokit.rest.pulls.get({ ...repo, pull_number: 8 })), 404);
  });

  test('records the authorization header; wrong or missing tokens get 401', async () => {
    assert.ok(standin.requests.every((r) => r.headers.authorization === `token ${TOKEN}`));
    const other = getOctokit('ghs_other', { baseUrl: standin.url });
    assert.equal(await statusOf(other.rest.pulls.get({ ...repo, pull_number: 7 })), 401);
    const anonymous = await fetch(`${standin.url}/repos/o/r/pulls/7`, {
      headers: { 'user-agent': 'x' },
    });
    assert.equal(anonymous.status, 401);
  });

  test("every successful answer so far validates against GitHub's response schema", () => {
    const subset = JSON.parse(readFileSync(SUBSET, 'utf8')) as {
      operations: Record<string, { responseSchema: object | null }>;
    };
    const compile = createOpenApiValidator();
    const answered = standin.requests.filter(
      (r) => r.operationId && r.operationId !== 'pulls/get' && (r.status ?? 0) < 300,
    );
    assert.ok(answered.length >= 8);
    const operations = new Set<string>();
    for (const request of answered) {
      const schema = subset.operations[request.operationId as string]?.responseSchema;
      assert.ok(schema, request.operationId);
      const validate = compile(schema);
      const valid = validate(JSON.parse(request.responseBody ?? ''));
      assert.ok(valid, `${request.operationId}: ${JSON.stringify(validate.errors)}`);
      operations.add(request.operationId as string);
    }
    assert.equal(operations.size, 5);
  });

  test('injected failures are answered once, then normal service resumes', async () => {
    standin.failNext('issues/create-comment', { status: 502, body: { message: 'Server Error' } });
    const body = { ...repo, issue_number: 9, body: 'x' };
    assert.equal(await statusOf(octokit.rest.issues.createComment(body)), 502);
    assert.equal(await statusOf(octokit.rest.issues.createComment(body)), 200);
  });
});

describe('GitHub REST stand-in with a read-only (fork) token', () => {
  let standin: GitHubApiStandin;
  before(async () => {
    standin = await startGitHubApiStandin({ permission: 'read' });
  });
  after(() => standin.close());

  test('writes get 403 "Resource not accessible by integration"; reads work', async () => {
    const octokit = getOctokit('ghs_fork', { baseUrl: standin.url });
    standin.seedComment(3, 'hello');
    const error = await octokit.rest.issues
      .createComment({ ...repo, issue_number: 3, body: 'x' })
      .then(
        () => undefined,
        (e: { status: number; message: string }) => e,
      );
    assert.equal(error?.status, 403);
    assert.match(error?.message ?? '', /^Resource not accessible by integration/);
    const checks = await statusOf(
      octokit.rest.checks.create({ ...repo, name: 'n', head_sha: 'abc' }),
    );
    assert.equal(checks, 403);
    const listed = await octokit.rest.issues.listComments({ ...repo, issue_number: 3 });
    assert.equal(listed.data.length, 1);
    assert.equal(standin.checkRuns.length, 0);
  });
});

describe('GitHub stand-in: who a token acts as, and what it wrote', () => {
  let standin: GitHubApiStandin;
  const app = { login: 'scan-app[bot]', id: 5550001, type: 'Bot' } as const;
  const pat = { login: 'octocat', id: 583231, type: 'User' } as const;
  before(async () => {
    standin = await startGitHubApiStandin({
      accounts: { ghs_app: app, ghp_user: pat },
      files: { abc123: { '.tenant-scan/waivers.yml': 'waivers: []\n' } },
    });
  });
  after(() => standin.close());

  test('GraphQL viewer names the account of each kind of token', async () => {
    for (const [token, login, id] of [
      ['ghs_workflow', 'github-actions[bot]', 41898282],
      ['ghs_app', app.login, app.id],
      ['ghp_user', pat.login, pat.id],
    ] as const) {
      const octokit = getOctokit(token, { baseUrl: standin.url });
      const answer = await octokit.graphql<{ viewer: { login: string; databaseId: number } }>(
        'query { viewer { login databaseId } }',
      );
      assert.deepEqual(answer.viewer, { login, databaseId: id });
    }
    const other = getOctokit('ghs_workflow', { baseUrl: standin.url });
    await assert.rejects(other.graphql('query { repository { id } }'), /viewer/);
  });

  test('issues and comments carry the account that wrote them; creator filters the list', async () => {
    const asApp = getOctokit('ghs_app', { baseUrl: standin.url });
    const asUser = getOctokit('ghp_user', { baseUrl: standin.url });
    const mine = await asApp.rest.issues.create({ ...repo, title: 'ours', labels: ['t'] });
    await asUser.rest.issues.create({ ...repo, title: 'theirs', labels: ['t'] });
    assert.equal(mine.data.user?.login, app.login);
    assert.equal(mine.data.user?.id, app.id);
    const listed = await asApp.rest.issues.listForRepo({
      ...repo,
      labels: 't',
      creator: app.login,
    });
    assert.deepEqual(
      listed.data.map((i) => i.title),
      ['ours'],
    );
    const comment = await asUser.rest.issues.createComment({ ...repo, issue_number: 7, body: 'x' });
    assert.equal(comment.data.user?.id, pat.id);
    assert.equal(standin.seedComment(7, 'y', 'mallory').user.login, 'mallory');
  });

  test('repository contents at a commit, base64 as GitHub sends it; 404 elsewhere', async () => {
    const octokit = getOctokit('ghs_workflow', { baseUrl: standin.url });
    const file = await octokit.rest.repos.getContent({
      ...repo,
      path: '.tenant-scan/waivers.yml',
      ref: 'abc123',
    });
    const data = file.data as { type: string; content: string; encoding: string };
    assert.equal(data.type, 'file');
    assert.equal(Buffer.from(data.content, 'base64').toString('utf8'), 'waivers: []\n');
    const missing = octokit.rest.repos.getContent({ ...repo, path: 'nope.yml', ref: 'abc123' });
    assert.equal(await statusOf(missing), 404);
  });
});
