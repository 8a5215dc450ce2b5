import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/extract-github-schemas.mjs', import.meta.url));
const SUBSET = fileURLToPath(new URL('../fixtures/github-openapi-subset.json', import.meta.url));
const OPERATIONS = [
  ['checks/create', 'post', '/repos/{owner}/{repo}/check-runs'],
  ['checks/update', 'patch', '/repos/{owner}/{repo}/check-runs/{check_run_id}'],
  ['issues/create-comment', 'post', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['issues/update-comment', 'patch', '/repos/{owner}/{repo}/issues/comments/{comment_id}'],
  ['issues/list-comments', 'get', '/repos/{owner}/{repo}/issues/{issue_number}/comments'],
  ['issues/list-for-repo', 'get', '/repos/{owner}/{repo}/issues'],
  ['issues/create', 'post', '/repos/{owner}/{repo}/issues'],
  ['issues/update', 'patch', '/repos/{owner}/{repo}/issues/{issue_number}'],
  ['pulls/get', 'get', '/repos/{owner}/{repo}/pulls/{pull_number}'],
  ['actions/get-repo-public-key', 'get', '/repos/{owner}/{repo}/actions/secrets/public-key'],
  [
    'actions/create-or-update-repo-secret',
    'put',
    '/repos/{owner}/{repo}/actions/secrets/{secret_name}',
  ],
  [
    'actions/get-environment-public-key',
    'get',
    '/repos/{owner}/{repo}/environments/{environment_name}/secrets/public-key',
  ],
  [
    'actions/create-or-update-environment-secret',
    'put',
    '/repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}',
  ],
  ['actions/get-repo-secret', 'get', '/repos/{owner}/{repo}/actions/secrets/{secret_name}'],
  [
    'actions/get-environment-secret',
    'get',
    '/repos/{owner}/{repo}/environments/{environment_name}/secrets/{secret_name}',
  ],
  ['actions/get-org-public-key', 'get', '/orgs/{org}/actions/secrets/public-key'],
  ['actions/create-or-update-org-secret', 'put', '/orgs/{org}/actions/secrets/{secret_name}'],
  ['actions/get-org-secret', 'get', '/orgs/{org}/actions/secrets/{secret_name}'],
  [
    'actions/list-selected-repos-for-org-secret',
    'get',
    '/orgs/{org}/actions/secrets/{secret_name}/repositories',
  ],
  ['repos/get-content', 'get', '/repos/{owner}/{repo}/contents/{path}'],
  ['search/issues-and-pull-requests', 'get', '/search/issues'],
  [
    'repos/list-pull-requests-associated-with-commit',
    'get',
    '/repos/{owner}/{repo}/commits/{commit_sha}/pulls',
  ],
  [
    'actions/list-workflow-runs',
    'get',
    '/repos/{owner}/{repo}/actions/workflows/{workflow_id}/runs',
  ],
  [
    'actions/list-workflow-run-artifacts',
    'get',
    '/repos/{owner}/{repo}/actions/runs/{run_id}/artifacts',
  ],
  [
    'actions/download-artifact',
    'get',
    '/repos/{owner}/{repo}/actions/artifacts/{artifact_id}/{archive_format}',
  ],
] as const;

function run(args: string[]): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], (error, _stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stderr });
    });
  });
}

/** A miniature OpenAPI description with the operations the script picks, and one it must not. */
function miniDescription() {
  const paths: Record<string, Record<string, unknown>> = {
    '/unrelated': { get: { operationId: 'meta/root', responses: { 200: {} } } },
  };
  for (const [operationId, method, path] of OPERATIONS) {
    paths[path] = {
      ...paths[path],
      [method]: {
        operationId,
        description: 'long prose that the fixture does not need',
        parameters: [{ name: 'owner', in: 'path', required: true, schema: { type: 'string' } }],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                description: 'dropped',
                properties: { title: { type: 'string', description: 'dropped', maxLength: 9 } },
              },
            },
          },
        },
        responses:
          operationId === 'actions/download-artifact'
            ? { 302: { description: 'to the storage' }, 410: { description: 'gone' } }
            : { [method === 'post' ? '201' : '200']: { description: 'ok' } },
      },
    };
  }
  return { info: { version: '1.0.0-test' }, paths };
}

describe('scripts/extract-github-schemas.mjs', () => {
  test('picks the operations by operationId and drops documentation prose', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'extract-'));
    try {
      const input = join(dir, 'api.json');
      const output = join(dir, 'subset.json');
      await writeFile(input, JSON.stringify(miniDescription()));
      const result = await run([input, output]);
      assert.equal(result.code, 0, result.stderr);
      const subset = JSON.parse(await readFile(output, 'utf8'));
      assert.deepEqual(
        Object.keys(subset.operations),
        OPERATIONS.map(([id]) => id),
      );
      const create = subset.operations['checks/create'];
      assert.equal(create.method, 'POST');
      assert.equal(create.successStatus, 201);
      // A download answers with a redirect: its success is the 302.
      assert.equal(subset.operations['actions/download-artifact'].successStatus, 302);
      assert.deepEqual(create.requestBody, {
        type: 'object',
        properties: { title: { type: 'string', maxLength: 9 } },
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the committed fixture holds the limits GitHub enforces', async () => {
    const subset = JSON.parse(await readFile(SUBSET, 'utf8'));
    const output = subset.operations['checks/update'].requestBody.properties.output;
    assert.equal(output.properties.annotations.maxItems, 50);
    assert.equal(output.properties.summary.maxLength, 65535);
    assert.deepEqual(output.properties.annotations.items.properties.annotation_level.enum, [
      'notice',
      'warning',
      'failure',
    ]);
    assert.match(subset.source, /^@octokit\/openapi /);
  });
});
