// Guarantee 2, "A verdict you can trust, or one clear error" (docs/guarantees.md): for any results
// the service holds (how many, how many failed, pages of any size, every finding shape, counts
// under either name or none, the three status vocabularies, a server that ignores the results
// filter, a scan that fails remotely) and any schedule of faults on the results and scan routes
// (5xx, gateway pages, resets, truncated and stalled answers, answers that are not a list, items
// without a result word, an empty list, a page without its failed results), the job either gives
// the verdict, status, total and failed count the emulator holds, or fails with one line naming
// its phase — never a pass on a read that was not whole. The one exception is the docs' known gap
// ("A service that leaves out failed results and shows no counts"): a drawn schedule that falls
// into it is named, and its documented outcome (the verdict of what was read) checked instead.
// In process, against the emulator; each run has a tenant of its own.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { JobResult } from '../../src/pipeline/index.js';
import { startEmulator } from '../emulator/emulator.js';
import { FINDING_SHAPES } from '../emulator/types.js';
import type { Emulator, Fault, ScanPlan, UnknownsVariant } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { RecordingReporter, jobOutcome, settingsFor, tempDir } from './helpers.js';

const RESULTS = 'GET /scans/:id/results';
const SCAN = 'GET /scans/:id';
const REQUEST_TIMEOUT_MS = 1_000;
/** A line a user can act on: a heading that is a phase or a cause, then what happened. */
const ONE_LINE =
  /^(Authentication|Trigger|Wait|Results|Baseline|Connection|TLS|Address) failed: [^\n]+$/;

const holdings = fc.record({
  outcome: fc.oneof(
    { weight: 6, arbitrary: fc.constant('completed' as const) },
    { weight: 1, arbitrary: fc.constant('failed' as const) },
  ),
  total: fc.integer({ min: 0, max: 60 }),
  failedShare: fc.constantFrom(0, 0, 0.1, 0.5, 1),
});

const variant: fc.Arbitrary<UnknownsVariant> = fc.record({
  statusVocabulary: fc.constantFrom('default' as const, 'upper' as const, 'alt' as const),
  findingShape: fc.constantFrom(...FINDING_SHAPES),
  countsShape: fc.constantFrom('default' as const, 'renamed' as const, 'none' as const),
  resultsPageSize: fc.constantFrom(undefined, 1, 3, 25),
  ignoreResultFilter: fc.boolean(),
  errorShape: fc.constantFrom(
    'envelope' as const,
    'flat' as const,
    'html' as const,
    'empty' as const,
  ),
});

const resultsFault: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502, html: true },
  { kind: 'status', status: 503 },
  { kind: 'status', status: 429, code: 'RATE_LIMITED' },
  { kind: 'reset', when: 'before' },
  { kind: 'reset', when: 'mid-response' },
  { kind: 'truncate' },
  { kind: 'stall', afterBytes: 20, ms: 2_000 },
  { kind: 'data', data: 'ok' },
  { kind: 'data', data: null },
  { kind: 'data', data: { results: 'none' } },
  { kind: 'data', data: [{ id: 'x', title: 'no result word' }] },
  { kind: 'data', data: [] },
  { kind: 'drop-failed' },
  { kind: 'drop-failed' },
);

const scanFault: fc.Arbitrary<Fault> = fc.constantFrom<Fault>(
  { kind: 'status', status: 502 },
  { kind: 'status', status: 504, html: true },
  { kind: 'reset', when: 'before' },
  { kind: 'truncate' },
  { kind: 'data', data: 'ok' },
);

interface Drawn {
  holdings: { outcome: 'completed' | 'failed'; total: number; failedShare: number };
  variant: UnknownsVariant;
  /** Faults on the results route, one request after another (pages and re-reads). */
  results: Array<Fault | null>;
  scan: Array<Fault | null>;
  junit: boolean;
}

const drawn: fc.Arbitrary<Drawn> = fc.record({
  holdings,
  variant,
  results: fc.array(fc.option(resultsFault, { freq: 2 }), { maxLength: 4 }),
  scan: fc.array(fc.option(scanFault, { freq: 2 }), { maxLength: 3 }),
  junit: fc.boolean(),
});

function planOf({ outcome, total, failedShare }: Drawn['holdings']): ScanPlan {
  const base = { durationMs: 1_000, queuedMs: 50 };
  if (outcome === 'failed') return { ...base, outcome: { kind: 'failed', message: 'lost' } };
  return {
    ...base,
    outcome: { kind: 'completed', total, failed: Math.round(total * failedShare) },
  };
}

/** What a results read saw that is whole and well formed, yet short of the failed results. */
function shortWellFormedRead(fault: Fault): boolean {
  return (
    fault.kind === 'drop-failed' ||
    (fault.kind === 'data' && Array.isArray(fault.data) && fault.data.length === 0)
  );
}

describe('guarantee 2: a verdict you can trust, or one clear error', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };
  const gapRuns: string[] = [];

  before(async () => {
    emulator = await startEmulator({ clockSpeed: 10, seed: 23, results: 'every-scan' });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
    if (gapRuns.length) console.log(`runs in the documented gap: ${gapRuns.join('; ')}`);
  });

  async function runOnce(d: Drawn): Promise<void> {
    emulator.clearFaults();
    emulator.setVariant(d.variant);
    const { tenantId, apiKey } = emulator.addTenant({ scanPlan: planOf(d.holdings) });
    d.results.forEach((fault, after) => {
      if (fault) emulator.addFault({ route: RESULTS, fault, after, times: 1, key: apiKey });
    });
    d.scan.forEach((fault, after) => {
      if (fault) emulator.addFault({ route: SCAN, fault, after, times: 1, key: apiKey });
    });
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, {
      apiKey,
      requestTimeoutMs: REQUEST_TIMEOUT_MS,
      scanTimeoutMs: 20_000,
      resultsPath: undefined,
      ...(d.junit ? { junitPath: join(dir.path, `junit-${tenantId}.xml`) } : {}),
    });
    const outcome = await jobOutcome(settings, reporter).finally(() => emulator.clearFaults());
    const [truth, ...more] = emulator.scans(tenantId);
    assert.ok(truth && more.length === 0);
    const shown = `${JSON.stringify(d)}\n${reporter.lines.join('\n')}`;
    if ('error' in outcome) {
      const { error } = outcome;
      assert.match(error.message, ONE_LINE, shown);
      assert.doesNotMatch(error.message, /undefined|\bat \S+ \(|\[object /, shown);
      return;
    }
    checkVerdict(d, outcome.result, truth, shown);
  }

  function checkVerdict(
    d: Drawn,
    result: JobResult,
    truth: { id: string; status: string; total: number; failed: number },
    shown: string,
  ): void {
    assert.equal(result.scanId, truth.id);
    assert.equal(
      result.status.toLowerCase().replace('succeeded', 'completed').replace('error', 'failed'),
      truth.status,
      shown,
    );
    if (truth.status !== 'completed') {
      assert.equal(result.verdict, 'failed', shown);
      return;
    }
    const inGap =
      d.variant.countsShape === 'none' &&
      d.results.some((fault) => fault !== null && shortWellFormedRead(fault)) &&
      (result.failed < truth.failed || result.total !== truth.total);
    if (inGap) {
      // The documented gap: no counts to check a whole, well-formed but short answer against. What
      // was read decides, and it is never more than the service holds.
      gapRuns.push(`read ${result.failed} of ${truth.failed} failed, no counts`);
      assert.ok(result.failed <= truth.failed && (result.total ?? 0) <= truth.total, shown);
      assert.equal(result.verdict, result.failed > 0 ? 'failed' : 'passed');
      return;
    }
    assert.equal(result.failed, truth.failed, `failed: ${shown}`);
    assert.equal(result.verdict, truth.failed > 0 ? 'failed' : 'passed', shown);
    const total = d.variant.countsShape === 'none' && !d.junit ? undefined : truth.total;
    assert.equal(result.total, total, `total: ${shown}`);
    const ids = (xs: string[]) => [...xs].sort().join(',');
    assert.equal(
      ids(result.findings.map((f) => f.identity)),
      ids(emulator.failedFindings(truth.id).map((f) => f.checkId)),
      `the failed checks: ${shown}`,
    );
  }

  it('the job gives the verdict, status, total and failed count the service holds, or one line naming its phase', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(30),
    );
  });
});
