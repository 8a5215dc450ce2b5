// The rollup sub-action (dist/rollup/index.js) with a Teams stand-in: one message for the fleet
// naming the tenants that changed, none when no tenant changed, always when asked; the address
// masked and nowhere in the log or the files.
import assert from 'node:assert/strict';
import { copyFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import {
  createJobDirectory,
  removeJobDirectory,
  runActionStep,
  type JobDirectory,
} from '../helpers/runner.js';
import { startWebhookStandin, type WebhookStandin } from '../helpers/webhook-standin.js';
import { assertBundleBuilt } from '../cli/helpers.js';
import { QUICK_SCAN, startWorld, visibleLog, type World } from './world.js';

const [A, B] = [checkIdAt(0), checkIdAt(1)];

let world: World;
let hook: WebhookStandin;
before(async () => {
  assertBundleBuilt();
  world = await startWorld();
  hook = await startWebhookStandin('teams');
});
after(async () => {
  await hook.close();
  await world.close();
});

describe('rollup: one message for the fleet', () => {
  const tenants = new Map<string, string>();
  /** One round of the matrix: each tenant's step (baseline previous), its record gathered. */
  async function round(job: JobDirectory, failing: Record<string, string[]>): Promise<void> {
    for (const [label, failedChecks] of Object.entries(failing)) {
      const plan = {
        ...QUICK_SCAN,
        outcome: { kind: 'completed', total: 40, failed: 0, failedChecks },
      } as const;
      let key = tenants.get(label);
      if (!key) {
        const added = world.emulator.addTenant({ name: `${label} Ltd`, scanPlan: plan });
        tenants.set(label, (key = added.apiKey));
        tenants.set(`${label}:id`, added.tenantId);
      } else world.emulator.setScanPlan(plan, tenants.get(`${label}:id`));
      const step = await world.main({
        'api-key': key,
        'tenant-label': label,
        baseline: 'previous',
      });
      const dir = join(job.workspace, 'tenant-scan-records', label);
      await mkdir(dir, { recursive: true });
      await copyFile(step.outputs['record-file'] ?? '', join(dir, 'record.json'));
    }
  }

  it('change: the changed tenants once; the same again is silent; always speaks', async () => {
    const jobs = [await createJobDirectory(), await createJobDirectory()];
    try {
      const [first, second] = jobs as [JobDirectory, JobDirectory];
      const inputs = { 'notify-webhook': hook.url, 'notify-format': 'teams' };
      await round(first, { contoso: [], fabrikam: [A, B] });
      const rollup = (job: JobDirectory, extra: Record<string, string> = {}) =>
        runActionStep({ entry: 'rollup', job, inputs: { ...inputs, ...extra }, timeoutMs: 30_000 });
      const spoke = await rollup(first);
      assert.equal(hook.received.length, 1, visibleLog(spoke));
      assert.deepEqual(hook.received[0]?.problems, []);
      assert.match(visibleLog(spoke), /Notification: sent to Teams — 1 tenant changed/);
      const body = hook.received[0]?.body ?? '';
      assert.match(body, /Tenants that changed \(1\)/);
      assert.match(body, /fabrikam — failed: 2 new/);
      assert.doesNotMatch(body, /contoso —/);
      await round(second, { contoso: [], fabrikam: [A, B] });
      const quiet = await rollup(second);
      assert.equal(hook.received.length, 1, visibleLog(quiet));
      assert.match(
        visibleLog(quiet),
        /Notification: not sent — no tenant changed \(notify-on change\)/,
      );
      await rollup(second, { 'notify-on': 'always' });
      assert.equal(hook.received.length, 2);
      for (const step of [spoke, quiet]) {
        assert.ok(step.masks.includes(hook.url));
        for (const secret of hook.secrets) {
          assert.deepEqual(
            findSecretInTexts(secret, {
              log: visibleLog(step),
              summary: step.summary,
              outputs: JSON.stringify(step.outputs),
            }),
            [],
          );
          assert.deepEqual(await findSecretInDirectory(secret, step.job.root), []);
        }
      }
    } finally {
      await Promise.all(jobs.map((job) => removeJobDirectory(job)));
    }
  });
});
