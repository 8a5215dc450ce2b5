// Regression tests for invariants the fault campaign found broken, each named after the invariant
// and the campaign seed that found it, reproduced deterministically with a hand-built scenario (no
// randomness, no timing: faults are counted per request, cancellation waits for a log line).
//
// A test marked `todo` reproduces a bug that is reported and not fixed yet: it runs and shows as
// TODO without failing the suite. Remove `todo` when the fix lands (the test must then pass).
// Tests without `todo` guard bugs already fixed.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Emulator, FaultRule, ScanPlan } from '../emulator/types.js';
import {
  executeScenario,
  startOtherJobScan,
  startSharedBackends,
  type SharedBackends,
} from './executor.js';
import { checkInvariants, visibleLog } from './invariants.js';
import type { Observation } from './observation.js';
import type { CancelChoice, Scenario } from './scenario.js';

/** A scan that never ends: one left running is still running when the run is over. */
const NEVER_ENDS: ScanPlan = {
  durationMs: 1_000,
  queuedMs: 0,
  outcome: { kind: 'stuck', atProgress: 10 },
};

function scenario(patch: {
  seed: number;
  faults: FaultRule[];
  cancel?: CancelChoice;
  inputs?: Record<string, string>;
  plan?: ScanPlan;
  bystander?: ScanPlan;
  serviceClockAheadMs?: number;
}): Scenario {
  return {
    seed: patch.seed,
    // Clock speed 1: the service's timestamps agree with this machine's clock (as with a real
    // service); `serviceClockAheadMs` skews them on purpose.
    emulator: {
      clockSpeed: 1,
      epochMs: Date.now() + (patch.serviceClockAheadMs ?? 0),
      warmupMs: 0,
      downloadTtlMs: 60_000,
      reportRenderMs: 500,
      reportSizeBytes: 1_000,
    },
    rateLimit: { kind: 'none' },
    variant: {},
    faults: patch.faults,
    tenant: { name: 'Regression Ltd', scanPlan: patch.plan ?? NEVER_ENDS },
    badKey: false,
    bystander: patch.bystander,
    otherJobDuringRun: false,
    inputs: { report: 'none', 'scan-timeout-minutes': '0.05', ...patch.inputs },
    artifacts: false,
    pullRequest: false,
    cancel: patch.cancel ?? { kind: 'none', after: 0 },
  };
}

/** Another job's scan: long, so it is still running when the run ends. */
const OTHER_JOB_SCAN: ScanPlan = {
  durationMs: 600_000,
  queuedMs: 0,
  outcome: { kind: 'completed', total: 10, failed: 1 },
};

/** Starts another job's scan (another key) while the action's key check is held by a delay
 *  fault: the other scan is created just before the action triggers its own — a matrix build. */
function otherJobStartsJustBeforeTrigger(emu: Emulator): Promise<void> {
  const deadline = Date.now() + 30_000;
  const poll = async (): Promise<void> => {
    const checking = emu.requests().some((r) => r.method === 'GET' && r.path === '/tenants/me');
    if (checking) return startOtherJobScan(emu, OTHER_JOB_SCAN, NEVER_ENDS);
    if (Date.now() > deadline) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
    return poll();
  };
  return poll();
}

const HOLD_THE_KEY_CHECK: FaultRule = {
  route: 'GET /tenants/me',
  fault: { kind: 'delay', ms: 1_000 },
};

function explain(o: Observation): string {
  const lines = checkInvariants(o).map((v) => `invariant ${v.invariant}: ${v.message}`);
  return `${lines.join('\n')}\n--- main\n${visibleLog(o.main)}\n--- post\n${o.post ? visibleLog(o.post) : ''}`;
}

function assertNoInvariantBroken(o: Observation): void {
  assert.deepEqual(checkInvariants(o), [], explain(o));
}

describe('fault campaign regressions', { concurrency: 3 }, () => {
  let backends: SharedBackends;
  before(async () => {
    backends = await startSharedBackends();
  });
  after(() => backends.close());

  const run = async (s: Scenario, duringRun?: (emu: Emulator) => Promise<void>) =>
    (await executeScenario(s, { backends, duringRun })).observation;

  // Fixed: the lost answer of a trigger is recovered by looking the scan up.
  it('invariant 4 (seed 20261227): a trigger whose answer is lost to a connection reset leaves no scan running', async () => {
    const o = await run(
      scenario({
        seed: 20261227,
        faults: [
          { route: 'POST /tenants/me/scans', fault: { kind: 'reset', when: 'mid-response' } },
        ],
      }),
    );
    assert.equal(o.scansAfter.length, 1, 'the emulator created the scan before the reset');
    assertNoInvariantBroken(o);
  });

  // Fixed: a trigger answered with success but without a scan id is looked up like a lost answer.
  it('invariant 4 (seed 20261178): a trigger whose 2xx answer carries no scan id leaves no scan running', async () => {
    const o = await run(
      scenario({
        seed: 20261178,
        faults: [
          { route: 'POST /tenants/me/scans', fault: { kind: 'huge-body', bytes: 2_000_000 } },
        ],
        inputs: { 'request-timeout-seconds': '1' },
      }),
    );
    assert.equal(o.scansAfter.length, 1, 'the emulator created the scan before its answer');
    assertNoInvariantBroken(o);
  });

  it('invariant 4: a trigger whose answer never ends (over the 64 MiB cap) leaves no scan running', async () => {
    const o = await run(
      scenario({
        seed: 18,
        faults: [{ route: 'POST /tenants/me/scans', fault: { kind: 'endless-body' } }],
        inputs: { 'request-timeout-seconds': '3' },
      }),
    );
    assert.equal(o.scansAfter.length, 1);
    assertNoInvariantBroken(o);
  });

  it('invariant 4 (seed 20261143): a trigger whose answer is truncated leaves no scan running', async () => {
    const o = await run(
      scenario({
        seed: 20261143,
        faults: [{ route: 'POST /tenants/me/scans', fault: { kind: 'truncate' } }],
      }),
    );
    assert.equal(o.scansAfter.length, 1, 'the emulator created the scan before the truncation');
    assertNoInvariantBroken(o);
  });

  // Fixed: the lookup reads the service's clock (Date header), not this machine's.
  it('invariant 4 (seed 100452): a lost trigger answer is recovered when the service clock is a minute ahead', async () => {
    const o = await run(
      scenario({
        seed: 100452,
        faults: [
          { route: 'POST /tenants/me/scans', fault: { kind: 'reset', when: 'mid-response' } },
        ],
        serviceClockAheadMs: 60_000,
      }),
    );
    assert.equal(o.scansAfter.length, 1, 'the emulator created the scan before the reset');
    assertNoInvariantBroken(o);
  });

  // Fixed: the cancel is repeated until done within its budget, in main and in post.
  it('invariant 4 (seed 20261407): on SIGINT the remote cancel survives one transient 503', async () => {
    const o = await run(
      scenario({
        seed: 20261407,
        faults: [
          { route: 'POST /scans/:id/cancel', fault: { kind: 'status', status: 503 }, times: 2 },
        ],
        cancel: { kind: 'sigint', after: 'triggered' },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assertNoInvariantBroken(o);
  });

  it('invariant 4 (seed 20261341): after a kill, the post step cancel survives one transient 504', async () => {
    const o = await run(
      scenario({
        seed: 20261341,
        faults: [
          { route: 'POST /scans/:id/cancel', fault: { kind: 'status', status: 504, html: true } },
        ],
        cancel: { kind: 'kill', after: 'triggered' },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assert.ok(o.post, 'the post step ran');
    assertNoInvariantBroken(o);
  });

  it('invariant 4 (seed 20261311): after a kill, the post step outlasts a 429 storm on cancel', async () => {
    const o = await run(
      scenario({
        seed: 20261311,
        faults: [
          {
            route: 'POST /scans/:id/cancel',
            fault: { kind: 'status', status: 429, code: 'RATE_LIMITED', retryAfter: 1 },
            times: 8,
          },
        ],
        cancel: { kind: 'kill', after: 'triggered' },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assertNoInvariantBroken(o);
  });

  // Fixed: the post step removes the temp file of a download the main step was killed in.
  it('invariant 3 (seed 20261271): a kill during the report download leaves no partial file', async () => {
    // The run follows a finished scan whose report is ready; the download origin sends the head
    // and 1,000 bytes, then nothing (the client's body timeout is 30 s): the kill at 4 s lands
    // while the temp file exists, whatever the machine's speed.
    const s: Scenario = {
      ...scenario({
        seed: 20261271,
        faults: [
          {
            route: 'GET /download/:token',
            fault: { kind: 'stall', afterBytes: 1_000, ms: Infinity },
          },
        ],
        cancel: { kind: 'kill', after: 4_000 },
        inputs: { report: 'if-ready', 'scan-timeout-minutes': '5' },
      }),
      existingScan: {
        plan: {
          durationMs: 1_000,
          queuedMs: 0,
          outcome: { kind: 'completed', total: 12, failed: 2 },
        },
        reportReady: true,
      },
    };
    s.emulator.reportSizeBytes = 100_000;
    const o = await run(s);
    assert.equal(o.main.signal, 'SIGKILL');
    assert.match(visibleLog(o.main), /Downloading the report to /);
    assert.ok(o.post, 'the post step ran');
    assert.match(visibleLog(o.post), /Removed 1 partial report download/);
    assertNoInvariantBroken(o);
  });

  // Fixed: a pending trigger is saved in the state before it is sent; post looks the scan up.
  it('invariant 4 (seed 40250): a kill while the trigger answer is outstanding leaves no scan running', async () => {
    // The trigger's answer is truncated (the scan exists); the step is killed while it looks for it.
    const o = await run(
      scenario({
        seed: 40250,
        faults: [{ route: 'POST /tenants/me/scans', fault: { kind: 'truncate' } }],
        cancel: { kind: 'kill', after: /answer to the trigger was lost/ },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assert.equal(o.scansAfter.length, 1, 'the emulator created the scan');
    assert.ok(o.post, 'the post step ran');
    assertNoInvariantBroken(o);
  });

  // Fixed: the scans listed right before the trigger are never taken for its own.
  it('invariants 2 and 4 (seed 100138): a trigger lost before the service acted never takes the scan another job started just before', async () => {
    const o = await run(
      scenario({
        seed: 100138,
        faults: [
          HOLD_THE_KEY_CHECK,
          // The run's faults hit its own requests only (executor.ts): not the other job's trigger.
          { route: 'POST /tenants/me/scans', fault: { kind: 'reset', when: 'before' } },
        ],
      }),
      otherJobStartsJustBeforeTrigger,
    );
    assert.equal(o.scansAfter.length, 1, "only the other job's scan exists");
    assert.equal(o.main.state['lost-trigger'], 'none', explain(o));
    assertNoInvariantBroken(o);
  });

  it('invariant 4 (seed 20261235): a lost trigger answer is found even when another job started a scan just before', async () => {
    const o = await run(
      scenario({
        seed: 20261235,
        faults: [
          HOLD_THE_KEY_CHECK,
          { route: 'POST /tenants/me/scans', fault: { kind: 'truncate' } },
        ],
      }),
      otherJobStartsJustBeforeTrigger,
    );
    assert.equal(o.scansAfter.length, 2, "the run's scan and the other job's");
    assert.equal(o.main.state['lost-trigger'], 'found', explain(o));
    assertNoInvariantBroken(o);
  });

  it('controls: the same scenarios without the fault keep every invariant', async () => {
    const sigint = await run(
      scenario({
        seed: 1,
        faults: [],
        cancel: { kind: 'sigint', after: 'triggered' },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assertNoInvariantBroken(sigint);
    assert.equal(sigint.scansAfter[0]?.status, 'cancelled');
    const killed = await run(
      scenario({
        seed: 2,
        faults: [],
        cancel: { kind: 'kill', after: 'triggered' },
        inputs: { 'scan-timeout-minutes': '5' },
      }),
    );
    assertNoInvariantBroken(killed);
    assert.equal(killed.scansAfter[0]?.status, 'cancelled', 'the post step cancelled it');
  });
});
