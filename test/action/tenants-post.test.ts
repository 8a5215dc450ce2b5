// The tenants sub-action's post step, run as the runner runs it: the bundled chunk step is killed
// outright (SIGKILL to its tree, as when a cancelled job outlives the runner's grace or the runner
// is lost), then its post step runs with the state the killed step saved. Every scan it left
// running is cancelled on the emulator; a scan that settled, or ended by itself since, is left
// alone; no key is in the state, the logs or any file of the job.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { assertBundleBuilt } from '../cli/helpers.js';
import { startEmulator } from '../emulator/emulator.js';
import { runActionStep, type StepResult } from '../helpers/runner.js';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import { apiRequests, QUICK_SCAN, stepTexts, useWorld, visibleLog } from './world.js';

assertBundleBuilt();

const STUCK = ['red', 'green', 'blue'];
/** Runs long on the emulator's clock: still running when the step is killed, ended by post. */
const LONG = 'amber';
/** Ends (passes) before the step is killed: its state says settled. */
const QUICK = 'quick';

/** Each step's texts (stepTexts), named by the step. */
/** The sub-action's post step, as the runner starts it at job end. */
function runPost(options: Omit<Parameters<typeof runActionStep>[0], 'entry' | 'timeoutMs'>) {
  return runActionStep({ ...options, entry: 'tenants-post', timeoutMs: 30_000 });
}

function textsOf(steps: Record<string, StepResult>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(steps).flatMap(([step, result]) =>
      Object.entries(stepTexts(result)).map(([name, text]) => [`${step} ${name}`, text]),
    ),
  );
}

/** Every line of these tenants seen: the pattern that starts the kill. */
function allSeen(lines: string[]): RegExp {
  return new RegExp(lines.map((line) => `(?=[\\s\\S]*^${line})`).join(''), 'm');
}

describe('the tenants sub-action: post step', () => {
  const world = useWorld();

  it('cancels every scan a killed chunk step left running, and only those', async () => {
    const keys: Record<string, string> = {};
    const tenants = [...STUCK, LONG, QUICK].map((name) => {
      const scanPlan =
        name === QUICK
          ? { ...QUICK_SCAN, outcome: { kind: 'completed' as const, total: 10, failed: 0 } }
          : name === LONG
            ? { durationMs: 30 * 60_000, queuedMs: 50 }
            : { outcome: { kind: 'stuck' as const, atProgress: 30 } };
      const { apiKey } = world.emulator.addTenant({ id: `post-${name}`, name, scanPlan });
      keys[`${name.toUpperCase()}_KEY`] = apiKey;
      return { name, 'api-url': world.emulator.url, secret: `${name.toUpperCase()}_KEY` };
    });
    const inputs = { tenants: JSON.stringify(tenants) };
    const env = { ...keys, TENANT_SCAN_TEST_PACING_MS: '100' };
    const running = [...STUCK, LONG].map((name) => `${name}: scan \\S+ running$`);
    const main = await runActionStep({
      entry: 'tenants',
      inputs,
      env,
      timeoutMs: 30_000,
      cancel: { after: allSeen([...running, `${QUICK}: passed`]), mode: 'kill' },
    });
    assert.equal(main.signal, 'SIGKILL', visibleLog(main));
    const scanOf = (name: string) => world.emulator.scans(`post-${name}`);
    for (const name of [...STUCK, LONG]) {
      assert.deepEqual(
        scanOf(name).map((s) => s.status),
        ['running'],
        `${name} left running by the kill`,
      );
    }
    // What was saved: one small value per tenant, the last one written.
    assert.deepEqual(Object.keys(main.state).sort(), tenants.map((t) => `tenant.${t.name}`).sort());
    assert.deepEqual(JSON.parse(main.state[`tenant.${QUICK}`] ?? ''), {
      scanId: scanOf(QUICK)[0]?.id,
      settled: true,
    });
    for (const name of [...STUCK, LONG]) {
      assert.deepEqual(JSON.parse(main.state[`tenant.${name}`] ?? ''), {
        scanId: scanOf(name)[0]?.id,
        settled: false,
      });
    }
    // The long scan ends by itself before the post step runs; the stuck ones never do.
    world.emulator.advance(60 * 60_000);
    assert.equal(scanOf(LONG)[0]?.status, 'completed');
    world.emulator.clearRequests();

    const post = await runPost({ inputs, env, job: main.job, state: main.state });
    assert.equal(post.exitCode, 0, visibleLog(post));
    for (const name of STUCK) {
      const [scan] = scanOf(name);
      assert.equal(scan?.status, 'cancelled', `${name}: ${visibleLog(post)}`);
      assert.match(visibleLog(post), new RegExp(`^${name}: Cancelled scan ${scan?.id}$`, 'm'));
    }
    const long = scanOf(LONG)[0];
    assert.equal(long?.status, 'completed');
    assert.match(
      visibleLog(post),
      new RegExp(
        `^${LONG}: Scan ${long?.id} already ended \\(completed\\); nothing to cancel$`,
        'm',
      ),
    );
    assert.deepEqual(apiRequests(world.emulator, 'POST', new RegExp(long?.id ?? '-')), []);
    const quick = scanOf(QUICK)[0];
    assert.equal(quick?.status, 'completed');
    assert.deepEqual(apiRequests(world.emulator, undefined, new RegExp(quick?.id ?? '-')), []);
    assert.doesNotMatch(visibleLog(post), new RegExp(`^${QUICK}:`, 'm'));
    assert.deepEqual(post.annotations, [], 'no warning');

    for (const [name, key] of Object.entries(keys)) {
      assert.deepEqual(
        findSecretInTexts(key, textsOf({ main, post })),
        [],
        `${name} in no log, state or output`,
      );
      assert.deepEqual(await findSecretInDirectory(key, main.job.root), [], `${name} in no file`);
    }
  });

  it("after the runner's SIGINT the step cancelled its scans itself: all settled, post sends nothing", async () => {
    const keys: Record<string, string> = {};
    const tenants = ['cyan', 'teal'].map((name) => {
      const scanPlan = { outcome: { kind: 'stuck' as const, atProgress: 30 } };
      keys[`${name.toUpperCase()}_KEY`] = world.emulator.addTenant({
        id: `post-${name}`,
        name,
        scanPlan,
      }).apiKey;
      return { name, 'api-url': world.emulator.url, secret: `${name.toUpperCase()}_KEY` };
    });
    const inputs = { tenants: JSON.stringify(tenants) };
    const env = { ...keys, TENANT_SCAN_TEST_PACING_MS: '100' };
    const main = await runActionStep({
      entry: 'tenants',
      inputs,
      env,
      timeoutMs: 30_000,
      cancel: { after: allSeen(['cyan: scan \\S+ running$', 'teal: scan \\S+ running$']) },
    });
    for (const name of ['cyan', 'teal']) {
      const [scan] = world.emulator.scans(`post-${name}`);
      assert.equal(scan?.status, 'cancelled', visibleLog(main));
      assert.deepEqual(JSON.parse(main.state[`tenant.${name}`] ?? ''), {
        scanId: scan?.id,
        settled: true,
      });
    }
    world.emulator.clearRequests();
    const post = await runPost({ inputs, env, job: main.job, state: main.state });
    assert.equal(post.exitCode, 0, visibleLog(post));
    assert.deepEqual(apiRequests(world.emulator), []);
  });

  it('a chunk step killed after a trigger was sent, before its answer: post cancels that scan, never one listed before it', async (t) => {
    // A stopped clock: every scan is created at the same instant, inside the trigger's window, so
    // only the list saved with the trigger tells the other job's scan from the step's own.
    const emulator = await startEmulator({ seed: 71, clockSpeed: 0 });
    t.after(() => emulator.close());
    const { apiKey } = emulator.addTenant({
      id: 'post-lost',
      name: 'lost',
      scanPlan: { outcome: { kind: 'stuck' as const, atProgress: 30 } },
    });
    // Another job's scan of the same type, running when the step lists the scans before its trigger.
    const other = createClient({
      apiKey: emulator.addKey('post-lost', 'other job'),
      baseUrl: emulator.url,
    });
    const earlier = await other.scans.create('compliance').finally(() => other.close());
    // The trigger's answer is cut short (the scan exists) and the lookup after it takes 3 s: time
    // to kill the step before any scan id is saved. The list before the trigger is not delayed.
    emulator.addFault({
      route: 'POST /tenants/me/scans',
      key: apiKey,
      fault: { kind: 'truncate' },
    });
    emulator.addFault({
      route: 'GET /tenants/me/scans',
      key: apiKey,
      after: 1,
      fault: { kind: 'delay', ms: 3_000 },
    });
    const inputs = {
      tenants: JSON.stringify([{ name: 'lost', 'api-url': emulator.url, secret: 'LOST_KEY' }]),
    };
    const env = { LOST_KEY: apiKey, TENANT_SCAN_TEST_PACING_MS: '100' };
    const main = await runActionStep({
      entry: 'tenants',
      inputs,
      env,
      timeoutMs: 30_000,
      cancel: { after: /answer to the trigger was lost/, mode: 'kill' },
    });
    assert.equal(main.signal, 'SIGKILL', visibleLog(main));
    const ours = emulator.scans('post-lost').filter((scan) => scan.id !== earlier.id);
    assert.equal(ours.length, 1, 'one scan, never two');
    const saved = JSON.parse(main.state['tenant.lost'] ?? '{}') as {
      pending?: { scanType?: string; existing?: { ids: string[] } };
    };
    assert.equal(saved.pending?.scanType, 'compliance', 'the trigger was saved before it was sent');
    assert.deepEqual(saved.pending?.existing?.ids, [earlier.id], 'with the scans listed before it');

    const post = await runPost({ inputs, env, job: main.job, state: main.state });
    assert.equal(post.exitCode, 0, visibleLog(post));
    const scanId = ours[0]?.id ?? '';
    assert.match(
      visibleLog(post),
      new RegExp(
        `^lost: The main step was stopped before the answer to its trigger arrived; scan ${scanId} is the only compliance scan`,
        'm',
      ),
    );
    assert.match(visibleLog(post), new RegExp(`^lost: Cancelled scan ${scanId}$`, 'm'));
    assert.equal(emulator.scans('post-lost').find((s) => s.id === scanId)?.status, 'cancelled');
    assert.deepEqual(
      apiRequests(emulator, 'POST', new RegExp(earlier.id)),
      [],
      'the scan listed before the trigger is not ours: never cancelled',
    );
    assert.deepEqual(post.annotations, [], 'no warning');
    assert.deepEqual(findSecretInTexts(apiKey, textsOf({ main, post })), []);
  });

  it('a trigger the service refused leaves no pending trigger: post sends nothing', async () => {
    const { apiKey } = world.emulator.addTenant({ id: 'post-refused', name: 'refused' });
    world.emulator.addFault({
      route: 'POST /tenants/me/scans',
      key: apiKey,
      fault: { kind: 'status', status: 422, code: 'VALIDATION_ERROR' },
    });
    const inputs = {
      tenants: JSON.stringify([
        { name: 'refused', 'api-url': world.emulator.url, secret: 'REFUSED_KEY' },
      ]),
    };
    const env = { REFUSED_KEY: apiKey, TENANT_SCAN_TEST_PACING_MS: '100' };
    const main = await runActionStep({ entry: 'tenants', inputs, env, timeoutMs: 30_000 });
    assert.equal(main.state['tenant.refused'], '', 'the pending trigger was cleared');
    world.emulator.clearRequests();
    const post = await runPost({ inputs, env, job: main.job, state: main.state });
    assert.equal(post.exitCode, 0, visibleLog(post));
    assert.deepEqual(apiRequests(world.emulator), [], 'no lookup, no cancel');
    assert.deepEqual(post.annotations, [], 'no warning');
  });

  it('with no saved state, does nothing and exits 0', async () => {
    const { apiKey } = world.emulator.addTenant({ id: 'post-none', name: 'none' });
    const tenants = [{ name: 'none', 'api-url': world.emulator.url, secret: 'NONE_KEY' }];
    world.emulator.clearRequests();
    const post = await runPost({
      inputs: { tenants: JSON.stringify(tenants) },
      env: { NONE_KEY: apiKey },
    });
    assert.equal(post.exitCode, 0, visibleLog(post));
    assert.deepEqual(apiRequests(world.emulator), []);
    const shown = visibleLog(post)
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('::debug::'));
    assert.deepEqual(shown, [], 'not a line but a debug one');
    assert.deepEqual(post.annotations, []);
  });

  it('a saved state that is not a scan id is refused: a warning, no request', async () => {
    const { apiKey } = world.emulator.addTenant({ id: 'post-forged', name: 'forged' });
    const tenants = [{ name: 'forged', 'api-url': world.emulator.url, secret: 'FORGED_KEY' }];
    world.emulator.clearRequests();
    const post = await runPost({
      inputs: { tenants: JSON.stringify(tenants) },
      env: { FORGED_KEY: apiKey },
      state: { 'tenant.forged': JSON.stringify({ scanId: '../keys', settled: false }) },
    });
    assert.equal(post.exitCode, 0, visibleLog(post));
    assert.deepEqual(apiRequests(world.emulator), []);
    assert.deepEqual(
      post.annotations.map((a) => `${a.level}: ${a.message}`),
      [
        'warning: forged: Cleanup failed: the saved scan of tenant forged must be a scan id (letters, digits, - and _), got "../keys"',
      ],
    );
  });
});
