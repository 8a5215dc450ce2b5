// The settings sub-action applies what was reviewed, run as the runner runs dist/settings/index.js
// against the emulator and the GitHub stand-ins (REST and artifacts): the pull request's plan is
// saved as an artifact and commented; the push that merges it finds that plan through GitHub's API
// (the merged pull request of the commit, this workflow's run on its head, the run's artifact) and
// applies exactly its writes; a tenant changed since the review makes the merge fail naming the
// change, with nothing sent (`apply: latest` plans again); a plan GitHub cannot vouch for — another
// workflow's, a fork's, bytes without GitHub's digest — is not taken.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJobDirectory, runActionStep, type StepResult } from '../helpers/runner.js';
import { errorLines, useWorld, visibleLog } from './world.js';
import { HOOK, YAML } from '../helpers/reviewed-settings-sample.js';

const WORKFLOW = '.github/workflows/tenant-settings.yml';
const REPOSITORY = 'octo-org/octo-repo';
const SEED = {
  notifications: { emailOnFail: false, teamsOnFail: false },
  targets: [
    { host: 'kept.example.com', label: null },
    { host: 'old.example.com', label: 'Legacy' },
  ],
};

let pulls = 40;
const sha = (n: number, c: string) => `${c.repeat(39)}${n % 10}`;

describe('action: tenant settings apply what was reviewed', () => {
  const world = useWorld();

  async function settings(
    apiKey: string,
    inputs: Record<string, string>,
    how: {
      event?: { name: string; payload: Record<string, unknown> };
      sha?: string;
      runId: string;
      ref: string;
      backend: string;
    },
  ): Promise<StepResult> {
    const job = await createJobDirectory();
    await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
    await writeFile(join(job.workspace, '.tenant-scan', 'tenant.yml'), YAML);
    return runActionStep({
      entry: 'settings',
      job,
      inputs: { 'api-key': apiKey, 'api-url': world.emulator.url, ...inputs },
      apiUrl: world.github.url,
      runId: how.runId,
      ...(how.sha ? { sha: how.sha } : {}),
      ...(how.event ? { event: how.event } : {}),
      env: {
        TEAMS_HOOK: HOOK,
        GITHUB_WORKFLOW_REF: `${REPOSITORY}/${WORKFLOW}@${how.ref}`,
        ...world.artifacts.runtimeEnv({
          workflowRunBackendId: how.backend,
          workflowJobRunBackendId: `${how.backend}-job`,
        }),
      },
      timeoutMs: 60_000,
    });
  }

  /** A pull request planned by the sub-action, then merged as `merge`: its run seeded in GitHub. */
  async function reviewed(apiKey: string, run: { path?: string; fork?: string } = {}) {
    const number = ++pulls;
    const head = sha(number, 'a');
    const merge = sha(number, 'c');
    const runId = 7000 + number;
    const backend = `c0ffee00-0000-4000-8000-0000000070${number}`;
    const plan = await settings(
      apiKey,
      { mode: 'plan' },
      {
        event: {
          name: 'pull_request',
          payload: {
            pull_request: { number, head: { sha: head, ref: 'settings' }, base: { ref: 'main' } },
          },
        },
        runId: String(runId),
        ref: `refs/pull/${number}/merge`,
        backend,
      },
    );
    world.github.seedPullRequest({
      number,
      head: { sha: head, ref: 'settings' },
      base: { ref: 'main' },
      merged_at: '2026-05-04T09:30:00Z',
      merge_commit_sha: merge,
      ...(run.fork ? { headRepository: run.fork } : {}),
    });
    world.github.seedWorkflowRun({
      id: runId,
      path: run.path ?? WORKFLOW,
      head_sha: head,
      event: 'pull_request',
      backendRunId: backend,
      pullRequests: [number],
      ...(run.fork ? { headRepository: run.fork } : {}),
    });
    const mergeStep = (inputs: Record<string, string> = {}) =>
      settings(
        apiKey,
        { mode: 'apply', ...inputs },
        {
          sha: merge,
          runId: String(runId + 500),
          ref: 'refs/heads/main',
          backend: `${backend}-merge`,
        },
      );
    return { number, plan, mergeStep, backend };
  }

  const writesOf = (apiKey: string) =>
    world.emulator
      .requests()
      .filter((r) => r.headers.authorization === `Bearer ${apiKey}` && r.method !== 'GET');

  it('the pull request saves and comments its plan; the merge applies exactly its writes', async () => {
    const { apiKey } = world.emulator.addTenant(SEED);
    const pr = await reviewed(apiKey);
    assert.equal(pr.plan.exitCode, 1, visibleLog(pr.plan)); // drift fails a plan (fail-on any)
    const saved = world.artifacts.finalized().find((a) => a.workflowRunBackendId === pr.backend);
    assert.equal(saved?.name, 'tenant-plan.json');
    const text = saved?.content.toString('utf8') ?? '';
    assert.ok(!text.includes('SECRETSIGNATURE') && !text.includes(apiKey.slice(8)), text);
    const comment = world.github.comments.get(pr.number)?.[0]?.body ?? '';
    assert.match(comment, /The merge applies exactly this plan \(artifact `tenant-plan\.json`\)/);
    assert.equal(writesOf(apiKey).length, 0, 'a plan writes nothing');

    const merged = await pr.mergeStep();
    assert.equal(merged.exitCode, 0, visibleLog(merged));
    assert.deepEqual(
      writesOf(apiKey).map((r) => [r.method, r.path.replace(/targets\/[^/]+$/, 'targets/:id')]),
      [
        ['PATCH', '/tenants/me/notifications'],
        ['POST', '/tenants/me/attack-surface/targets'],
        ['PATCH', '/tenants/me/attack-surface/targets/:id'],
        ['DELETE', '/tenants/me/attack-surface/targets/:id'],
      ],
    );
    assert.equal(merged.outputs.drift, '0');
    assert.match(
      merged.summary,
      new RegExp(`Applied the plan reviewed in pull request #${pr.number}\\.`),
    );
    assert.match(
      visibleLog(merged),
      new RegExp(
        `Applying the plan reviewed in pull request #${pr.number} \\(run ${7000 + pr.number},`,
      ),
    );
    for (const text of [visibleLog(merged), merged.summary, comment]) {
      assert.ok(!text.includes('SECRETSIGNATURE'), text);
    }
    const calls = world.github.requests.map((r) => r.operationId);
    for (const operation of [
      'repos/list-pull-requests-associated-with-commit',
      'actions/list-workflow-runs',
      'actions/list-workflow-run-artifacts',
      'actions/download-artifact',
    ]) {
      assert.ok(calls.includes(operation as never), operation);
    }
    assert.ok(
      world.github.requests.every((r) => (r.status ?? 0) < 400),
      'every request as GitHub takes it',
    );
  });

  it('a tenant changed since the review fails the merge naming the change, nothing sent; apply: latest plans again', async () => {
    const { apiKey } = world.emulator.addTenant(SEED);
    const pr = await reviewed(apiKey);
    const added = await fetch(`${world.emulator.url}/tenants/me/attack-surface/targets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ host: 'added-after-review.example.com' }),
    });
    assert.equal(added.status, 201);
    const before = writesOf(apiKey).length;
    const stale = await pr.mergeStep();
    assert.equal(stale.exitCode, 1);
    assert.deepEqual(errorLines(stale), [
      errorLines(stale)[0]?.match(
        /^Tenant settings failed: targets: added-after-review\.example\.com appeared since the plan of 20\d\d-[\d-]+T[\d:.]+Z; plan again$/,
      )?.[0],
    ]);
    assert.equal(writesOf(apiKey).length, before, 'nothing was written');

    const latest = await pr.mergeStep({ apply: 'latest' });
    assert.equal(latest.exitCode, 0, visibleLog(latest));
    assert.equal(latest.outputs.drift, '0');
    assert.ok(
      writesOf(apiKey).some((r) => r.method === 'DELETE'),
      'latest applies what the file says now',
    );
  });

  it('a plan GitHub cannot vouch for is not taken: another workflow, a fork, altered bytes', async () => {
    const cases: Array<[{ path?: string; fork?: string; alter?: boolean }, RegExp]> = [
      [
        { path: '.github/workflows/other.yml' },
        /no plan of pull request #\d+: no run of \.github\/workflows\/tenant-settings\.yml on its head/,
      ],
      [
        { fork: 'someone/octo-repo' },
        /pull request #\d+ came from another repository \(someone\/octo-repo\)/,
      ],
      [{ alter: true }, /the plan artifact of run \d+ does not have the digest GitHub gives it/],
    ];
    for (const [how, line] of cases) {
      const { apiKey } = world.emulator.addTenant(SEED);
      const pr = await reviewed(apiKey, how);
      if (how.alter) {
        const artifact = world.artifacts
          .finalized()
          .find((a) => a.workflowRunBackendId === pr.backend);
        assert.ok(artifact);
        artifact.content = Buffer.from(
          artifact.content.toString('utf8').replace('"emailOnFail": true', '"emailOnFail": false'),
        );
      }
      const merged = await pr.mergeStep();
      assert.equal(merged.exitCode, 1);
      assert.match(errorLines(merged).join('\n'), line);
      assert.equal(writesOf(apiKey).length, 0, 'nothing was written');
    }
    const direct = world.emulator.addTenant(SEED);
    const push = await settings(
      direct.apiKey,
      { mode: 'apply' },
      {
        sha: 'f'.repeat(40),
        runId: '9999',
        ref: 'refs/heads/main',
        backend: 'c0ffee00-0000-4000-8000-000000009999',
      },
    );
    assert.equal(push.exitCode, 1);
    assert.match(
      errorLines(push).join('\n'),
      /no pull request was merged as ffffffffffff: there is no reviewed plan to apply; .*set apply: latest/,
    );
    assert.equal(
      world.emulator.requests().filter((r) => r.headers.authorization === `Bearer ${direct.apiKey}`)
        .length,
      0,
      'no request to the service without a reviewed plan',
    );
  });

  it('a bad apply or plan-artifact input is one line each, nothing sent', async () => {
    const { apiKey } = world.emulator.addTenant(SEED);
    const asked = world.github.requests.length;
    const bad = await settings(
      apiKey,
      { mode: 'apply', apply: 'whenever', 'plan-artifact': '../plan.json' },
      { runId: '9998', ref: 'refs/heads/main', backend: 'c0ffee00-0000-4000-8000-000000009998' },
    );
    assert.equal(bad.exitCode, 1);
    assert.deepEqual(errorLines(bad), [
      "Sanity checks failed: input 'apply' must be one of reviewed, latest",
      "Sanity checks failed: input 'plan-artifact' must be a file name: letters, digits, '.', '_', '-'",
    ]);
    assert.equal(
      world.emulator.requests().filter((r) => r.headers.authorization === `Bearer ${apiKey}`)
        .length,
      0,
    );
    assert.equal(world.github.requests.length, asked, 'nothing asked of GitHub');
  });
});
