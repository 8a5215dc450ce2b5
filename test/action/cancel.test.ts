// Cancellation like the runner does it: scan timeout, SIGINT (then SIGTERM 7.5 s later), and a
// main step killed outright, whose scan the post step then cancels. A scan given by scan-id is
// never cancelled.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  QUICK_SCAN,
  apiRequests,
  errorLines,
  startWorld,
  visibleLog,
  type World,
} from './world.js';

const TRIGGERED = /Triggered compliance scan/;

describe('action: cancellation', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
  });
  after(() => world.close());
  beforeEach(() => {
    world.emulator.clearFaults();
    world.emulator.setScanPlan({ ...QUICK_SCAN, outcome: { kind: 'stuck', atProgress: 30 } });
    world.emulator.clearRequests();
  });

  function truth(scanId: string | undefined) {
    return world.emulator.scans().find((scan) => scan.id === scanId);
  }

  it('scan-timeout-minutes: cancels the scan it triggered and fails with a clear line', async () => {
    const step = await world.main({ 'scan-timeout-minutes': '0.02' });
    assert.equal(step.exitCode, 1);
    const scanId = step.outputs['scan-id'];
    assert.ok(scanId);
    assert.deepEqual(errorLines(step), [
      `Wait failed: the scan did not finish within 0.02 minutes (scan-timeout-minutes); scan ${scanId} was cancelled remotely`,
    ]);
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
    const step = await world.main({}, { cancel: { after: /Tenant: / } });
    assert.equal(step.exitCode, 1);
    const created = world.emulator.scans().slice(before);
    assert.equal(created.length, 1, 'exactly one scan was triggered');
    assert.equal(step.state['triggered-scan-id'], created[0]?.id, visibleLog(step));
    assert.equal(created[0]?.status, 'cancelled');
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
