// The fleet's correctness (bench/fleet.ts runs it at 200 and measures it; no timing here): runs of
// dist/index.js started together against one account, sharing a tight rate limit, must each judge
// their own scan right, and nothing may be lost — no run without its scan, no scan without its run,
// no scan triggered twice. Needs `npm run build` first, like the other dist/ tests.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runFleet, type FleetResult } from '../../bench/fleet.js';
import { snapshotDist, type DistSnapshot } from '../../bench/lib/dist-snapshot.js';

const RUNS = 40;
let dist: DistSnapshot;

before(async () => {
  dist = await snapshotDist();
});
after(async () => {
  await dist?.remove();
});

async function fleetUnderThrottle(): Promise<FleetResult> {
  return runFleet({
    runs: RUNS,
    model: 'account',
    poller: 'action',
    actionScript: dist.main,
    // Scans of ~4 s wall (±15 %, a quarter of them with no failed findings).
    clockSpeed: 50,
    scanMs: 200_000,
    timeoutMs: 150_000,
    // The seed's account model scaled to 40 runs (100/s, burst 500 for 200 runs → 20/s, burst 100)
    // and then halved, so that the compressed start is throttled. The work needs ~16 s of this
    // capacity: well inside a client's retry budget (the client's default allows 120 s).
    rateLimit: { kind: 'account', ratePerSecond: 20, burst: 40 },
  });
}

test(`${RUNS} runs sharing one throttled account: every verdict right, nothing lost`, async (t) => {
  const fleet = await fleetUnderThrottle();
  t.diagnostic(
    `requests ${fleet.requests} (${JSON.stringify(fleet.requestsByKind)}), 429s ${fleet.throttled}, ` +
      `retries ${JSON.stringify(fleet.retriesByReason)}`,
  );
  assert.deepEqual(fleet.sampleErrors, [], 'runs without the right verdict');
  assert.equal(fleet.rightVerdicts, RUNS);
  assert.equal(fleet.failedForRateLimiting, 0);
  assert.equal(fleet.lostRuns, 0, 'runs without a scan of their own');
  assert.equal(fleet.orphanScans, 0, 'scans no run reported');
  assert.equal(fleet.duplicateScans, 0, 'scans triggered twice');
  assert.equal(
    fleet.requestsByKind.trigger,
    RUNS + countThrottledTriggers(fleet),
    'trigger requests',
  );
});

/** Triggers answered 429 were not acted on, so their retries are expected extra POSTs. */
function countThrottledTriggers(fleet: FleetResult): number {
  return fleet.throttledByKind.trigger ?? 0;
}
