import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, finishedScan } from './test-http.js';

describe('emulator: reports', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({
      seed: 8,
      reportRenderMs: 3_000,
      tenant: { plan: { reportAllowance: 1, reportCredits: 2 } },
    });
  });
  after(() => emu.close());

  const status = async (id: string, key?: string) =>
    (await call(emu, 'GET', `/scans/${id}/report`, key ? { key } : {})).body.data;
  const generate = (id: string, key?: string) =>
    call(emu, 'POST', `/scans/${id}/report/generate`, key ? { key } : {});

  it('report status lifecycle: locked, then generate, then rendering, then ready with a download address', async () => {
    const id = await finishedScan(emu);
    assert.equal((await status(id)).status, 'locked');
    const generated = await generate(id);
    assert.equal(generated.status, 202);
    assert.equal(generated.body.data.status, 'rendering');
    assert.equal((await status(id)).status, 'rendering');
    emu.advance(3_000);
    const ready = await status(id);
    assert.equal(ready.status, 'ready');
    assert.ok(ready.downloadUrl.startsWith(emu.downloadOrigin));
    assert.ok(Date.parse(ready.expiresAt) > Date.now());
    assert.ok(ready.generatedAt);
  });

  it('orgNameRequired when the tenant has no organisation name; generate is refused with 409', async () => {
    const { apiKey, tenantId } = emu.addTenant({ name: null });
    const id = await finishedScan(emu, 'compliance', apiKey);
    assert.equal((await status(id, apiKey)).status, 'orgNameRequired');
    const refused = await generate(id, apiKey);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.error.code, 'ORG_NAME_REQUIRED');
    emu.setTenant(tenantId, { name: 'Named Now' });
    assert.equal((await status(id, apiKey)).status, 'locked');
  });

  it('credit accounting: allowance first, then credits, then 402 REPORT_CREDITS_EXHAUSTED', async () => {
    const { apiKey, tenantId } = emu.addTenant({ plan: { reportAllowance: 1, reportCredits: 1 } });
    const ids = [];
    for (let i = 0; i < 3; i++) ids.push(await finishedScan(emu, 'compliance', apiKey));
    const first = await generate(ids[0]!, apiKey);
    assert.equal(first.body.data.creditConsumed, false);
    assert.equal(emu.creditsSpent(tenantId), 0);
    const second = await generate(ids[1]!, apiKey);
    assert.equal(second.body.data.creditConsumed, true);
    assert.equal(emu.creditsSpent(tenantId), 1);
    const third = await generate(ids[2]!, apiKey);
    assert.equal(third.status, 402);
    assert.equal(third.body.error.code, 'REPORT_CREDITS_EXHAUSTED');
    assert.equal(emu.creditsSpent(tenantId), 1);
    assert.equal((await status(ids[2]!, apiKey)).status, 'locked');
  });

  it('generate on a report already rendering or ready does not charge again', async () => {
    const { apiKey, tenantId } = emu.addTenant({ plan: { reportCredits: 5 } });
    const id = await finishedScan(emu, 'compliance', apiKey);
    assert.equal((await generate(id, apiKey)).body.data.creditConsumed, true);
    const whileRendering = await generate(id, apiKey);
    assert.equal(whileRendering.status, 200);
    assert.deepEqual(
      [whileRendering.body.data.status, whileRendering.body.data.creditConsumed],
      ['rendering', false],
    );
    emu.advance(10_000);
    const whenReady = await generate(id, apiKey);
    assert.deepEqual(
      [whenReady.body.data.status, whenReady.body.data.creditConsumed],
      ['ready', false],
    );
    assert.equal(emu.creditsSpent(tenantId), 1);
  });

  it('generate for a scan that has not completed gets 409 SCAN_NOT_COMPLETED and charges nothing', async () => {
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    const before = emu.creditsSpent();
    const reply = await generate(id);
    assert.equal(reply.status, 409);
    assert.equal(reply.body.error.code, 'SCAN_NOT_COMPLETED');
    assert.equal(emu.creditsSpent(), before);
    emu.advance(3_600_000);
  });

  it('report list pages with the integer cursor and meta.nextCursor (20 per page by default)', async () => {
    const { apiKey } = emu.addTenant({ plan: { reportCredits: 100 } });
    for (let i = 0; i < 45; i++) {
      const id = await finishedScan(emu, 'compliance', apiKey);
      await generate(id, apiKey);
    }
    emu.advance(10_000);
    const seen: string[] = [];
    const cursors: Array<number | null> = [];
    let cursor: number | null = 0;
    while (cursor !== null) {
      const reply = await call(emu, 'GET', `/tenants/me/reports?cursor=${cursor}`, { key: apiKey });
      const page = reply.body as {
        data: Array<{ status: string; scanId: string }>;
        meta: { nextCursor: number | null };
      };
      assert.ok(page.data.length <= 20);
      for (const item of page.data) {
        assert.equal(item.status, 'ready');
        seen.push(item.scanId);
      }
      cursor = page.meta.nextCursor;
      cursors.push(cursor);
    }
    assert.deepEqual(cursors, [20, 40, null]);
    assert.equal(new Set(seen).size, 45);
    const bad = await call(emu, 'GET', '/tenants/me/reports?cursor=abc', { key: apiKey });
    assert.equal(bad.status, 400);
    const small = (await call(emu, 'GET', '/tenants/me/reports?limit=5', { key: apiKey })).body;
    assert.equal(small.data.length, 5);
    assert.equal(small.meta.nextCursor, 5);
  });

  for (const field of ['url', 'presignedUrl', 'href'] as const) {
    it(`download address variant: field ${field}`, async () => {
      emu.setVariant({ downloadAddress: field });
      try {
        const { apiKey } = emu.addTenant({});
        const scan = await finishedScan(emu, 'compliance', apiKey);
        await generate(scan, apiKey);
        emu.advance(10_000);
        const data = await status(scan, apiKey);
        assert.equal(data.downloadUrl, undefined);
        assert.ok(String(data[field]).startsWith(emu.downloadOrigin));
      } finally {
        emu.setVariant({});
      }
    });
  }

  for (const redirect of [302, 303] as const) {
    it(`download address variant: GET /scans/{id}/report redirects with ${redirect}`, async () => {
      const { apiKey } = emu.addTenant({});
      const scan = await finishedScan(emu, 'compliance', apiKey);
      await generate(scan, apiKey);
      emu.advance(10_000);
      emu.setVariant({ downloadAddress: `redirect${redirect}` });
      try {
        const reply = await call(emu, 'GET', `/scans/${scan}/report`, { key: apiKey });
        assert.equal(reply.status, redirect);
        assert.ok(reply.headers.get('location')?.startsWith(`${emu.downloadOrigin}/download/`));
      } finally {
        emu.setVariant({});
      }
    });
  }
});
