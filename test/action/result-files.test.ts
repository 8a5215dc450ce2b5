// The junit-file and sarif-file inputs: dist/ run like the runner writes both, they validate against
// their schemas, the outputs name them, and every SARIF result points at the workflow file (GitHub
// code scanning rejects results without a location).
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { junitProblems, sarifSchemaProblems } from '../formats/validators.js';
import { useWorld, visibleLog } from './world.js';

interface SarifLog {
  runs: Array<{
    results: Array<{
      ruleId: string;
      locations?: Array<{ physicalLocation: { artifactLocation: { uri: string } } }>;
    }>;
  }>;
}

function locationUris(log: SarifLog): string[] {
  return (log.runs[0]?.results ?? []).map(
    (r) => r.locations?.[0]?.physicalLocation.artifactLocation.uri ?? '(none)',
  );
}

describe('action: JUnit and SARIF result files', () => {
  const world = useWorld();

  it('writes both, valid, named by the outputs, SARIF located at the workflow file', async () => {
    const step = await world.main(
      { 'junit-file': 'out/results.xml', 'sarif-file': 'out/results.sarif' },
      {
        env: {
          GITHUB_WORKFLOW_REF: 'octo-org/octo-repo/.github/workflows/scan.yml@refs/heads/main',
        },
      },
    );
    assert.equal(step.exitCode, 1, 'the default plan has findings');
    const junit = join(step.job.workspace, 'out', 'results.xml');
    const sarif = join(step.job.workspace, 'out', 'results.sarif');
    assert.equal(step.outputs['junit-file'], junit, visibleLog(step));
    assert.equal(step.outputs['sarif-file'], sarif);
    assert.deepEqual(await junitProblems(junit), []);
    const xml = await readFile(junit, 'utf8');
    assert.equal((xml.match(/<testcase /g) ?? []).length, 40);
    assert.equal((xml.match(/<failure /g) ?? []).length, 5);
    const log = JSON.parse(await readFile(sarif, 'utf8')) as SarifLog;
    assert.deepEqual(sarifSchemaProblems(log), []);
    assert.deepEqual(locationUris(log), Array(5).fill('.github/workflows/scan.yml'));
  });

  it('without GITHUB_WORKFLOW_REF the SARIF results point at .github/workflows', async () => {
    const step = await world.main(
      { 'sarif-file': 'scan.sarif', 'fail-on-findings': 'false' },
      { env: { GITHUB_WORKFLOW_REF: undefined } },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.equal(step.outputs['junit-file'], '');
    const log = JSON.parse(await readFile(step.outputs['sarif-file'] ?? '', 'utf8')) as SarifLog;
    assert.deepEqual(sarifSchemaProblems(log), []);
    assert.deepEqual(locationUris(log), Array(5).fill('.github/workflows'));
  });

  it('none given: neither is written, both outputs are empty', async () => {
    const step = await world.main({ 'fail-on-findings': 'false' });
    assert.equal(step.exitCode, 0);
    assert.equal(step.outputs['junit-file'], '');
    assert.equal(step.outputs['sarif-file'], '');
  });
});
