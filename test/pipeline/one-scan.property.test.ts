// Guarantee 1, "At most one scan per run" (docs/guarantees.md): for any schedule of faults on the
// trigger and the scan lists around it — a reset before or after the service acted, a 5xx before or
// after it, a truncated, garbled or lost answer, 429 and 503 warm-up storms — and any scan another
// job of the tenant starts before the run, between the list before the trigger and the trigger, or
// between the trigger and the lookup, the emulator's ground truth holds at most one scan made by
// this run's key, and the scan the run follows is its own. The one exception is the docs' known gap
// ("Another job's scan started in the same instant as the trigger"): a trigger that never reached
// the service while another job's scan appeared in the window follows that scan (checked as the
// documented outcome, and counted), and two candidates are refused (nothing taken, nothing
// cancelled). With `scan-id` nothing is triggered at all.
// In process (runScanJob against the emulator): each run has a tenant of its own, so the ground
// truth of one run is the scans of its tenant.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createClient } from '../../src/client/index.js';
import type { TenantClient } from '../../src/client/types.js';
import { JobError } from '../../src/pipeline/index.js';
import type { LostTriggerReport } from '../../src/pipeline/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, Fault, FaultRule } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { RecordingReporter, jobOutcome, settingsFor, tempDir, type JobOutcome } from './helpers.js';

const TRIGGER = 'POST /tenants/me/scans';
const LIST = 'GET /tenants/me/scans';
const REQUEST_TIMEOUT_MS = 1_500;
/** Retry waits shortened (the rules are the client's, only the pauses are shorter): storms end in
 *  a fraction of a second. */
const QUICK_RETRY = { baseDelayMs: 20, maxDelayMs: 200, retryAfterCapMs: 300 } as const;

class LookupRecorder extends RecordingReporter {
  readonly lookups: LostTriggerReport[] = [];
  lostTriggerLookup(report: LostTriggerReport): void {
    this.lookups.push(report);
  }
}

/** Answers of the trigger route: those that prove the service did not act (retried), those after
 *  which it may have (never re-sent), and those where it did. */
const triggerFault: fc.Arbitrary<Fault> = fc.oneof(
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constant(429),
    code: fc.constantFrom(undefined, 'RATE_LIMITED'),
    retryAfter: fc.constantFrom(undefined, 0, 1, { httpDateSeconds: 1 }),
  }),
  fc.constant<Fault>({ kind: 'status', status: 503, code: 'SERVICE_STARTING' }),
  fc.record({
    kind: fc.constant('status' as const),
    status: fc.constantFrom(500, 502, 503, 504),
    html: fc.boolean(),
    afterHandler: fc.boolean(),
  }),
  fc.constantFrom<Fault>(
    { kind: 'reset', when: 'before' },
    { kind: 'reset', when: 'mid-response' },
    { kind: 'truncate' },
    { kind: 'data', data: {} },
    { kind: 'data', data: 'ok' },
    { kind: 'data', data: null },
    { kind: 'stall', afterBytes: 10, ms: Infinity },
    { kind: 'delay', ms: 50 },
  ),
  // Rare (it costs the request timeout): the handler ran, nothing came back.
  fc.constant<Fault>({ kind: 'no-answer' }),
);

/** Faults of the scan list: the one before the trigger, then the lookup's. */
const listFault: fc.Arbitrary<Fault | null> = fc.constantFrom<Fault | null>(
  null,
  null,
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502 },
  { kind: 'reset', when: 'before' },
  { kind: 'truncate' },
  { kind: 'data', data: 'ok' },
);

/** When another job of the tenant (its own key) starts a scan of the same type. */
const OTHER_JOB = ['none', 'before the run', 'before the trigger', 'after the trigger'] as const;
type OtherJob = (typeof OTHER_JOB)[number];

interface Drawn {
  trigger: Fault[];
  lists: Array<Fault | null>;
  other: OtherJob;
  followScanId: boolean;
}

const drawn: fc.Arbitrary<Drawn> = fc.record({
  trigger: fc.array(triggerFault, { maxLength: 4 }),
  lists: fc.array(listFault, { minLength: 2, maxLength: 2 }),
  other: fc.constantFrom(...OTHER_JOB),
  followScanId: fc.boolean(),
});

/** Rules that hit the n-th request of a route from this key, one after the other. */
function inOrder(route: string, faults: Array<Fault | null>, key: string): FaultRule[] {
  return faults.flatMap((fault, after) => (fault ? [{ route, fault, after, times: 1, key }] : []));
}

/** The job's client, with another job's scan started at the drawn moment around its trigger. */
function withOtherJob(client: TenantClient, other: OtherJob, start: () => Promise<void>) {
  return {
    ...client,
    scans: {
      ...client.scans,
      create: async (...args: Parameters<TenantClient['scans']['create']>) => {
        if (other === 'before the trigger') await start();
        try {
          return await client.scans.create(...args);
        } finally {
          if (other === 'after the trigger') await start();
        }
      },
    },
  } satisfies TenantClient;
}

describe('guarantee 1: at most one scan per run', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };
  const gapRuns: string[] = [];

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 10, seed: 11 });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
    if (gapRuns.length) console.log(`runs in the documented gap: ${gapRuns.join('; ')}`);
  });

  async function runOnce(d: Drawn): Promise<void> {
    emulator.clearFaults();
    const { tenantId, apiKey } = emulator.addTenant({
      scanPlan: {
        durationMs: 1_500,
        queuedMs: 100,
        outcome: { kind: 'completed', total: 20, failed: 2 },
      },
    });
    const otherClient = createClient({
      apiKey: emulator.addKey(tenantId, 'other job'),
      baseUrl: emulator.url,
    });
    const otherIds: string[] = [];
    const startOther = async () => {
      otherIds.push((await otherClient.scans.create('compliance')).id);
    };
    const client = createClient({
      apiKey,
      baseUrl: emulator.url,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      retry: { ...QUICK_RETRY, maxElapsedMs: 20_000 },
    });
    try {
      if (d.other === 'before the run' || d.followScanId) await startOther();
      for (const rule of [
        ...inOrder(TRIGGER, d.trigger, apiKey),
        ...inOrder(LIST, d.lists, apiKey),
      ])
        emulator.addFault(rule);
      const reporter = new LookupRecorder();
      const settings = settingsFor(emulator, dir.path, {
        apiKey,
        requestTimeoutMs: REQUEST_TIMEOUT_MS,
        scanTimeoutMs: 20_000,
        resultsPath: undefined,
        ...(d.followScanId ? { scanId: otherIds[0] } : {}),
      });
      const outcome = await jobOutcome(settings, reporter, {
        client: withOtherJob(client, d.followScanId ? 'none' : d.other, startOther),
        cancelGraceMs: 3_000,
      });
      check(d, tenantId, apiKey, otherIds, reporter, outcome);
    } finally {
      emulator.clearFaults();
      await client.close();
      await otherClient.close();
    }
  }

  function check(
    d: Drawn,
    tenantId: string,
    apiKey: string,
    otherIds: string[],
    reporter: LookupRecorder,
    outcome: JobOutcome,
  ): void {
    const error = 'error' in outcome ? outcome.error : undefined;
    const scans = emulator.scans(tenantId);
    const ours = scans.filter((scan) => !otherIds.includes(scan.id));
    const shown = `${reporter.lines.join('\n')}\n${error instanceof Error ? error.message : ''}`;
    assert.ok(ours.length <= 1, `${ours.length} scans made by this run's key:\n${shown}`);
    const cancels = emulator
      .requests()
      .filter(
        (r) =>
          r.method === 'POST' &&
          r.path.endsWith('/cancel') &&
          r.headers.authorization === `Bearer ${apiKey}`,
      );

    if (d.followScanId) {
      assert.equal(ours.length, 0, 'with scan-id nothing is triggered');
      const triggers = emulator
        .requests()
        .filter(
          (r) =>
            r.method === 'POST' &&
            r.path === '/tenants/me/scans' &&
            r.headers.authorization === `Bearer ${apiKey}`,
        );
      assert.equal(triggers.length, 0, 'with scan-id no trigger is sent');
      assert.equal(cancels.length, 0, 'a scan given by id is never cancelled');
      return;
    }
    const taken = reporter.triggered[0];
    assert.ok(reporter.triggered.length <= 1);
    const lookup = reporter.lookups[0];
    if (lookup?.outcome === 'several') {
      // The gap's documented outcome: neither is taken, neither cancelled, one Trigger line.
      gapRuns.push('several candidates');
      assert.ok(error instanceof JobError && /^Trigger failed: /.test(error.message), shown);
      assert.equal(taken, undefined);
      assert.equal(cancels.length, 0);
      return;
    }
    if (taken === undefined) {
      assert.ok(error instanceof JobError, `no scan was followed, yet no error:\n${shown}`);
      return;
    }
    if (ours.some((scan) => scan.id === taken)) return;
    // Another job's scan taken for ours: only the gap's second face may do it. The trigger made
    // nothing, the scan was not listed before the trigger, and the lookup found it alone.
    gapRuns.push(`another job's scan ${d.other}`);
    assert.ok(otherIds.includes(taken), `followed ${taken}, which no job made`);
    assert.equal(
      ours.length,
      0,
      `took another job's scan while its own trigger made one:\n${shown}`,
    );
    assert.equal(lookup?.outcome, 'found', shown);
    assert.ok(d.other === 'before the trigger' || d.other === 'after the trigger', shown);
    assert.ok(!(reporter.pendingTriggers[0]?.existing?.ids ?? []).includes(taken));
    if (!('error' in outcome))
      assert.equal(outcome.result.scanId, taken, 'its verdict is that scan’s');
  }

  it('the emulator holds at most one scan made by the run, and the run follows no scan of another job but in the documented gap', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(25),
    );
  });
});
