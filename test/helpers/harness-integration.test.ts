// The runner harness and the artifact stand-in together, as the Action's end-to-end tests use them.
import { strict as assert } from 'node:assert';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startArtifactStandin, type ArtifactStandin } from './artifact-standin.js';
import { removeJobDirectory, runActionStep, type JobDirectory } from './runner.js';
import { findSecretInRequests } from './secret-scan.js';

const UPLOAD_STEP = fileURLToPath(new URL('../fixtures/runner/upload-step.mjs', import.meta.url));
const CANARY = 'tsk_canary_integration_0001';

describe('a step run by the harness uploads to the artifact stand-in', () => {
  let artifacts: ArtifactStandin;
  const jobs: JobDirectory[] = [];
  before(async () => {
    artifacts = await startArtifactStandin();
  });
  after(async () => {
    await artifacts.close();
    await Promise.all(jobs.map(removeJobDirectory));
  });

  test('with the runtime env, the file arrives under its own name and the output has its id', async () => {
    const step = await runActionStep({
      entry: 'main',
      script: UPLOAD_STEP,
      actionYml: null,
      inputs: { 'file-name': 'report.pdf', content: '%PDF-1.7 x', 'api-key': CANARY },
      env: artifacts.runtimeEnv(),
    });
    jobs.push(step.job);
    assert.equal(step.exitCode, 0, step.stdout);
    const [artifact] = artifacts.finalized();
    assert.equal(artifact?.name, 'report.pdf');
    assert.equal(artifact?.content.toString(), '%PDF-1.7 x');
    assert.equal(step.outputs['artifact-id'], String(artifact?.id));
    assert.deepEqual(findSecretInRequests(CANARY, artifacts.requests, 'artifact'), []);
  });

  test('on a GHES server URL the toolkit refuses before any request', async () => {
    const before = artifacts.requests.length;
    const step = await runActionStep({
      entry: 'main',
      script: UPLOAD_STEP,
      actionYml: null,
      inputs: { 'file-name': 'report.pdf', content: 'x' },
      env: artifacts.runtimeEnv(),
      serverUrl: 'https://ghes.example.com',
    });
    jobs.push(step.job);
    assert.equal(step.exitCode, 1);
    // The toolkit itself logs a warning annotation before throwing: it counts toward the step's cap.
    assert.deepEqual(
      step.annotations.map((a) => [a.level, a.message.split(':')[0]]),
      [
        ['warning', 'Artifact upload failed with error'],
        ['error', 'GHESNotSupportedError'],
      ],
    );
    assert.equal(artifacts.requests.length, before);
  });
});
