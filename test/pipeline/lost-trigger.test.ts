// A trigger whose answer is lost after the request was sent (connection reset mid-response): the
// trigger is never repeated, and in a tenant other jobs share, only a scan created since the send is
// taken as ours — another job's scan is never followed, and never cancelled.
// Each test has its own emulator, on a real-time clock (clockSpeed 1) unless the test is about a
// service clock that differs from this machine's: the window is read on the service's clock (the
// Date header of its answers), so both must work.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { JobFailure, JobTimeoutError, runScanJob } from '../../src/pipeline/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, EmulatorOptions } from '../emulator/types.js';
import { FAST, RecordingReporter, apiRequests, settingsFor, tempDir } from './helpers.js';

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
  async function otherJobScan(emu: Emulator): Promise<string> {
    const client = createClient({
      apiKey: emu.addKey(emu.tenantId, 'other job'),
      baseUrl: emu.url,
    });
    try {
      return (await client.scans.create('compliance')).id;
    } finally {
      await client.close();
    }
  }

  it('is not repeated: the one scan created since the send is followed', async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 400, queuedMs: 50 });
    emu.addFault(LOST_TRIGGER);
    const reporter = new RecordingReporter();
    const result = await runScanJob(settingsFor(emu, path), reporter, FAST);
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
    const error = await runScanJob(
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
    const result = await runScanJob(settingsFor(emu, path), reporter, FAST);
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
    const result = await runScanJob(settingsFor(emu, path), new RecordingReporter(), FAST);
    assert.equal(emu.scans().length, 1);
    assert.equal(result.scanId, emu.scans()[0]?.id);
  });

  it('fails, cancelling nothing, when another key started a scan at the same time', async () => {
    const { emulator: emu, dir: path } = await start();
    emu.setScanPlan({ durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } });
    const otherId = await otherJobScan(emu);
    emu.addFault(LOST_TRIGGER);
    const reporter = new RecordingReporter();
    const error = await runScanJob(settingsFor(emu, path), reporter, FAST).catch((e: unknown) => e);
    assert.ok(error instanceof JobFailure, String(error));
    assert.equal(error.kind, 'failure');
    assert.match(
      error.message,
      /^Trigger failed: the connection dropped after the request was sent; a scan may have been started — check `scan list` \/ the dashboard \(2 compliance scans were created since the trigger was sent/,
    );
    assert.equal(emu.scans().length, 2);
    assert.ok(emu.scans().every((scan) => scan.status === 'running' || scan.status === 'queued'));
    assert.equal(apiRequests(emu, 'POST', /\/cancel$/).length, 0);
    assert.deepEqual(reporter.triggered, []);
    assert.ok(emu.scans().some((scan) => scan.id === otherId));
  });
});
