import type { ProgressShape } from './progress.js';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, finishedScan } from './test-http.js';

const trigger = (emu: Emulator, key?: string) =>
  call(emu, 'POST', '/tenants/me/scans', {
    body: { scanType: 'compliance' },
    ...(key ? { key } : {}),
  });

describe('emulator: scans', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 5 });
  });
  after(() => emu.close());

  it('trigger takes scanType and returns 201 with a queued scan', async () => {
    const reply = await trigger(emu);
    assert.equal(reply.status, 201);
    assert.equal(reply.body.data.scanType, 'compliance');
    assert.equal(reply.body.data.status, 'queued');
    assert.equal(reply.body.data.progress, 0);
    assert.match(reply.body.data.id, /^[0-9a-f-]{36}$/);
  });

  it('trigger without a valid scanType gets 400 VALIDATION_ERROR', async () => {
    for (const body of [{}, { scanType: 7 }, { scanType: 'nope' }]) {
      const reply = await call(emu, 'POST', '/tenants/me/scans', { body });
      assert.equal(reply.status, 400, JSON.stringify(body));
      assert.equal(reply.body.error.code, 'VALIDATION_ERROR');
    }
  });

  for (const status of [undefined, 402, 403] as const) {
    it(`plan quota gives SCAN_PLAN_LIMIT_REACHED with status ${status ?? '429 (default)'}`, async () => {
      const local = await startEmulator({
        tenant: { plan: { scanQuota: 1 } },
        ...(status ? { variant: { planLimitStatus: status } } : {}),
      });
      try {
        assert.equal((await trigger(local)).status, 201);
        const refused = await trigger(local);
        assert.equal(refused.status, status ?? 429);
        assert.equal(refused.body.error.code, 'SCAN_PLAN_LIMIT_REACHED');
        assert.equal(refused.headers.get('retry-after'), null);
        assert.equal(local.scans().length, 1);
      } finally {
        await local.close();
      }
    });
  }

  it('status and progress advance on the emulator clock: queued, running, completed', async () => {
    emu.setScanPlan({ durationMs: 10_000, queuedMs: 1_000 });
    const id = (await trigger(emu)).body.data.id;
    const get = async () => (await call(emu, 'GET', `/scans/${id}`)).body.data;
    assert.equal((await get()).status, 'queued');
    emu.advance(5_500);
    const mid = await get();
    assert.equal(mid.status, 'running');
    assert.ok(mid.progress > 0 && mid.progress < 100, String(mid.progress));
    assert.ok(mid.startedAt);
    emu.advance(5_000);
    const done = await get();
    assert.equal(done.status, 'completed');
    assert.equal(done.progress, 100);
    assert.deepEqual(done.summary, { total: 40, passed: 35, failed: 5, skipped: 0 });
    emu.setScanPlan({});
  });

  it('clockSpeed runs scans faster than the wall clock', async () => {
    const fast = await startEmulator({ clockSpeed: 1000 });
    try {
      const id = (await trigger(fast)).body.data.id;
      await new Promise((resolve) => setTimeout(resolve, 50)); // 50 s of emulator time
      assert.equal(
        (await call(fast, 'GET', `/scans/${id}`, { key: fast.apiKey })).body.data.status,
        'completed',
      );
    } finally {
      await fast.close();
    }
  });

  it('scan plan outcomes: failed, stuck, and k failed of n', async () => {
    emu.setScanPlan({ outcome: { kind: 'failed', message: 'boom' } });
    const failed = (await trigger(emu)).body.data.id;
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 30 } });
    const stuck = (await trigger(emu)).body.data.id;
    emu.setScanPlan({ outcome: { kind: 'completed', total: 12, failed: 4, skipped: 2 } });
    const counted = (await trigger(emu)).body.data.id;
    emu.setScanPlan({});
    emu.advance(86_400_000);
    const f = (await call(emu, 'GET', `/scans/${failed}`)).body.data;
    assert.equal(f.status, 'failed');
    assert.equal(f.error.message, 'boom');
    const s = (await call(emu, 'GET', `/scans/${stuck}`)).body.data;
    assert.equal(s.status, 'running');
    assert.equal(s.progress, 30);
    const c = (await call(emu, 'GET', `/scans/${counted}`)).body.data;
    assert.deepEqual(c.summary, { total: 12, passed: 6, failed: 4, skipped: 2 });
  });

  it('progress curves shape the running phase', async () => {
    const progressAtHalf = async (progressCurve: ProgressShape) => {
      emu.setScanPlan({ durationMs: 10_000, queuedMs: 0, progressCurve });
      const id = (await trigger(emu)).body.data.id;
      emu.advance(5_000);
      const progress = (await call(emu, 'GET', `/scans/${id}`)).body.data.progress as
        number | undefined;
      emu.advance(10_000);
      return progress;
    };
    const linear = (await progressAtHalf('linear')) ?? 0;
    assert.equal(linear, 50);
    assert.ok((await progressAtHalf('front-loaded'))! > linear);
    assert.equal(await progressAtHalf('back-loaded'), 12, 't³ at half: 12.5 %');
    assert.equal(await progressAtHalf('stall-then-jump'), 10);
    assert.equal(await progressAtHalf('stalled'), 10);
    assert.equal(await progressAtHalf('none'), undefined, 'no progress field at all');
    emu.setScanPlan({});
  });

  it('list excludes hidden scans; hide and unhide toggle it', async () => {
    const id = (await trigger(emu)).body.data.id;
    const listed = async () =>
      (await call(emu, 'GET', '/tenants/me/scans')).body.data.map((s: { id: string }) => s.id);
    assert.ok((await listed()).includes(id));
    const hidden = await call(emu, 'PATCH', `/scans/${id}/hide`);
    assert.equal(hidden.body.data.hidden, true);
    assert.ok(!(await listed()).includes(id));
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).status, 200);
    await call(emu, 'PATCH', `/scans/${id}/unhide`);
    assert.ok((await listed()).includes(id));
  });

  it('cancel works from queued or running; otherwise 409 SCAN_NOT_CANCELLABLE', async () => {
    const queued = (await trigger(emu)).body.data.id;
    const cancelled = await call(emu, 'POST', `/scans/${queued}/cancel`);
    assert.equal(cancelled.status, 200);
    assert.equal(cancelled.body.data.status, 'cancelled');
    emu.advance(60_000);
    assert.equal((await call(emu, 'GET', `/scans/${queued}`)).body.data.status, 'cancelled');
    const again = await call(emu, 'POST', `/scans/${queued}/cancel`);
    assert.equal(again.status, 409);
    assert.equal(again.body.error.code, 'SCAN_NOT_CANCELLABLE');
    const done = await finishedScan(emu);
    assert.equal((await call(emu, 'POST', `/scans/${done}/cancel`)).status, 409);
    emu.setScanPlan({ durationMs: 10_000, queuedMs: 0 });
    const running = (await trigger(emu)).body.data.id;
    emu.setScanPlan({});
    emu.advance(2_000);
    assert.equal(
      (await call(emu, 'POST', `/scans/${running}/cancel`)).body.data.status,
      'cancelled',
    );
  });

  it('delete returns data null; the scan is then 404 and gone from the list', async () => {
    const id = await finishedScan(emu);
    const reply = await call(emu, 'DELETE', `/scans/${id}`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body, { success: true, data: null });
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).status, 404);
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).body.error.code, 'NOT_FOUND');
    assert.ok(emu.scans().find((s) => s.id === id)?.deleted);
  });

  it("another tenant's scan is 404", async () => {
    const id = await finishedScan(emu);
    const { apiKey } = emu.addTenant({});
    assert.equal((await call(emu, 'GET', `/scans/${id}`, { key: apiKey })).status, 404);
  });

  it('the same seed gives the same ids and data', async () => {
    const run = async () => {
      const local = await startEmulator({ seed: 99, epochMs: Date.UTC(2026, 0, 1) });
      try {
        const id = await finishedScan(local);
        const results = await call(local, 'GET', `/scans/${id}/results`, { key: local.apiKey });
        return { key: local.apiKey, tenant: local.tenantId, id, results: results.text };
      } finally {
        await local.close();
      }
    };
    const [a, b] = [await run(), await run()];
    assert.deepEqual(a, b);
    const other = await startEmulator({ seed: 100 });
    assert.notEqual(other.apiKey, a.key);
    await other.close();
  });
});
