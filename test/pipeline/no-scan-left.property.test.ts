// Guarantee 4, "No scan left running" (docs/guarantees.md), in process: the job is cancelled (its
// AbortSignal, as the faces abort it on SIGINT/SIGTERM) at any moment — before the trigger is sent,
// while its answer is held back or lost, right after it, while waiting — with any schedule of
// faults on the cancel route (5xx, gateway pages, rate limits, resets before and after the service
// acted, truncated and slow answers) and on the trigger. Whatever the moment, the scan this run's
// key made ends cancelled or had already ended once the job has returned, within the trigger's
// answer grace plus the cancel grace; a scan given as `scan-id` is never cancelled. Each run has a
// tenant of its own: the ground truth of one run is the scans of its tenant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createClient } from '../../src/client/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, Fault, ScanPlan } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { RecordingReporter, jobOutcome, settingsFor, tempDir } from './helpers.js';

const TRIGGER = 'POST /tenants/me/scans';
const CANCEL = 'POST /scans/:id/cancel';
const CANCEL_GRACE_MS = 7_000; // the job's default (RunJobOptions.cancelGraceMs)
const TRIGGER_ANSWER_GRACE_MS = 2_000; // trigger.ts: a trigger in flight may still answer
const SLACK_MS = 1_500;

const RUNNING: ScanPlan = { durationMs: 60_000, queuedMs: 50, outcome: { kind: 'stuck' } };
const QUICK: ScanPlan = {
  durationMs: 1_000,
  queuedMs: 50,
  outcome: { kind: 'completed', total: 10, failed: 1 },
};

/** When the job is cancelled: a time after it starts, or a moment of its own. */
type Moment =
  | { at: 'time'; ms: number }
  | { at: 'trigger about to be sent' | 'scan triggered' | 'first progress'; ms: number };

const moment: fc.Arbitrary<Moment> = fc.oneof(
  fc.record({ at: fc.constant('time' as const), ms: fc.integer({ min: 0, max: 1_500 }) }),
  fc.record({
    at: fc.constantFrom(
      'trigger about to be sent' as const,
      'trigger about to be sent' as const,
      'scan triggered' as const,
      'first progress' as const,
    ),
    ms: fc.constantFrom(0, 0, 5, 30, 150),
  }),
);

/** The trigger's answer: on time, late, held back after the service acted (for a while or for
 *  good), or lost. */
const triggerFault: fc.Arbitrary<Fault | null> = fc.constantFrom<Fault | null>(
  null,
  null,
  { kind: 'delay', ms: 300 },
  { kind: 'delay', ms: 1_200 },
  { kind: 'stall', afterBytes: 0, ms: 1_000 },
  { kind: 'stall', afterBytes: 5, ms: 3_000 },
  { kind: 'stall', afterBytes: 0, ms: Infinity },
  { kind: 'stall', afterBytes: 20, ms: Infinity },
  { kind: 'truncate' },
  { kind: 'reset', when: 'mid-response' },
);

/** Answers of the cancel route before one goes through. */
const cancelFault: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 504, html: true },
  { kind: 'status', status: 429, code: 'RATE_LIMITED' },
  { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 1 },
  { kind: 'status', status: 503, code: 'SERVICE_STARTING' },
  { kind: 'reset', when: 'before' },
  { kind: 'reset', when: 'mid-response' },
  { kind: 'truncate' },
  { kind: 'delay', ms: 400 },
);

interface Drawn {
  moment: Moment;
  trigger: Fault | null;
  cancels: Fault[];
  plan: 'running' | 'quick';
  followScanId: boolean;
}

const drawn: fc.Arbitrary<Drawn> = fc.record({
  moment,
  trigger: triggerFault,
  // At most three failures: their pauses and answers fit in the cancel grace.
  cancels: fc.array(cancelFault, { maxLength: 3 }),
  plan: fc.constantFrom('running' as const, 'running' as const, 'quick' as const),
  followScanId: fc.boolean(),
});

function afterMs(ms: number, action: () => void): void {
  if (ms === 0) action();
  else setTimeout(action, ms);
}

describe('guarantee 4: no scan left running (in process)', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 10, seed: 13 });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });

  async function runOnce(d: Drawn): Promise<void> {
    emulator.clearFaults();
    const { tenantId, apiKey } = emulator.addTenant({
      scanPlan: d.plan === 'running' ? RUNNING : QUICK,
    });
    let followed: string | undefined;
    if (d.followScanId) {
      const earlier = createClient({ apiKey, baseUrl: emulator.url });
      followed = (await earlier.scans.create('compliance').finally(() => earlier.close())).id;
    }
    if (d.trigger) emulator.addFault({ route: TRIGGER, fault: d.trigger, key: apiKey });
    d.cancels.forEach((fault, index) =>
      emulator.addFault({ route: CANCEL, fault, after: index, times: 1, key: apiKey }),
    );

    const controller = new AbortController();
    let abortedAt: number | undefined;
    const abort = () => {
      abortedAt ??= Date.now();
      controller.abort();
    };
    const reporter = new RecordingReporter();
    const { at, ms } = d.moment;
    if (at === 'time') afterMs(ms, abort);
    else if (at === 'trigger about to be sent' && !followed)
      reporter.onPending = () => afterMs(ms, abort);
    else {
      // Following a scan by id, the moment of the trigger is the moment the scan is followed.
      const line = at === 'first progress' ? /^progress / : /^(Triggered|Following) /;
      void reporter.when(line).then(() => afterMs(ms, abort));
    }
    const settings = settingsFor(emulator, dir.path, {
      apiKey,
      scanTimeoutMs: 30_000,
      requestTimeoutMs: 3_000,
      resultsPath: undefined,
      ...(followed ? { scanId: followed } : {}),
    });
    const ended = await jobOutcome(settings, reporter, {
      signal: controller.signal,
      cancelGraceMs: CANCEL_GRACE_MS,
    });
    const endedAt = Date.now();
    abort(); // a job that ended before its moment: nothing more may happen
    const outcome = 'error' in ended ? ended.error : undefined;
    const shown = `${JSON.stringify(d)}\n${reporter.lines.join('\n')}\n${outcome instanceof Error ? outcome.message : 'no error'}`;

    const scans = emulator.scans(tenantId);
    if (followed) {
      assert.equal(scans.length, 1, `with scan-id nothing is triggered:\n${shown}`);
      assert.notEqual(
        scans[0]?.status,
        'cancelled',
        `the scan given by id was cancelled:\n${shown}`,
      );
      return;
    }
    assert.ok(scans.length <= 1, shown);
    for (const scan of scans) {
      assert.ok(
        scan.status === 'cancelled' || scan.status === 'completed' || scan.status === 'failed',
        `scan ${scan.id} of this run is left ${scan.status}:\n${shown}`,
      );
    }
    if (abortedAt !== undefined && abortedAt < endedAt) {
      const took = endedAt - abortedAt;
      assert.ok(
        took <= TRIGGER_ANSWER_GRACE_MS + CANCEL_GRACE_MS + SLACK_MS,
        `the job took ${took} ms after its cancel:\n${shown}`,
      );
    }
  }

  it('once the job returns, the scan it triggered is cancelled or had ended, and a scan given by id is never cancelled', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(20),
    );
  });
});
