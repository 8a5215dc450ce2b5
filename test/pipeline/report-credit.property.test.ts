// Guarantee 6, "No report credit without consent" (docs/guarantees.md): for any report mode, any
// sequence of report states the service shows (locked, rendering, ready, the organisation name
// missing, a word it never said before, in any case — forged one read after another on the status
// route), any tenant (credits or none, its name or none), a report that exists already or not
// (following a scan by id whose report was generated before), and any fault on the generate route
// (its answer lost after the service acted, 5xx before or after it, 429 and warm-up refusals), the
// emulator's ground truth shows at most one credit spent by the run and only with `report:
// generate`; `none` and `if-ready` never ask for a report to be generated, and `if-ready` downloads
// only a report that existed before the run. In process, against the emulator; each run has a
// tenant of its own.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createClient } from '../../src/client/index.js';
import type { ReportPolicy } from '../../src/pipeline/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, Fault } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { RecordingReporter, jobOutcome, settingsFor, tempDir } from './helpers.js';

const GENERATE = 'POST /scans/:id/report/generate';
const STATUS = 'GET /scans/:id/report';
const QUICK = {
  durationMs: 300,
  queuedMs: 20,
  outcome: { kind: 'completed', total: 5, failed: 1 },
} as const;

/** A status the service shows instead of the real one, read after read (null: the real one).
 *  `locked` often: a report that still looks locked after it was asked for is the edge. */
const forgedStatus: fc.Arbitrary<Fault | null> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(null) },
  {
    weight: 3,
    arbitrary: fc.constantFrom<Fault>(
      { kind: 'data', data: { status: 'locked', creditRequired: true } },
      { kind: 'data', data: { status: 'LOCKED' } },
    ),
  },
  {
    weight: 4,
    arbitrary: fc.constantFrom<Fault>(
      { kind: 'data', data: { status: 'rendering' } },
      { kind: 'data', data: { status: 'Rendering' } },
      { kind: 'data', data: { status: 'ready' } },
      { kind: 'data', data: { status: 'orgNameRequired' } },
      { kind: 'data', data: { status: 'archived' } },
      { kind: 'data', data: {} },
      { kind: 'data', data: 'ok' },
      { kind: 'status', status: 500 },
    ),
  },
);

const generateFault = fc.constantFrom<Fault | null>(
  null,
  null,
  { kind: 'reset', when: 'mid-response' },
  { kind: 'reset', when: 'before' },
  { kind: 'truncate' },
  { kind: 'status', status: 500 },
  { kind: 'status', status: 502, afterHandler: true },
  { kind: 'status', status: 429, code: 'RATE_LIMITED' },
  { kind: 'status', status: 503, code: 'SERVICE_STARTING' },
  { kind: 'data', data: 'ok' },
);

const drawn = fc.record({
  mode: fc.constantFrom<ReportPolicy>(
    'none',
    'if-ready',
    'if-ready',
    'generate',
    'generate',
    'generate',
  ),
  credits: fc.constantFrom(0, 1, 3, 3),
  named: fc.constantFrom(true, true, false),
  /** Follow a scan by id whose report is: not asked for, ready, or still rendering. */
  existing: fc.constantFrom('no scan-id', 'no scan-id', 'no report', 'ready', 'rendering'),
  statuses: fc.array(forgedStatus, { maxLength: 5 }),
  generate: fc.array(generateFault, { maxLength: 2 }),
});
type Drawn = typeof drawn extends fc.Arbitrary<infer T> ? T : never;

function generatedBefore(d: Drawn): boolean {
  return d.existing === 'ready' || d.existing === 'rendering';
}

describe('guarantee 6: no report credit without consent', () => {
  let emulator: Emulator;
  let dir: { path: string; remove(): Promise<void> };

  before(async () => {
    emulator = await startEmulator({
      clockSpeed: 10,
      seed: 31,
      reportRenderMs: 2_000,
      reportSizeBytes: 2_000,
    });
    dir = await tempDir();
  });
  after(async () => {
    await emulator.close();
    await dir.remove();
  });

  /** A completed scan of the tenant's own, its report generated (or not) before the run. */
  async function existingScan(apiKey: string, report: 'no report' | 'ready' | 'rendering') {
    const client = createClient({ apiKey, baseUrl: emulator.url });
    try {
      const { id } = await client.scans.create('compliance');
      emulator.advance(1_000);
      if (report !== 'no report') await client.reports.generate(id);
      if (report === 'ready') emulator.advance(3_000);
      return id;
    } finally {
      await client.close();
    }
  }

  async function runOnce(d: Drawn): Promise<void> {
    emulator.clearFaults();
    const { tenantId, apiKey } = emulator.addTenant({
      name: 'Contoso Ltd',
      // The report generated before the run spends one credit of its own.
      plan: { reportAllowance: 0, reportCredits: d.credits + (generatedBefore(d) ? 1 : 0) },
      scanPlan: QUICK,
    });
    const scanId = d.existing === 'no scan-id' ? undefined : await existingScan(apiKey, d.existing);
    if (!d.named) emulator.setTenant(tenantId, { name: null });
    const spentBefore = emulator.creditsSpent(tenantId);
    const reportExisted = generatedBefore(d) && spentBefore === 1;
    d.statuses.forEach((fault, after) => {
      if (fault) emulator.addFault({ route: STATUS, fault, after, times: 1, key: apiKey });
    });
    d.generate.forEach((fault, after) => {
      if (fault) emulator.addFault({ route: GENERATE, fault, after, times: 1, key: apiKey });
    });
    emulator.clearRequests();
    const reporter = new RecordingReporter();
    const settings = settingsFor(emulator, dir.path, {
      apiKey,
      report: d.mode,
      reportPath: join(dir.path, `${tenantId}.pdf`),
      reportTimeoutMs: 1_500,
      requestTimeoutMs: 1_500,
      resultsPath: undefined,
      ...(scanId ? { scanId } : {}),
    });
    const outcome = await jobOutcome(settings, reporter).finally(() => emulator.clearFaults());
    const shown = `${JSON.stringify(d)}\n${reporter.lines.join('\n')}`;

    const spent = emulator.creditsSpent(tenantId) - spentBefore;
    const generates = emulator
      .requests()
      .filter((r) => r.method === 'POST' && /\/report\/generate$/.test(r.path));
    assert.ok(spent <= 1, `${spent} credits spent by one run:\n${shown}`);
    if (d.mode !== 'generate') {
      assert.equal(spent, 0, `a credit spent with report: ${d.mode}:\n${shown}`);
      assert.equal(generates.length, 0, `generation asked for with report: ${d.mode}:\n${shown}`);
    }
    // Sent again only after an answer that proves the service did not act (429, 503 warm-up).
    const acted = generates.filter((r) => r.status !== 429 && r.status !== 503);
    assert.ok(acted.length <= 1, `generation asked for ${acted.length} times:\n${shown}`);
    const downloaded = 'result' in outcome && outcome.result.report.download !== undefined;
    if (downloaded && d.mode === 'if-ready') {
      assert.ok(reportExisted, `if-ready downloaded a report that did not exist:\n${shown}`);
    }
  }

  it('a run spends at most one credit and only with report: generate; if-ready never generates', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(30),
    );
  });
});
