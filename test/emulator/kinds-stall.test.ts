// The emulator's scans for issue 47, per test: result words of every kind (a plan's resultWords),
// fewer checks than an earlier scan (a smaller total), the truth of which checks were evaluated,
// and progress that stops for a while or for good (a plan's stall), also over the control surface.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from './emulator.js';
import { checkIdAt } from './findings.js';
import { call, control, finishedScan } from './test-http.js';
import type { Emulator } from './types.js';

describe('emulator: result kinds, fewer checks, stalls', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 47 });
  });
  after(() => emu.close());

  it("a plan's resultWords: any word, the filter without case, the counts and the truth agree", async () => {
    const words = {
      [checkIdAt(0)]: 'N/A',
      [checkIdAt(1)]: 'not_licensed',
      [checkIdAt(2)]: 'Deferred',
      [checkIdAt(3)]: 'failed',
    };
    emu.setScanPlan({
      outcome: { kind: 'completed', total: 12, failed: 0, failedChecks: [], resultWords: words },
    });
    const id = await finishedScan(emu);
    const all = (await call(emu, 'GET', `/scans/${id}/results`)).body.data as Array<{
      checkId: string;
      result: string;
    }>;
    assert.deepEqual(
      all.slice(0, 5).map((f) => f.result),
      ['N/A', 'not_licensed', 'Deferred', 'failed', 'Passed'],
    );
    const failed = (await call(emu, 'GET', `/scans/${id}/results?result=Failed`)).body
      .data as unknown[];
    assert.equal(failed.length, 1);
    const scan = (await call(emu, 'GET', `/scans/${id}`)).body.data as {
      summary: Record<string, number>;
    };
    assert.deepEqual(scan.summary, { total: 12, passed: 8, failed: 1, skipped: 3 });
    // a drop-failed fault drops it too, whatever its case (the campaign's seed 31337174)
    emu.addFault({ route: 'GET /scans/:id/results', fault: { kind: 'drop-failed' } });
    const dropped = (await call(emu, 'GET', `/scans/${id}/results`)).body.data as Array<{
      result: string;
    }>;
    assert.equal(dropped.length, 11);
    assert.ok(dropped.every((f) => f.result.toLowerCase() !== 'failed'));
    assert.deepEqual(
      emu
        .results?.(id)
        .filter((r) => !r.evaluated)
        .map((r) => r.checkId),
      [checkIdAt(0), checkIdAt(1), checkIdAt(2)],
    );
    assert.equal(emu.scans().find((s) => s.id === id)?.failed, 1);
    const truth = await control(emu, 'GET', `/scans/${id}/results`);
    assert.equal((truth.body.data as unknown[]).length, 12);
  });

  it('a scan with a smaller total evaluates fewer of the same checks', async () => {
    emu.setScanPlan({ outcome: { kind: 'completed', total: 20, failed: 0, failedChecks: [] } });
    const before = emu.results?.(await finishedScan(emu)).map((r) => r.checkId) ?? [];
    emu.setScanPlan({ outcome: { kind: 'completed', total: 15, failed: 0, failedChecks: [] } });
    const now = emu.results?.(await finishedScan(emu)).map((r) => r.checkId) ?? [];
    assert.deepEqual(now, before.slice(0, 15));
  });

  it('a stall holds the progress still, then the scan goes on; for ever it never ends', async () => {
    emu.setScanPlan({
      durationMs: 10_000,
      queuedMs: 0,
      stall: { afterMs: 2_000, forMs: 5_000 },
      outcome: { kind: 'completed', total: 4, failed: 0 },
    });
    const reply = await call(emu, 'POST', '/tenants/me/scans', {
      body: { scanType: 'compliance' },
    });
    const id = reply.body.data.id as string;
    const truth = () => emu.scans().find((s) => s.id === id);
    emu.advance(3_000);
    const stopped = truth();
    assert.equal(stopped?.progress, 20);
    assert.ok(stopped?.stalledSince, 'the truth says since when');
    emu.advance(3_000);
    assert.equal(truth()?.progress, 20, 'still standing');
    emu.advance(2_000);
    assert.equal(truth()?.progress, 30, 'going on, 5 s later than it would have');
    assert.equal(truth()?.stalledSince, undefined);
    emu.advance(8_000);
    assert.equal(truth()?.status, 'completed');
    const set = await control(emu, 'PUT', '/scan-plan', {
      durationMs: 1_000,
      queuedMs: 0,
      stall: { afterMs: 100, forMs: 'Infinity' },
    });
    assert.equal(set.status, 200);
    const forever = await call(emu, 'POST', '/tenants/me/scans', {
      body: { scanType: 'compliance' },
    });
    emu.advance(3_600_000);
    const never = emu.scans().find((s) => s.id === forever.body.data.id);
    assert.equal(never?.status, 'running');
    assert.equal(never?.progress, 10);
  });
});
