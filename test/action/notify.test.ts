// dist/index.js run like the runner with a chat webhook on 127.0.0.1 that validates what it gets
// (webhook-standin.ts): three runs (new failures, the same again, a fix) post two messages with
// notify-on change and three with always; a 500 or a silent webhook is one warning and the
// verdict stays; the address is masked and found nowhere in logs, outputs, summary or files.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import type { StepResult } from '../helpers/runner.js';
import { startWebhookStandin, type WebhookStandin } from '../helpers/webhook-standin.js';
import type { ScanPlan } from '../emulator/types.js';
import { QUICK_SCAN, startWorld, stepTexts, visibleLog, type World } from './world.js';

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 60, failed: 0, failedChecks } };
}

const NEW_FAILURES = failing(['CIS-1.1.1', 'CIS-1.3.1']);
const ONE_FIXED = failing(['CIS-1.3.1']);

function warnings(step: StepResult): string[] {
  return step.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
}

describe('action: chat notifications', () => {
  let world: World;
  let hook: WebhookStandin;
  before(async () => {
    world = await startWorld();
    hook = await startWebhookStandin('teams');
  });
  after(async () => {
    await hook.close();
    await world.close();
  });
  beforeEach(() => {
    world.reset();
    hook.reset();
  });

  /** Three runs of a fresh tenant: new failures, the same again, a fix. */
  async function threeRuns(inputs: Record<string, string>): Promise<StepResult[]> {
    const tenant = world.emulator.addTenant({ scanPlan: NEW_FAILURES });
    const run = () => world.main({ 'api-key': tenant.apiKey, ...inputs });
    const steps = [await run(), await run()];
    world.emulator.setScanPlan(ONE_FIXED, tenant.tenantId);
    steps.push(await run());
    return steps;
  }

  it('notify-on change: new failures speak, the same again is silent, a fix speaks', async () => {
    const steps = await threeRuns({ 'notify-webhook': hook.url, 'notify-format': 'teams' });
    assert.deepEqual(
      steps.map((s) => s.exitCode),
      [1, 1, 1],
    );
    assert.equal(hook.received.length, 2, steps.map(visibleLog).join('\n'));
    assert.deepEqual(
      hook.received.map((m) => m.problems),
      [[], []],
    );
    assert.match(visibleLog(steps[0]!), /Notification: sent to Teams — 2 new failing findings/);
    assert.match(
      visibleLog(steps[1]!),
      /Notification: not sent — nothing changed since the baseline \(notify-on change\)/,
    );
    assert.match(visibleLog(steps[2]!), /Notification: sent to Teams — 1 fixed/);
    const [first, third] = hook.received.map((m) => m.body);
    assert.match(first ?? '', /New failing \(2\)/);
    assert.match(first ?? '', /CRITICAL · CIS-1\.1\.1/);
    assert.match(third ?? '', /Fixed \(1\)[\s\S]*CIS-1\.1\.1/);
    assert.match(first ?? '', /"url":"https:\/\/github\.com\/[^"]+\/actions\/runs\/\d+"/);
    for (const step of steps) {
      assert.ok(step.masks.includes(hook.url), 'masked at once');
      assert.deepEqual(warnings(step), []);
      for (const secret of hook.secrets) {
        assert.deepEqual(findSecretInTexts(secret, stepTexts(step)), [], secret);
        assert.deepEqual(await findSecretInDirectory(secret, step.job.root), [], secret);
      }
    }
  });

  it('notify-on always: three runs, three messages (Slack)', async () => {
    const slack = await startWebhookStandin('slack');
    try {
      const steps = await threeRuns({
        'notify-webhook': slack.url,
        'notify-format': 'slack',
        'notify-on': 'always',
      });
      assert.equal(slack.received.length, 3, steps.map(visibleLog).join('\n'));
      assert.deepEqual(
        slack.received.map((m) => m.problems),
        [[], [], []],
      );
    } finally {
      await slack.close();
    }
  });

  it('a 500 is one warning; the verdict, outputs and exit code are the same as without it', async () => {
    world.emulator.setScanPlan(NEW_FAILURES);
    const quiet = await world.main();
    hook.answerNext({ status: 500, body: `failed for ${hook.url}` });
    const step = await world.main({
      'notify-webhook': hook.url,
      'notify-format': 'teams',
      'notify-on': 'always',
    });
    assert.equal(step.exitCode, quiet.exitCode);
    assert.equal(step.outputs.verdict, quiet.outputs.verdict);
    const failedPosts = warnings(step).filter((w) => w.startsWith('Notification failed'));
    assert.deepEqual(failedPosts, [
      'Notification failed: the webhook answered HTTP 500: failed for [webhook]; the verdict is not affected',
    ]);
    assert.equal(hook.requests.length, 1);
    for (const secret of hook.secrets)
      assert.deepEqual(findSecretInTexts(secret, stepTexts(step)), [], secret);
  });

  it('a webhook that never answers is one warning within the timeout', async () => {
    world.emulator.setScanPlan(NEW_FAILURES);
    hook.answerNext('hang');
    const started = Date.now();
    const step = await world.main({
      'notify-webhook': hook.url,
      'notify-format': 'teams',
      'notify-on': 'failure',
    });
    assert.ok(Date.now() - started < 25_000);
    assert.equal(step.exitCode, 1);
    assert.equal(step.outputs.verdict, 'failed');
    const failedPosts = warnings(step).filter((w) => w.startsWith('Notification failed'));
    assert.deepEqual(failedPosts, [
      'Notification failed: no answer within 10 s; the verdict is not affected',
    ]);
  });

  it('a bad address or format is one line before any request, the address never echoed', async () => {
    const step = await world.main({
      'notify-webhook': 'ftp://hooks.example/secret-path-123',
      'notify-on': 'sometimes',
    });
    assert.equal(step.exitCode, 1);
    const log = visibleLog(step);
    assert.match(log, /input 'notify-webhook' must be an https:\/\/ address/);
    assert.match(
      log,
      /input 'notify-on' must be one of change, new, failure, always, got "sometimes"/,
    );
    assert.doesNotMatch(log, /secret-path-123/);
    assert.equal(world.emulator.requests().length, 0);
    const unknownHost = await world.main({ 'notify-webhook': 'https://hooks.example/x' });
    assert.match(visibleLog(unknownHost), /input 'notify-format' is needed/);
  });
});
