// A re-run of the job (GITHUB_RUN_ATTEMPT 2, same workflow run) uploads the report under the name
// an earlier attempt already used: the backend refuses a second artifact of that name on the run
// (409), so the action replaces the earlier attempt's artifact. A first attempt never deletes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import type { StepResult } from '../helpers/runner.js';
import { QUICK_SCAN, useWorld, visibleLog, type World } from './world.js';

const REPLACED_LINE = /^Replaced the artifact .* of an earlier attempt of this run/;

function twirpCalls(world: World, method: string) {
  return world.artifacts.requests.filter((r) => r.path.endsWith(`.ArtifactService/${method}`));
}

async function sha256Of(path: string | undefined): Promise<string> {
  return createHash('sha256')
    .update(await readFile(path ?? ''))
    .digest('hex');
}

function replacedLines(step: StepResult): string[] {
  return step.stdout.split('\n').filter((line) => REPLACED_LINE.test(line));
}

describe('action: report artifact on a re-run of the job', () => {
  const world = useWorld({ ...QUICK_SCAN, outcome: { kind: 'completed', total: 12, failed: 0 } });

  const inputs = (name: string) => ({ report: 'generate', 'artifact-name': name });
  const named = (name: string) => world.artifacts.finalized().filter((a) => a.name === name);

  it("attempt 2 replaces attempt 1's artifact of the same name: one artifact, the new report", async () => {
    const first = await world.main(inputs('nightly.pdf'));
    assert.equal(first.exitCode, 0, visibleLog(first));
    const firstId = first.outputs['artifact-id'];
    assert.ok(firstId, visibleLog(first));

    const second = await world.main(inputs('nightly.pdf'), { env: { GITHUB_RUN_ATTEMPT: '2' } });
    assert.equal(second.exitCode, 0, visibleLog(second));
    assert.ok(
      !second.annotations.some((a) => /Artifact upload skipped/.test(a.message)),
      visibleLog(second),
    );
    const [artifact, ...others] = named('nightly.pdf');
    assert.ok(artifact, JSON.stringify(world.artifacts.artifacts.map((a) => [a.name, a.state])));
    assert.equal(others.length, 0, 'exactly one artifact of that name is left on the run');
    assert.notEqual(String(artifact.id), firstId);
    const earlier = world.artifacts.artifacts.find((a) => String(a.id) === firstId);
    assert.equal(earlier?.state, 'deleted');
    assert.equal(second.outputs['artifact-id'], String(artifact.id));
    assert.equal(artifact.sha256, await sha256Of(second.outputs['report-path']));
    assert.equal(replacedLines(second).length, 1, visibleLog(second));
    assert.match(replacedLines(second)[0] ?? '', /nightly\.pdf/);
    assert.equal(twirpCalls(world, 'DeleteArtifact').length, 1);
  });

  it('a re-run whose job has new backend ids still replaces the artifact of its run', async () => {
    const rerunJob = world.artifacts.runtimeEnv({
      workflowJobRunBackendId: 'c0ffee00-0000-4000-8000-0000000000a2',
    });
    const first = await world.main(inputs('weekly.pdf'));
    assert.equal(first.exitCode, 0, visibleLog(first));
    const second = await world.main(inputs('weekly.pdf'), {
      env: { ...rerunJob, GITHUB_RUN_ATTEMPT: '2' },
    });
    assert.equal(second.exitCode, 0, visibleLog(second));
    const [artifact, ...others] = named('weekly.pdf');
    assert.equal(others.length, 0);
    assert.equal(second.outputs['artifact-id'], String(artifact?.id));
    assert.equal(artifact?.workflowJobRunBackendId, 'c0ffee00-0000-4000-8000-0000000000a2');
  });

  it('a re-run with no earlier artifact of that name uploads without deleting anything', async () => {
    const deletes = twirpCalls(world, 'DeleteArtifact').length;
    const lists = twirpCalls(world, 'ListArtifacts').length;
    const step = await world.main(inputs('first-time.pdf'), { env: { GITHUB_RUN_ATTEMPT: '3' } });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.equal(named('first-time.pdf').length, 1);
    assert.equal(twirpCalls(world, 'ListArtifacts').length, lists + 1, 'the re-run looked');
    assert.equal(twirpCalls(world, 'DeleteArtifact').length, deletes);
    assert.equal(replacedLines(step).length, 0, visibleLog(step));
  });

  it('a first attempt never deletes: a name already used on the run is a warning', async () => {
    const first = await world.main(inputs('shared.pdf'));
    assert.equal(first.exitCode, 0, visibleLog(first));
    const lookups = twirpCalls(world, 'ListArtifacts').length;
    const other = await world.main(inputs('shared.pdf'));
    assert.equal(other.exitCode, 0, visibleLog(other));
    assert.equal(twirpCalls(world, 'ListArtifacts').length, lookups, 'no lookup, no delete');
    assert.equal(named('shared.pdf')[0]?.id, Number(first.outputs['artifact-id']));
    const warning = other.annotations.find((a) => /Artifact upload skipped/.test(a.message));
    assert.match(warning?.message ?? '', /already/, visibleLog(other));
    assert.equal(other.outputs['artifact-id'], '');
  });

  it('a re-run that cannot delete the earlier artifact: a warning that says so, never a failed job', async () => {
    const first = await world.main(inputs('monthly.pdf'));
    assert.equal(first.exitCode, 0, visibleLog(first));
    world.artifacts.failNext('ListArtifacts', { status: 403, msg: 'forbidden for test' });
    const second = await world.main(inputs('monthly.pdf'), { env: { GITHUB_RUN_ATTEMPT: '2' } });
    assert.equal(second.exitCode, 0, visibleLog(second));
    const warning = second.annotations.find((a) => /Artifact upload skipped/.test(a.message));
    assert.match(warning?.message ?? '', /deleting the earlier attempt's artifact .*failed/);
    assert.equal(named('monthly.pdf')[0]?.id, Number(first.outputs['artifact-id']));
    assert.equal(replacedLines(second).length, 0);
  });

  it('a re-run on GHES: the same warning as a first attempt, nothing sent to the backend', async () => {
    const calls = world.artifacts.requests.length;
    const step = await world.main(inputs('ghes-rerun.pdf'), {
      serverUrl: 'https://ghes.example.com',
      env: { GITHUB_RUN_ATTEMPT: '2' },
    });
    assert.equal(step.exitCode, 0, visibleLog(step));
    const warning = step.annotations.find((a) => /Artifact upload skipped/.test(a.message));
    assert.match(warning?.message ?? '', /GitHub Enterprise Server.*the report stays at/);
    assert.equal(world.artifacts.requests.length, calls);
  });
});
