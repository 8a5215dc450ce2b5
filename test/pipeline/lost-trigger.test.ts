// A trigger whose answer is lost after the request was sent (connection reset mid-response): the
// trigger is never repeated, and in a tenant other jobs share, only a scan created since the send
// and not listed right before it is taken as ours — another job's scan is never followed, and never
// cancelled; when two could be ours, none is taken. The lookup's outcome is reported as data.
// Each test has its own emulator, on a real-time clock (clockSpeed 1) unless the test is about a
// service clock that differs from this machine's: the window is read on the service's clock (the
// Date header of its answers), so both must work.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import type { TenantClient } from '../../src/client/types.js';
import { JobFailure, JobTimeoutError } from '../../src/pipeline/index.js';
import type { LostTriggerReport } from '../../src/pipeline/index.js';
import {
  EXISTING_SCANS_HORIZON_MS,
  MAX_EXISTING_SCAN_IDS,
  decodePendingTrigger,
  encodePendingTrigger,
} from '../../src/pipeline/job/lost-trigger.js';
import { runTenantJobs } from '../../src/pipeline/run-tenants.js';
import type { PendingTrigger } from '../../src/pipeline/job/types.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, EmulatorOptions } from '../emulator/types.js';
import { FAST, RecordingReporter, apiRequests, settingsFor, tempDir, runJob } from './helpers.js';

/** Records the lookup outcomes the job reports as data (the Action saves them as state). */
class LookupRecorder extends RecordingReporter {
  readonly lookups: LostTriggerReport[] = [];
  lostTriggerLookup(report: LostTriggerReport): void {
    this.lookups.push(report);
  }
}

/** The job's own client, except that `before` runs (another job triggers) after the job listed the
 *  scans and right before its trigger is sent: the one-round-trip race the list cannot close. */
function otherScanRightBeforeTrigger(
  client: TenantClient,
  before: () => Promise<void>,
): TenantClient {
  return {
    ...client,
    scans: {
      ...client.scans,
      create: async (scanType, options) => {
        await before();
        return client.scans.create(scanType, options);
      },
    },
  };
}

function createdAtOf(emu: Emulator, id: string | undefined): string {
  return emu.scans().find((scan) => scan.id === id)?.createdAt ?? assert.fail(`no scan ${id}`);
}

const LOST_TRIGGER = {
  route: 'POST /tenants/me/scans',
  fault: { kind: 'reset', when: 'mid-response' },
} as const;

describe('runScanJob: a trigger whose answer is lost', () => {
  let emulator: Emulator | undefined;
  let dir: { path: string; remove(): Promise<void> } | undefined;

  async function start(options: EmulatorOptions = {}) {
    emulator = await startEmulator({ clockSpeed: 1, seed: 5, ...options });
    dir = await tempDir();
    return { emulator, dir: dir.path };
  }

  afterEach(async () => {
    await emulator?.close();
    await dir?.remove();
    emulator = undefined;
    dir = undefined;
  });

  /** Another job of the same tenant, with its own key, triggers a scan that keeps running. */
  async function otherJobScan(emu: Emulator, scanType = 'compliance'): Promise<string> {
    const [id] = await otherJobScans(emu, 1, scanType);
    return id ?? assert.fail('no scan created');
  }

  /** Another job triggers `count` scans, one after the other; their ids, oldest first. */
  async function otherJobScans(emu: Emulator, count: number, scanType = 'compliance') {
    const client = createClient({
      apiKey: emu.addKey(emu.tenantId, 'other job'),
      baseUrl: emu.url,
    });
    try {
      const ids: string[] = [];
      for (let i = 0; i < count; i++) ids.push((await client.scans.create(scanType)).id);
      return ids;
    } finally {
      await client.close();
    }
  }

  it('is not repeated: the one scan created since the send is followed', async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault(LOST_TRIGGER);
    const reporter = new RecordingReporter();
    const result = await runJob(settingsFor(emu, path), reporter, FAST);
    const scans = emu.scans();
    assert.equal(scans.length, 1, 'one scan, never two');
    assert.equal(result.scanId, scans[0]?.id);
    assert.equal(result.failed, 5);
    assert.deepEqual(reporter.triggered, [result.scanId]);
    assert.ok(reporter.warnings.some((w) => /answer to the trigger was lost/.test(w)));
    assert.ok(reporter.lines.some((l) => l.startsWith(`Found scan ${result.scanId}: the only`)));
  });

  it('takes its own scan, not an older running scan of another key, and cancels only its own', async () => {
    // The emulator clock starts 10 s behind: the other job's scan is created "10 s ago"; then the
    // clock catches up with this machine's before this job triggers.
    const { emulator: emu, dir: path } = await start({ epochMs: Date.now() - 10_000 });
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const otherId = await otherJobScan(emu);
    emu.advance(10_000);
    emu.addFault(LOST_TRIGGER);
    const error = await runJob(
      settingsFor(emu, path, { scanTimeoutMs: 600 }),
      new RecordingReporter(),
      FAST,
    ).then(
      () => assert.fail('expected the scan timeout'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof JobTimeoutError, String(error));
    const ours = emu.scans().find((scan) => scan.id !== otherId);
    assert.equal(error.scanId, ours?.id);
    assert.equal(ours?.status, 'cancelled');
    assert.equal(emu.scans().find((scan) => scan.id === otherId)?.status, 'running');
    assert.deepEqual(
      apiRequests(emu, 'POST', /\/cancel$/).map((r) => r.path),
      [`/scans/${ours?.id}/cancel`],
    );
  });

  it("matches on the service's clock: an emulator running 30 times faster than this machine", async () => {
    // The service clock runs ahead of this machine's at once (and by 10 s more after the other
    // job's scan): by this machine's clock the scan would be created "in the future".
    const { emulator: emu, dir: path } = await start({ clockSpeed: 30 });
    emu.setScanPlan({ durationMs: 6_000, queuedMs: 300 });
    const otherId = await otherJobScan(emu);
    emu.advance(10_000);
    emu.addFault(LOST_TRIGGER);
    const reporter = new RecordingReporter();
    const result = await runJob(settingsFor(emu, path), reporter, FAST);
    const ours = emu.scans().filter((scan) => scan.id !== otherId);
    assert.equal(ours.length, 1, 'one scan of ours, never two');
    assert.equal(
      result.scanId,
      ours[0]?.id,
      'the scan created since the trigger, not the older one',
    );
    assert.ok(reporter.lines.some((l) => l.startsWith(`Found scan ${result.scanId}: the only`)));
  });

  it("matches on the service's clock: a service clock a minute behind this machine's", async () => {
    const { emulator: emu, dir: path } = await start({ epochMs: Date.now() - 60_000 });
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault(LOST_TRIGGER);
    const result = await runJob(settingsFor(emu, path), new RecordingReporter(), FAST);
    assert.equal(emu.scans().length, 1);
    assert.equal(result.scanId, emu.scans()[0]?.id);
  });

  it("takes its own scan, not another key's scan started in the same seconds before the trigger", async () => {
    // The other job's scan is in the time window too: the window alone would see two candidates.
    // It was listed before the trigger, so it is set aside.
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const otherId = await otherJobScan(emu);
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault(LOST_TRIGGER);
    const reporter = new LookupRecorder();
    const result = await runJob(settingsFor(emu, path), reporter, FAST);
    const ours = emu.scans().filter((scan) => scan.id !== otherId);
    assert.equal(ours.length, 1, 'one scan of ours, never two');
    assert.equal(result.scanId, ours[0]?.id);
    assert.equal(result.verdict, 'failed', 'the verdict of our completed scan (5 failed findings)');
    assert.deepEqual(reporter.pendingTriggers[0]?.existing?.ids, [otherId]);
    assert.deepEqual(reporter.lookups, [
      { outcome: 'found', scanId: result.scanId, existingKnown: true },
    ]);
    assert.equal(emu.scans().find((scan) => scan.id === otherId)?.status, 'running');
    assert.equal(apiRequests(emu, 'POST', /\/cancel$/).length, 0);
  });

  it("finds no scan, and takes none, when the trigger never reached the service and another key's scan is in the window", async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const otherId = await otherJobScan(emu);
    emu.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'reset', when: 'before' } });
    const reporter = new LookupRecorder();
    // A short timeout: a job that took the other scan would end soon (and fail this test).
    const settings = settingsFor(emu, path, { scanTimeoutMs: 2_000 });
    const error = await runJob(settings, reporter, FAST).catch((e: unknown) => e);
    assert.ok(error instanceof JobFailure, String(error));
    assert.match(
      error.message,
      /^Trigger failed: the connection dropped after the request was sent; a scan may have been started — check `scan list` \/ the dashboard \(no compliance scan created since the trigger was sent was found\)$/,
    );
    assert.deepEqual(reporter.lookups, [{ outcome: 'none', existingKnown: true }]);
    assert.deepEqual(reporter.triggered, []);
    assert.deepEqual(reporter.saved, ['pending', 'cleared'], 'a clear answer: nothing to clean up');
    assert.deepEqual(
      emu.scans().map((scan) => scan.id),
      [otherId],
    );
    assert.equal(apiRequests(emu, 'POST', /\/cancel$/).length, 0);
  });

  it('fails, cancelling nothing, when another key started a scan between the list before the trigger and the trigger', async () => {
    // The remaining race, one round trip wide: the other job's scan is neither listed before the
    // trigger nor told apart from ours by time. The job refuses to guess.
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    emu.addFault({ ...LOST_TRIGGER, after: 1 }); // the first trigger the service sees is the other job's
    const client = createClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    let otherId: string | undefined;
    const racing = otherScanRightBeforeTrigger(client, async () => {
      otherId = await otherJobScan(emu);
    });
    const reporter = new LookupRecorder();
    try {
      const error = await runJob(settingsFor(emu, path), reporter, {
        ...FAST,
        client: racing,
      }).catch((e: unknown) => e);
      assert.ok(error instanceof JobFailure, String(error));
      assert.equal(error.kind, 'failure');
      assert.match(
        error.message,
        /^Trigger failed: the connection dropped after the request was sent; a scan may have been started — check `scan list` \/ the dashboard \(2 compliance scans were created since the trigger was sent/,
      );
    } finally {
      await client.close();
    }
    assert.deepEqual(reporter.pendingTriggers[0]?.existing?.ids, [], 'nothing existed before');
    assert.deepEqual(reporter.lookups, [
      { outcome: 'several', candidates: 2, existingKnown: true },
    ]);
    assert.equal(emu.scans().length, 2);
    assert.ok(emu.scans().every((scan) => scan.status === 'running' || scan.status === 'queued'));
    assert.equal(apiRequests(emu, 'POST', /\/cancel$/).length, 0);
    assert.deepEqual(reporter.triggered, []);
    assert.deepEqual(reporter.saved, ['pending', 'cleared']);
    assert.ok(emu.scans().some((scan) => scan.id === otherId));
  });

  it('falls back to the time window when the list before the trigger cannot be read', async () => {
    // The list before the trigger is refused once: the job goes on and says so; the lookup after
    // the lost answer has only the window, in which another key's scan lies: it refuses to guess.
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    await otherJobScan(emu);
    emu.addFault({ route: 'GET /tenants/me/scans', fault: { kind: 'status', status: 500 } });
    emu.addFault(LOST_TRIGGER);
    const reporter = new LookupRecorder();
    const error = await runJob(settingsFor(emu, path), reporter, FAST).catch((e: unknown) => e);
    assert.ok(error instanceof JobFailure, String(error));
    assert.ok(
      reporter.lines.some((line) =>
        /^Could not list the scans before the trigger \(.*500.*\); should its answer be lost, its scan would be looked up by creation time alone$/.test(
          line,
        ),
      ),
      reporter.lines.join('\n'),
    );
    assert.equal(reporter.pendingTriggers[0]?.existing, undefined);
    assert.deepEqual(reporter.lookups, [
      { outcome: 'several', candidates: 2, existingKnown: false },
    ]);
    assert.equal(apiRequests(emu, 'POST', /\/cancel$/).length, 0);
  });

  it('does not fail a run whose list before the trigger cannot be read and whose answer arrives', async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault({ route: 'GET /tenants/me/scans', fault: { kind: 'status', status: 500 } });
    const reporter = new LookupRecorder();
    const result = await runJob(settingsFor(emu, path), reporter, FAST);
    assert.equal(result.scanId, emu.scans()[0]?.id);
    assert.equal(result.failed, 5);
    assert.deepEqual(reporter.lookups, []);
  });

  it('keeps the ids of recent scans of its type only, and sets older ones aside by time', async () => {
    // On the service's clock: a scan 10 minutes old and one of another type are not kept; a scan a
    // minute old is. The saved state stays one short line.
    const { emulator: emu, dir: path } = await start({ epochMs: Date.now() - 11 * 60_000 });
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    await otherJobScan(emu);
    emu.advance(10 * 60_000);
    const recent = await otherJobScan(emu);
    await otherJobScan(emu, 'security');
    emu.advance(60_000);
    const reporter = new LookupRecorder();
    await runJob(settingsFor(emu, path), reporter, FAST);
    const pending = reporter.pendingTriggers[0];
    assert.ok(pending);
    assert.deepEqual(pending.existing?.ids, [recent]);
    assert.equal(pending.existing?.sinceMs, pending.windowStartMs - EXISTING_SCANS_HORIZON_MS);
    const saved = encodePendingTrigger(pending);
    assert.ok(!saved.includes('\n'));
    assert.deepEqual(decodePendingTrigger(saved), pending);
  });

  it('keeps at most 50 ids: more scans in the same seconds are set aside by time, and ours is still found', async () => {
    // 51 scans of another job, all in the time window: 50 ids are kept, the oldest is set aside by
    // its creation time (older than every kept one); without that it would be a second candidate.
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const others = await otherJobScans(emu, MAX_EXISTING_SCAN_IDS + 1);
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault(LOST_TRIGGER);
    const reporter = new LookupRecorder();
    const result = await runJob(settingsFor(emu, path), reporter, FAST);
    assert.ok(!others.includes(result.scanId));
    assert.equal(emu.scans().length, MAX_EXISTING_SCAN_IDS + 2, 'one scan of ours, never two');
    const existing = reporter.pendingTriggers[0]?.existing;
    assert.equal(existing?.ids.length, MAX_EXISTING_SCAN_IDS);
    assert.ok(!existing?.ids.includes(others[0] ?? ''), 'the oldest is not kept');
    assert.equal(existing?.sinceMs, Date.parse(createdAtOf(emu, others[0])) + 1);
    assert.deepEqual(reporter.lookups, [
      { outcome: 'found', scanId: result.scanId, existingKnown: true },
    ]);
    const saved = encodePendingTrigger(reporter.pendingTriggers[0] ?? assert.fail('no pending'));
    assert.ok(saved.length < 2_500, `saved state of ${saved.length} characters`);
  });

  it('a face that saves a window per tenant keeps fewer ids: the rest are set aside by time', async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const others = await otherJobScans(emu, 3);
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    const windows: PendingTrigger[] = [];
    const [outcome] = await runTenantJobs(
      [{ name: 'acme', settings: settingsFor(emu, path), recordPath: join(path, 'acme.json') }],
      {
        concurrency: 1,
        job: FAST,
        // A face's reporter is a plain object (run-tenants spreads it to add the observer).
        reporterFor: () => ({
          info: () => undefined,
          warning: () => undefined,
          debug: () => undefined,
          scanTriggered: () => undefined,
          progress: () => undefined,
          scanSettled: () => undefined,
          retrying: () => undefined,
        }),
        scans: {
          pendingIdsMax: 2,
          pending: (_tenant, pending) => void (pending && windows.push(pending)),
          triggered: () => undefined,
          settled: () => undefined,
        },
      },
    );
    assert.equal(outcome?.started, true, outcome?.error);
    assert.deepEqual(windows[0]?.existing?.ids, [others[2], others[1]], 'the two newest');
    assert.equal(windows[0]?.existing?.sinceMs, Date.parse(createdAtOf(emu, others[0])) + 1);
  });
});

describe('the pending trigger a face saves', () => {
  const pending = {
    scanType: 'compliance',
    windowStartMs: 1_700_000_000_000,
    clock: 'server' as const,
    existing: { ids: ['a', 'b'], sinceMs: 1_699_999_700_000 },
  };

  it('reads back what was written, on one line', () => {
    const text = encodePendingTrigger(pending);
    assert.ok(!text.includes('\n'));
    assert.deepEqual(decodePendingTrigger(text), pending);
    const { existing: _existing, ...windowOnly } = pending;
    assert.deepEqual(decodePendingTrigger(encodePendingTrigger(windowOnly)), windowOnly);
  });

  it('drops a malformed list of existing scans (the window alone then decides)', () => {
    const { existing: _existing, ...windowOnly } = pending;
    for (const existing of [
      { ids: 'a' },
      { ids: [1, 2] },
      { ids: ['a'], sinceMs: 'soon' },
      { ids: Array.from({ length: MAX_EXISTING_SCAN_IDS + 1 }, (_, i) => `id-${i}`) },
      null,
    ]) {
      assert.deepEqual(
        decodePendingTrigger(JSON.stringify({ ...windowOnly, existing })),
        windowOnly,
        JSON.stringify(existing),
      );
    }
    assert.equal(decodePendingTrigger('{"scanType":"compliance"'), undefined);
    assert.equal(decodePendingTrigger(''), undefined);
  });
});
