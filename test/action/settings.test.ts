// The settings sub-action (settings/action.yml) as the runner runs dist/settings/index.js, against
// the emulator and the GitHub REST stand-in: the plan in the summary and one PR comment, apply,
// and a nightly plan whose tracking issue opens, updates and closes as drift comes and goes. The
// webhook address never appears in full in the log, the summary, the comment or the issue.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createJobDirectory, runActionStep, type StepResult } from '../helpers/runner.js';
import { errorLines, useWorld, visibleLog } from './world.js';

const DAY = 86_400_000;
const HOOK =
  'https://prod-07.westeurope.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?sig=SECRETSIGNATURE';
const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: {
      number: 36,
      head: { sha: 'a'.repeat(40), ref: 'settings' },
      base: { ref: 'main' },
    },
  },
};

describe('action: tenant settings', () => {
  const world = useWorld();

  async function step(
    yaml: string,
    apiKey: string,
    inputs: Record<string, string>,
    options: { event?: typeof PR_EVENT } = {},
  ) {
    const job = await createJobDirectory();
    await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
    await writeFile(join(job.workspace, '.tenant-scan', 'tenant.yml'), yaml);
    return runActionStep({
      entry: 'settings',
      job,
      inputs: { 'api-key': apiKey, 'api-url': world.emulator.url, ...inputs },
      apiUrl: world.github.url,
      env: { TEAMS_HOOK: HOOK, ...world.artifacts.runtimeEnv() },
      timeoutMs: 60_000,
      ...(options.event ? { event: options.event } : {}),
    });
  }

  function noWebhook(result: StepResult, ...texts: string[]) {
    for (const text of [visibleLog(result), result.summary, ...texts]) {
      assert.ok(!text.includes('SECRETSIGNATURE') && !text.includes('/workflows/'), text);
    }
  }

  it("no settings file: one line that names input 'file', nothing sent", async () => {
    const { apiKey } = world.emulator.addTenant({});
    world.emulator.clearRequests();
    const result = await step('{}\n', apiKey, { mode: 'plan', file: 'no/such.yml' });
    assert.equal(result.exitCode, 1, visibleLog(result));
    assert.match(
      errorLines(result).join('\n'),
      /cannot read the tenant settings file .*no\/such\.yml \(no such file\): create it \(see docs\/tenant-settings\.md\) or name another with input 'file'$/,
    );
    assert.equal(world.emulator.requests().length, 0);
  });

  it('plan on a pull request: the summary and one comment, updated in place; exit 1 on drift', async () => {
    const { apiKey } = world.emulator.addTenant({ notifications: { emailOnFail: false } });
    const yaml = 'notifications:\n  emailOnFail: true\n  teamsWebhookUrlEnv: TEAMS_HOOK\n';
    const first = await step(yaml, apiKey, { mode: 'plan' }, { event: PR_EVENT });
    assert.equal(first.exitCode, 1, visibleLog(first));
    assert.equal(first.outputs.drift, '2');
    assert.match(first.summary, /notifications\.emailOnFail/);
    assert.match(first.summary, /https:\/\/prod-07\.westeurope\.logic\.azure\.com\/…/);
    assert.ok(first.masks.includes(HOOK), 'the address is masked');
    const second = await step(yaml, apiKey, { mode: 'plan' }, { event: PR_EVENT });
    assert.equal(second.exitCode, 1);
    const comments = world.github.comments.get(36) ?? [];
    assert.equal(comments.length, 1, 'one comment, updated in place');
    assert.match(comments[0]?.body ?? '', /Tenant settings plan/);
    noWebhook(first, comments[0]?.body ?? '');
    noWebhook(second);
  });

  it('apply, then a nightly plan keeps a tracking issue while drift or a problem stands', async () => {
    const { tenantId, apiKey } = world.emulator.addTenant({
      notifications: { teamsOnFail: false },
    });
    const yaml = 'notifications: {emailOnComplete: false}\nhygiene: {keyMaxAgeDays: 90}\n';
    const nightly = { mode: 'plan', 'tracking-issue': 'true', 'tracking-labels': 'settings-36' };
    const issues = () =>
      [...world.github.issues.values()].filter((i) => i.labels.includes('settings-36'));

    const drifting = await step(yaml, apiKey, nightly);
    assert.equal(drifting.exitCode, 1, visibleLog(drifting));
    assert.equal(issues().length, 1);
    assert.equal(issues()[0]?.state, 'open');

    // Plan and apply at once (the nightly's drift is no pull request's reviewed plan).
    const applied = await step(yaml, apiKey, { mode: 'apply', apply: 'latest' });
    assert.equal(applied.exitCode, 0, visibleLog(applied));
    assert.equal(applied.outputs.drift, '0');
    assert.match(applied.summary, /notifications\\?: emailOnComplete → false \| done/);

    const clean = await step(yaml, apiKey, nightly);
    assert.equal(clean.exitCode, 0, visibleLog(clean));
    assert.equal(issues().length, 1);
    assert.equal(issues()[0]?.state, 'closed');

    world.emulator.addKey(tenantId, 'old key', { ageMs: 400 * DAY, lastUsedAgoMs: DAY });
    const old = await step(yaml, apiKey, nightly);
    assert.equal(old.exitCode, 1);
    assert.equal(old.outputs.codes, 'key-old');
    assert.equal(issues().length, 1, 'reopened, not doubled');
    assert.equal(issues()[0]?.state, 'open');
    assert.match(issues()[0]?.body ?? '', /key-old/);
    assert.ok(
      world.github.requests.every((r) => (r.status ?? 0) < 400),
      'every GitHub request passed the schema',
    );
    noWebhook(old, issues()[0]?.body ?? '');
  });
});
