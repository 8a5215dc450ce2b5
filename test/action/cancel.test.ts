// Cancellation like the runner does it: scan timeout, SIGINT (then SIGTERM 7.5 s later), and a
// main step killed outright, whose scan the post step then cancels. A scan given by scan-id is
// never cancelled. The remote cancel is repeated until done (in the grace in main, in 20 s in post),
// and a step killed before its trigger's answer was saved still has its scan cancelled by post.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { QUICK_SCAN, apiRequests, errorLines, useWorld, visibleLog } from './world.js';

const TRIGGERED = /Triggered compliance scan/;
const CANCEL = 'POST /scans/:id/cancel';

describe('action: cancellation', () => {
  const world = useWorld({ ...QUICK_SCAN, outcome: { kind: 'stuck', atProgress: 30 } });

  function truth(scanId: string | undefined) {
    return world.emulator.scans().find((scan) => scan.id === scanId);
  }

  it('scan-timeout-minutes: cancels the scan it triggered and fails with a clear line', async () => {
    const step = await world.main({ 'scan-timeout-minutes': '0.02' });
    assert.equal(step.exitCode, 1);
    const scanId = step.outputs['scan-id'];
    assert.ok(scanId);
    // It says how long the progress had stood still, whatever stall-minutes.
    assert.equal(errorLines(step).length, 1);
    assert.match(
      errorLines(step)[0] ?? '',
      new RegExp(
        `^Wait failed: the scan did not finish within 0\\.02 minutes \\(scan-timeout-minutes\\); progress stuck at \\d+ % since \\d\\d:\\d\\d UTC, (under a second|\\d+ seconds?); scan ${scanId} was cancelled remotely$`,
      ),
    );
    assert.equal(truth(scanId)?.status, 'cancelled');
    assert.equal(step.state['settled-scan-id'], scanId);
  });

  it('SIGINT: cancels the remote scan before the runner would send SIGTERM', async () => {
    const step = await world.main({}, { cancel: { after: /Scan \S+: (queued|running)/ } });
    assert.deepEqual(
      step.signals.map((s) => s.signal),
      ['SIGINT'],
      'the step ended inside the grace: no SIGTERM was needed',
    );
    assert.equal(step.exitCode, 1);
    const scanId = step.state['triggered-scan-id'];
    assert.equal(truth(scanId)?.status, 'cancelled');
    assert.equal(apiRequests(world.emulator, 'POST', /\/cancel$/).length, 1);
    assert.match(
      errorLines(step).at(-1) ?? '',
      /^Wait failed: the job was cancelled; scan \S+ was cancelled remotely$/,
    );
    assert.equal(step.state['settled-scan-id'], scanId);
  });

  it('SIGINT while the trigger is in flight still cancels the scan it created', async () => {
    world.emulator.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'delay', ms: 800 } });
    const before = world.emulator.scans().length;
    const step = await world.main({}, { cancel: { after: /Sending the trigger/ } });
    assert.equal(step.exitCode, 1);
    const created = world.emulator.scans().slice(before);
    assert.equal(created.length, 1, 'exactly one scan was triggered');
    assert.equal(step.state['triggered-scan-id'], created[0]?.id, visibleLog(step));
    assert.equal(created[0]?.status, 'cancelled');
  });

  // Found by test/pipeline/no-scan-left.property.test.ts: the scan was left to the post step.
  it("SIGINT while the trigger's answer is held back: the main step finds the scan and cancels it within the grace", async () => {
    world.emulator.addFault({
      route: 'POST /tenants/me/scans',
      fault: { kind: 'stall', afterBytes: 0, ms: Infinity },
    });
    const before = world.emulator.scans().length;
    const step = await world.main({}, { cancel: { after: /Sending the trigger/ } });
    assert.deepEqual(
      step.signals.map((s) => s.signal),
      ['SIGINT'],
      'the step ended inside the grace: no SIGTERM was needed',
    );
    const created = world.emulator.scans().slice(before);
    assert.equal(created.length, 1, 'exactly one scan was triggered');
    assert.equal(created[0]?.status, 'cancelled', visibleLog(step));
    assert.equal(step.state['triggered-scan-id'], created[0]?.id);
    assert.equal(step.state['settled-scan-id'], created[0]?.id, 'nothing left to the post step');
    assert.deepEqual(errorLines(step), [
      `Trigger failed: the job was cancelled before the trigger's answer arrived; scan ${created[0]?.id} was cancelled remotely`,
    ]);
  });

  it('SIGINT after the scan ended stops the artifact upload and exits at once', async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 10, failed: 0 },
    });
    // The artifact backend answers 500s: the toolkit would retry them for about 30 s.
    world.artifacts.failNext('CreateArtifact', { status: 500, times: 100 });
    const finalized = world.artifacts.finalized().length;
    const step = await world.main(
      { report: 'generate' },
      { cancel: { after: /Report downloaded to / } },
    );
    assert.deepEqual(
      step.signals.map((s) => s.signal),
      ['SIGINT'],
      'the step ended without the runner having to send SIGTERM',
    );
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(errorLines(step), [
      'Publish failed: the job was cancelled after the scan ended (verdict: passed); the artifact upload stopped',
    ]);
    assert.equal(world.artifacts.finalized().length, finalized);
    assert.equal(step.outputs.verdict, 'passed');
    assert.ok(step.outputs['report-path']);
    assert.equal(step.outputs['artifact-id'], '');
  });

  it('main killed outright: the post step cancels the scan it left running', async () => {
    const result = await world.job({}, { cancel: { after: TRIGGERED, mode: 'kill' } });
    assert.equal(result.main.signal, 'SIGKILL');
    const scanId = result.main.state['triggered-scan-id'];
    assert.ok(scanId);
    assert.equal(result.main.state['settled-scan-id'], undefined);
    assert.ok(result.post);
    assert.equal(result.post.exitCode, 0, visibleLog(result.post));
    assert.match(result.post.stdout, new RegExp(`Cancelled scan ${scanId}`));
    assert.equal(truth(scanId)?.status, 'cancelled');
  });

  // Gap: the cancel request itself fails once (a 5xx, a dropped connection).
  it('the cancel request itself fails once: on SIGINT a 503 on the cancel is retried within the grace', async () => {
    world.emulator.addFault({ route: CANCEL, fault: { kind: 'status', status: 503 } });
    const step = await world.main({}, { cancel: { after: /Scan \S+: (queued|running)/ } });
    assert.deepEqual(
      step.signals.map((s) => s.signal),
      ['SIGINT'],
    );
    const scanId = step.state['triggered-scan-id'];
    assert.equal(truth(scanId)?.status, 'cancelled', visibleLog(step));
    assert.equal(apiRequests(world.emulator, 'POST', /\/cancel$/).length, 2);
    assert.match(errorLines(step).at(-1) ?? '', /scan \S+ was cancelled remotely$/);
    assert.equal(step.state['settled-scan-id'], scanId);
  });

  it('the cancel request itself fails once: after a kill the post step retries a dropped connection', async () => {
    world.emulator.addFault({ route: CANCEL, fault: { kind: 'reset', when: 'before' } });
    const result = await world.job({}, { cancel: { after: TRIGGERED, mode: 'kill' } });
    const scanId = result.main.state['triggered-scan-id'];
    assert.ok(result.post);
    assert.equal(result.post.exitCode, 0, visibleLog(result.post));
    assert.match(result.post.stdout, new RegExp(`Cancel of scan ${scanId} failed .*; retrying`));
    assert.match(result.post.stdout, new RegExp(`Cancelled scan ${scanId}`));
    assert.equal(truth(scanId)?.status, 'cancelled');
  });

  // Gap: a long 429 storm on the cancel request (the client alone stops after 6 attempts).
  it('a long 429 storm on the cancel: the post step outlasts it (a time budget, not 6 attempts)', async () => {
    world.emulator.addFault({
      route: CANCEL,
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 0.1 },
      times: 9,
    });
    const result = await world.job({}, { cancel: { after: TRIGGERED, mode: 'kill' } });
    const scanId = result.main.state['triggered-scan-id'];
    assert.ok(result.post);
    assert.match(
      result.post.stdout,
      new RegExp(`Cancelled scan ${scanId}`),
      visibleLog(result.post),
    );
    assert.equal(truth(scanId)?.status, 'cancelled');
    assert.equal(apiRequests(world.emulator, 'POST', /\/cancel$/).length, 10);
  });

  /** The trigger's answer is cut short (the scan exists) and the lookup after it takes 3 s: time
   *  to kill the step before any scan id is saved. The list before the trigger is not delayed. */
  function loseTheTriggerAnswerAndSlowTheLookup(): void {
    world.emulator.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'truncate' } });
    world.emulator.addFault({
      route: 'GET /tenants/me/scans',
      after: 1,
      fault: { kind: 'delay', ms: 3_000 },
    });
  }

  // Gap: the step is killed after the trigger was sent but before its answer was saved.
  it('killed after the trigger was sent but before its answer was saved: the post step finds the scan and cancels it', async () => {
    loseTheTriggerAnswerAndSlowTheLookup(); // killed while it waits: no scan id was ever saved
    const before = world.emulator.scans().length;
    const result = await world.job(
      {},
      { cancel: { after: /answer to the trigger was lost/, mode: 'kill' } },
    );
    assert.equal(result.main.signal, 'SIGKILL');
    assert.equal(result.main.state['triggered-scan-id'], undefined, 'no id was saved');
    assert.match(result.main.state['pending-trigger'] ?? '', /"scanType":"compliance"/);
    const created = world.emulator.scans().slice(before);
    assert.equal(created.length, 1, 'one scan, never two');
    const scanId = created[0]?.id ?? '';
    assert.ok(result.post);
    assert.equal(result.post.exitCode, 0, visibleLog(result.post));
    assert.match(
      result.post.stdout,
      new RegExp(
        `before the answer to its trigger arrived; scan ${scanId} is the only compliance scan`,
      ),
    );
    assert.match(result.post.stdout, new RegExp(`Cancelled scan ${scanId}`));
    assert.equal(result.post.state['lost-trigger'], 'found');
    assert.equal(truth(scanId)?.status, 'cancelled');
  });

  it('killed before the answer was saved, with two scans in the window: the post step warns and cancels nothing', async () => {
    loseTheTriggerAnswerAndSlowTheLookup();
    const before = world.emulator.scans().length;
    const main = await world.main(
      {},
      { cancel: { after: /answer to the trigger was lost/, mode: 'kill' } },
    );
    assert.equal(main.state['triggered-scan-id'], undefined);
    // Another job of the tenant triggers a scan in the same seconds.
    const other = createClient({
      apiKey: world.emulator.addKey(world.emulator.tenantId, 'other job'),
      baseUrl: world.emulator.url,
    });
    await other.scans.create('compliance').finally(() => other.close());
    const post = await world.post(main);
    assert.equal(post.exitCode, 0, visibleLog(post));
    assert.deepEqual(
      post.annotations.filter((a) => a.level === 'warning').map((a) => a.message),
      [
        'The main step was stopped before the answer to its trigger arrived: a compliance scan may have been started and left running (2 compliance scans were created since the trigger was sent, by this job or others); check `scan list` / the dashboard and cancel it there',
      ],
    );
    assert.equal(post.state['lost-trigger'], 'several');
    const created = world.emulator.scans().slice(before);
    assert.equal(created.length, 2);
    assert.ok(created.every((scan) => scan.status !== 'cancelled'));
    assert.equal(apiRequests(world.emulator, 'POST', /\/cancel$/).length, 0);
  });

  it('post step after a normal run: nothing to cancel, no request', async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 10, failed: 0 },
    });
    const result = await world.job();
    assert.equal(result.main.exitCode, 0);
    const before = world.emulator.requests().length;
    assert.ok(result.post);
    assert.equal(result.post.exitCode, 0);
    assert.equal(world.emulator.requests().length, before);
  });

  it('a scan given by scan-id is never cancelled: not on SIGINT, not on timeout, not by post', async () => {
    const started = await world.main({ wait: 'false' });
    const scanId = started.outputs['scan-id'] ?? '';
    world.emulator.clearRequests();
    const timedOut = await world.main({ 'scan-id': scanId, 'scan-timeout-minutes': '0.01' });
    assert.equal(timedOut.exitCode, 1);
    assert.match(errorLines(timedOut)[0] ?? '', /left running \(it was not started by this job\)/);
    const cancelled = await world.job(
      { 'scan-id': scanId },
      { cancel: { after: /Following scan/ } },
    );
    assert.equal(cancelled.main.exitCode, 1);
    assert.equal(apiRequests(world.emulator, 'POST').length, 0);
    assert.notEqual(truth(scanId)?.status, 'cancelled');
  });
});
