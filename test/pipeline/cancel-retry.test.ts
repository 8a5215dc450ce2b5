// Guarantee 4, gap "the cancel request itself fails once (a 5xx, a dropped connection)": the job
// repeats the cancel until the scan is terminal, within its budget (time, not attempts); a refusal
// on a scan that already ended counts as done. And the pending trigger a face saves for its
// clean-up: saved before the trigger is sent, cleared once the answer's id is saved.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { cancelScanUntilDone } from '../../src/pipeline/job/cancel-scan.js';
import { JobCancelledError, JobTimeoutError } from '../../src/pipeline/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, FaultRule } from '../emulator/types.js';
import {
  FAST,
  RecordingReporter,
  apiRequests,
  resetEmulator,
  settingsFor,
  tempDir,
  runJob,
} from './helpers.js';

const STUCK = { durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } } as const;
const CANCEL = 'POST /scans/:id/cancel';
const TRIGGER = 'POST /tenants/me/scans';

describe('the cancel request itself fails once', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 20, seed: 17 });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });
  beforeEach(() => resetEmulator(emulator, STUCK));

  async function timedOutWith(fault: FaultRule['fault'], times = 1) {
    emulator.addFault({ route: CANCEL, fault, times });
    const reporter = new RecordingReporter();
    const error = await runJob(
      settingsFor(emulator, dir.path, { scanTimeoutMs: 300 }),
      reporter,
      FAST,
    ).then(
      () => assert.fail('expected the scan timeout'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JobTimeoutError, String(error));
    const scan = emulator.scans().find((s) => s.id === error.scanId);
    return { error, reporter, scan, cancels: apiRequests(emulator, 'POST', /\/cancel$/) };
  }

  for (const [name, fault] of [
    ['a 503', { kind: 'status', status: 503 }],
    ['an HTML 504 gateway page', { kind: 'status', status: 504, html: true }],
    ['a connection reset before the service acted', { kind: 'reset', when: 'before' }],
  ] as const) {
    it(`${name} on the cancel is followed by a second cancel`, async () => {
      const { error, reporter, scan, cancels } = await timedOutWith(fault);
      assert.equal(scan?.status, 'cancelled');
      assert.equal(cancels.length, 2);
      assert.equal(error.remoteCancel, 'cancelled');
      assert.match(error.message, /was cancelled remotely$/);
      assert.deepEqual(reporter.settled, [scan?.id]);
      assert.ok(reporter.lines.some((l) => /^Cancel of scan \S+ failed \(.*\); retrying$/.test(l)));
    });
  }

  it('a cancel whose answer is lost after the service acted is not sent again', async () => {
    const { error, scan, cancels } = await timedOutWith({ kind: 'reset', when: 'mid-response' });
    assert.equal(scan?.status, 'cancelled');
    assert.equal(cancels.length, 1, 'the scan read after the failure shows it cancelled');
    assert.equal(error.remoteCancel, 'cancelled');
  });

  it('on abort (SIGINT), a 502 on the cancel is retried too', async () => {
    emulator.addFault({ route: CANCEL, fault: { kind: 'status', status: 502 } });
    const controller = new AbortController();
    const reporter = new RecordingReporter();
    const running = runJob(settingsFor(emulator, dir.path), reporter, {
      ...FAST,
      signal: controller.signal,
    });
    await reporter.when(/^progress (queued|running)/);
    controller.abort();
    const error = await running.catch((e: unknown) => e);
    assert.ok(error instanceof JobCancelledError, String(error));
    assert.equal(emulator.scans().find((s) => s.id === error.scanId)?.status, 'cancelled');
    assert.equal(apiRequests(emulator, 'POST', /\/cancel$/).length, 2);
  });

  it('gives up when the budget is spent, not after a number of attempts, and says so', async () => {
    const { error, reporter, scan, cancels } = await timedOutWith(
      { kind: 'status', status: 503 },
      1_000,
    );
    assert.equal(scan?.status, 'running');
    assert.ok(cancels.length > 1, `${cancels.length} cancels`);
    assert.equal(error.remoteCancel, 'failed');
    assert.match(error.message, /could not be cancelled; cancel it in the dashboard$/);
    assert.ok(reporter.warnings.some((w) => /^Cancel failed: .*gave up after 3 s/.test(w)));
    assert.deepEqual(reporter.settled, []);
  });

  it('a 409 "not cancellable" on a scan that already ended counts as done', async () => {
    emulator.setScanPlan({ durationMs: 100, queuedMs: 0 });
    const client = createClient({ apiKey: emulator.apiKey, baseUrl: emulator.url });
    try {
      const scan = await client.scans.create('compliance');
      emulator.advance(10_000);
      const { outcome } = await cancelScanUntilDone(client, scan.id, { budgetMs: 5_000 });
      assert.equal(outcome, 'ended');
      assert.equal(apiRequests(emulator, 'POST', /\/cancel$/).length, 1, 'not repeated');
    } finally {
      await client.close();
    }
  });
});

describe('the pending trigger (for a clean-up after a kill before the answer)', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 20, seed: 18 });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });
  beforeEach(() => {
    resetEmulator(emulator, { durationMs: 400, queuedMs: 50 });
    emulator.advance(60_000); // the scans of earlier tests are long before the next trigger
  });

  it('is saved before the trigger is sent, and cleared once the id is saved', async () => {
    const reporter = new RecordingReporter();
    const triggersAtSave: number[] = [];
    reporter.onPending = () => triggersAtSave.push(apiRequests(emulator, 'POST').length);
    const result = await runJob(settingsFor(emulator, dir.path), reporter, FAST);
    assert.deepEqual(triggersAtSave, [0], 'saved before the POST reached the service');
    assert.deepEqual(reporter.saved, ['pending', `triggered ${result.scanId}`, 'cleared']);
    const [pending] = reporter.pendingTriggers;
    assert.equal(pending?.scanType, 'compliance');
    assert.equal(pending?.clock, 'server', "the window starts on the service's clock");
  });

  for (const status of [400, 503] as const) {
    it(`is cleared when the service answered the trigger (${status}): no lookup is left to do`, async () => {
      emulator.addFault({ route: TRIGGER, fault: { kind: 'status', status } });
      const reporter = new RecordingReporter();
      await assert.rejects(runJob(settingsFor(emulator, dir.path), reporter, FAST));
      assert.deepEqual(reporter.saved, ['pending', 'cleared']);
    });
  }

  it('is kept when the answer was lost and the lookup could not be done (left to the clean-up)', async () => {
    emulator.addFault({ route: TRIGGER, fault: { kind: 'reset', when: 'mid-response' } });
    // after: 1 — the list before the trigger is read; the lookup's list is refused.
    emulator.addFault({
      route: 'GET /tenants/me/scans',
      fault: { kind: 'status', status: 403 },
      after: 1,
    });
    const reporter = new RecordingReporter();
    const error = await runJob(settingsFor(emulator, dir.path), reporter, FAST).catch(
      (e: unknown) => e,
    );
    assert.match(String(error), /a scan may have been started .*the scan list could not be read/);
    assert.deepEqual(reporter.saved, ['pending']);
  });

  it('is cleared once the lookup after a lost answer found the scan and its id is saved', async () => {
    emulator.addFault({ route: TRIGGER, fault: { kind: 'reset', when: 'mid-response' } });
    const reporter = new RecordingReporter();
    const result = await runJob(settingsFor(emulator, dir.path), reporter, FAST);
    assert.deepEqual(reporter.saved, ['pending', `triggered ${result.scanId}`, 'cleared']);
  });

  // Guarantee 4 (found by test/pipeline/no-scan-left.property.test.ts): a cancel while the
  // trigger's answer was held back after the service acted left the scan to the post step.
  it("a cancel while the trigger's answer is held back: the scan is looked up and cancelled within the grace", async () => {
    emulator.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    emulator.addFault({ route: TRIGGER, fault: { kind: 'stall', afterBytes: 0, ms: Infinity } });
    const controller = new AbortController();
    const reporter = new RecordingReporter();
    reporter.onPending = () => setTimeout(() => controller.abort(), 50);
    const started = Date.now();
    const error = await runJob(settingsFor(emulator, dir.path), reporter, {
      ...FAST,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    assert.ok(error instanceof JobCancelledError, String(error));
    const scan = emulator.scans().at(-1);
    assert.match(
      error.message,
      new RegExp(
        `^Trigger failed: the job was cancelled before the trigger's answer arrived; scan ${scan?.id} was cancelled remotely$`,
      ),
    );
    assert.equal(scan?.status, 'cancelled');
    assert.deepEqual(reporter.saved, ['pending', `triggered ${scan?.id}`, 'cleared']);
    assert.deepEqual(reporter.settled, [scan?.id], 'nothing is left to the clean-up');
    assert.ok(Date.now() - started < 2_000 + FAST.cancelGraceMs, 'within the grace');
  });

  it('is kept when the job is cancelled before a held-back answer and no scan is found yet', async () => {
    // The service has not acted yet (the trigger waits in front of it): its clean-up looks again.
    emulator.addFault({ route: TRIGGER, fault: { kind: 'delay', ms: 4_000 } });
    const controller = new AbortController();
    const reporter = new RecordingReporter();
    reporter.onPending = () => setTimeout(() => controller.abort(), 50);
    const error = await runJob(settingsFor(emulator, dir.path), reporter, {
      ...FAST,
      signal: controller.signal,
    }).catch((e: unknown) => e);
    assert.ok(error instanceof JobCancelledError, String(error));
    assert.match(
      error.message,
      /^Trigger failed: the job was cancelled before the trigger's answer arrived; no compliance scan created since the trigger was sent was found$/,
    );
    assert.deepEqual(reporter.saved, ['pending']);
  });

  it('is not saved with wait false: that scan keeps running by design', async () => {
    const reporter = new RecordingReporter();
    await runJob(settingsFor(emulator, dir.path, { wait: false }), reporter, FAST);
    assert.deepEqual(reporter.saved, []);
  });
});
