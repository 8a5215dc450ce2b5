import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  DEFAULT_BACKEND_IDS,
  startArtifactStandin,
  unsignedRuntimeToken,
  type ArtifactStandin,
} from './artifact-standin.js';
import { NODE_24 } from './runner.js';

const UPLOADER = fileURLToPath(new URL('../fixtures/upload-artifact.mjs', import.meta.url));
const CANARY_KEY = 'tsk_canary_0123456789abcdef';

interface ChildResult {
  code: number;
  stdout: string;
  stderr: string;
}

function runUploader(standin: ArtifactStandin, args: string[]): Promise<ChildResult> {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...standin.runtimeEnv(),
    GITHUB_SERVER_URL: 'https://github.com',
    // a secret in the child's environment that must never reach the artifact backend
    INPUT_API_KEY: CANARY_KEY,
  };
  return new Promise((resolve) => {
    execFile(NODE_24, [UPLOADER, ...args], { env }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Deletes an artifact by name with the real client, as the Action does on a re-run. */
function runDeleter(standin: ArtifactStandin, name: string): Promise<ChildResult> {
  const script = `import { DefaultArtifactClient } from '@actions/artifact';
const result = await new DefaultArtifactClient().deleteArtifact(process.argv[1]);
console.log('RESULT ' + JSON.stringify(result));`;
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...standin.runtimeEnv(),
  };
  return new Promise((resolve) => {
    execFile(
      NODE_24,
      ['--input-type=module', '-e', script, name],
      { env, cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      (error, stdout, stderr) => {
        resolve({ code: error ? ((error.code as number) ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

async function twirp(
  standin: ArtifactStandin,
  method: string,
  body: Record<string, unknown>,
  ids = DEFAULT_BACKEND_IDS,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(
    `${standin.url}/twirp/github.actions.results.api.v1.ArtifactService/${method}`,
    {
      method: 'POST',
      body: JSON.stringify({
        workflow_run_backend_id: ids.workflowRunBackendId,
        workflow_job_run_backend_id: ids.workflowJobRunBackendId,
        ...body,
      }),
      headers: { authorization: `Bearer ${unsignedRuntimeToken(ids)}` },
    },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const OTHER_RUN = { workflowRunBackendId: 'other-run', workflowJobRunBackendId: 'other-job' };

function parseResult(stdout: string): { id: number; size: number; digest: string } {
  const line = stdout.split('\n').find((l) => l.startsWith('RESULT '));
  assert.ok(line, `no RESULT line in:\n${stdout}`);
  return JSON.parse(line.slice('RESULT '.length));
}

describe('artifact stand-in with the real @actions/artifact client', () => {
  let standin: ArtifactStandin;
  let root: string;

  before(async () => {
    standin = await startArtifactStandin();
    root = await mkdtemp(join(tmpdir(), 'artifact-standin-'));
  });
  after(async () => {
    await standin.close();
    await rm(root, { recursive: true, force: true });
  });

  test('skipArchive upload stores the file under its own name, bytes, hash and MIME type', async () => {
    const content = Buffer.from('%PDF-1.7\nfake report body\n%%EOF\n');
    const file = join(root, 'tenant-report.pdf');
    await writeFile(file, content);
    const child = await runUploader(standin, ['ignored-name', file, root, 'true']);
    assert.equal(child.code, 0, child.stderr);
    const result = parseResult(child.stdout);
    const [artifact] = standin.finalized();
    assert.ok(artifact);
    assert.equal(artifact.name, 'tenant-report.pdf');
    assert.equal(artifact.id, result.id);
    assert.deepEqual(artifact.content, content);
    const sha256 = createHash('sha256').update(content).digest('hex');
    assert.equal(artifact.sha256, sha256);
    assert.equal(artifact.declaredHash, `sha256:${sha256}`);
    assert.equal(artifact.declaredSize, content.length);
    assert.equal(artifact.mimeType, 'application/pdf');
    assert.equal(artifact.blobContentType, 'application/pdf');
    assert.equal(artifact.workflowRunBackendId, DEFAULT_BACKEND_IDS.workflowRunBackendId);
  });

  test('records every request; the runtime token goes to Twirp only, no secret anywhere', () => {
    const twirp = standin.requests.filter((r) => r.path.startsWith('/twirp/'));
    const blob = standin.requests.filter((r) => !r.path.startsWith('/twirp/'));
    assert.deepEqual(
      twirp.map((r) => r.path.split('/').pop()),
      ['CreateArtifact', 'FinalizeArtifact'],
    );
    assert.ok(blob.some((r) => r.url.includes('comp=block&')));
    assert.ok(blob.some((r) => r.url.includes('comp=blocklist')));
    for (const r of twirp) assert.match(String(r.headers.authorization), /^Bearer /);
    for (const r of blob) assert.equal(r.headers.authorization, undefined);
    for (const r of standin.requests) {
      assert.ok(!JSON.stringify(r.headers).includes(CANARY_KEY));
      assert.ok(!r.body.toString('latin1').includes(CANARY_KEY));
    }
  });

  test('a second artifact with the same name on the run is refused as the backend does', async () => {
    const file = join(root, 'tenant-report.pdf');
    const child = await runUploader(standin, ['x', file, root, 'true']);
    assert.equal(child.code, 1);
    assert.match(child.stderr, /already exists/);
  });

  test('zipped upload with retention sends expires_at and stores a zip', async () => {
    const file = join(root, 'results.json');
    await writeFile(file, '{"failed":[]}');
    const child = await runUploader(standin, ['scan-results', file, root, 'false', '3']);
    assert.equal(child.code, 0, child.stderr);
    const artifact = standin.finalized().find((a) => a.name === 'scan-results');
    assert.ok(artifact);
    assert.equal(artifact.mimeType, 'application/zip');
    assert.equal(artifact.content.subarray(0, 2).toString('latin1'), 'PK');
    assert.ok(artifact.expiresAt && Date.parse(artifact.expiresAt) > Date.now() + 2 * 86400_000);
  });

  test('injected quota and storage failures surface as the toolkit errors', async () => {
    const file = join(root, 'third.txt');
    await writeFile(file, 'hello');
    standin.failNext('CreateArtifact', {
      status: 403,
      msg: 'insufficient usage to create artifact',
    });
    const quota = await runUploader(standin, ['x', file, root, 'true']);
    assert.equal(quota.code, 1);
    assert.match(quota.stderr, /Artifact storage quota has been hit/);
    standin.failNext('StageBlock', { status: 403, code: 'AuthorizationFailure', msg: 'denied' });
    const storage = await runUploader(standin, ['x', file, root, 'true']);
    assert.equal(storage.code, 1);
    assert.match(storage.stderr, /denied|AuthorizationFailure/);
    assert.equal(standin.artifacts.find((a) => a.name === 'third.txt')?.state, 'created');
  });

  test("ListArtifacts lists the finalized artifacts of the token's run, as the toolkit reads them", async () => {
    const artifact = standin.finalized().find((a) => a.name === 'scan-results');
    assert.ok(artifact);
    const listed = await twirp(standin, 'ListArtifacts', { name_filter: 'scan-results' });
    assert.equal(listed.status, 200);
    assert.deepEqual(listed.body, {
      artifacts: [
        {
          workflow_run_backend_id: DEFAULT_BACKEND_IDS.workflowRunBackendId,
          workflow_job_run_backend_id: DEFAULT_BACKEND_IDS.workflowJobRunBackendId,
          database_id: String(artifact.id),
          name: 'scan-results',
          size: String(artifact.content.length),
          created_at: artifact.createdAt,
          digest: `sha256:${artifact.sha256}`,
        },
      ],
    });
    const all = await twirp(standin, 'ListArtifacts', {});
    assert.equal((all.body.artifacts as unknown[]).length, standin.finalized().length);
    const elsewhere = await twirp(standin, 'ListArtifacts', {}, OTHER_RUN);
    assert.deepEqual(elsewhere.body, { artifacts: [] });
  });

  test("DeleteArtifact needs a token of the artifact's run and an artifact that exists", async () => {
    const thisRun = {
      workflow_run_backend_id: DEFAULT_BACKEND_IDS.workflowRunBackendId,
      workflow_job_run_backend_id: DEFAULT_BACKEND_IDS.workflowJobRunBackendId,
    };
    const denied = await twirp(
      standin,
      'DeleteArtifact',
      { ...thisRun, name: 'scan-results' },
      OTHER_RUN,
    );
    assert.equal(denied.status, 401);
    const elsewhere = await twirp(standin, 'DeleteArtifact', { name: 'scan-results' }, OTHER_RUN);
    assert.equal(elsewhere.status, 404, 'nothing of that name on the other run');
    const missing = await twirp(standin, 'DeleteArtifact', { name: 'no-such-artifact' });
    assert.equal(missing.status, 404);
    assert.equal(missing.body.code, 'not_found');
    assert.ok(standin.finalized().some((a) => a.name === 'scan-results'));
  });

  test('the real client deletes by name; the name is then free for a new upload', async () => {
    const earlier = standin.finalized().find((a) => a.name === 'tenant-report.pdf');
    assert.ok(earlier);
    const deleted = await runDeleter(standin, 'tenant-report.pdf');
    assert.equal(deleted.code, 0, deleted.stderr);
    assert.deepEqual(parseResult(deleted.stdout), { id: earlier.id });
    assert.equal(earlier.state, 'deleted');
    const names = standin.requests.slice(-2).map((r) => r.path.split('/').pop());
    assert.deepEqual(names, ['ListArtifacts', 'DeleteArtifact']);
    const again = await runUploader(standin, ['x', join(root, 'tenant-report.pdf'), root, 'true']);
    assert.equal(again.code, 0, again.stderr);
    const now = standin.finalized().filter((a) => a.name === 'tenant-report.pdf');
    assert.deepEqual(
      now.map((a) => a.id),
      [parseResult(again.stdout).id],
    );
  });

  test('an injected non-retryable failure surfaces as the toolkit error, fast', async () => {
    const file = join(root, 'second.txt');
    await writeFile(file, 'hello');
    standin.failNext('FinalizeArtifact', { status: 400, msg: 'injected finalize failure' });
    const child = await runUploader(standin, ['x', file, root, 'true']);
    assert.equal(child.code, 1);
    assert.match(child.stderr, /Failed to FinalizeArtifact.*injected finalize failure/);
    assert.equal(standin.artifacts.find((a) => a.name === 'second.txt')?.state, 'committed');
  });
});

describe('artifact stand-in protocol edges', () => {
  let standin: ArtifactStandin;
  before(async () => {
    standin = await startArtifactStandin();
  });
  after(() => standin.close());

  const createUrl = () =>
    `${standin.url}/twirp/github.actions.results.api.v1.ArtifactService/CreateArtifact`;
  const body = JSON.stringify({
    workflow_run_backend_id: DEFAULT_BACKEND_IDS.workflowRunBackendId,
    workflow_job_run_backend_id: DEFAULT_BACKEND_IDS.workflowJobRunBackendId,
    name: 'a.txt',
  });

  test('Twirp calls without a runtime token get a JSON 401', async () => {
    const response = await fetch(createUrl(), { method: 'POST', body });
    assert.equal(response.status, 401);
    assert.equal(((await response.json()) as { code: string }).code, 'unauthenticated');
  });

  test('a token for other backend ids is refused', async () => {
    const token = unsignedRuntimeToken({ workflowRunBackendId: 'a', workflowJobRunBackendId: 'b' });
    const response = await fetch(createUrl(), {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    });
    assert.equal(response.status, 401);
  });

  test('unknown routes and blob uploads with a wrong signature are refused', async () => {
    const unknown = await fetch(`${standin.url}/nope`, { method: 'POST' });
    assert.equal(unknown.status, 404);
    assert.equal(((await unknown.json()) as { code: string }).code, 'bad_route');
    const token = unsignedRuntimeToken();
    const created = await fetch(createUrl(), {
      method: 'POST',
      body,
      headers: { authorization: `Bearer ${token}` },
    });
    const { signed_upload_url } = (await created.json()) as { signed_upload_url: string };
    const forged = signed_upload_url.replace(/sig=[^&]+/, 'sig=forged') + '&comp=block&blockid=AA';
    const response = await fetch(forged, { method: 'PUT', body: 'x' });
    assert.equal(response.status, 403);
  });
});
