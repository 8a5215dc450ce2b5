import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, finishedScan } from './test-http.js';

interface Finding {
  id: string;
  checkId: string;
  result: string;
  [field: string]: unknown;
}

describe('emulator: scan results', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 21 });
  });
  after(() => emu.close());

  const results = async (id: string, query = '') =>
    (await call(emu, 'GET', `/scans/${id}/results${query}`)).body;

  it('results of a completed scan: realistic checks with severity, remediation and a neutral reference', async () => {
    const id = await finishedScan(emu);
    const body = await results(id);
    const data = body.data as Finding[];
    assert.equal(data.length, 40);
    assert.equal(data.filter((f) => f.result === 'Failed').length, 5);
    for (const f of data) {
      assert.match(f.checkId, /^[A-Z]+-[\w.]+/);
      assert.equal(typeof f.title, 'string');
      assert.equal(typeof f.category, 'string');
      assert.ok(['critical', 'high', 'medium', 'low', 'info'].includes(f.severity as string));
      assert.equal(typeof f.remediation, 'string');
      assert.match(f.reference as string, /^https:\/\/docs\.example\.com\//);
    }
    assert.ok(data.some((f) => f.checkId === 'CIS-1.1.1'));
    assert.equal(new Set(data.map((f) => f.id)).size, 40);
  });

  it('the result filter returns only matching results (?result=Failed)', async () => {
    const id = await finishedScan(emu);
    const failed = (await results(id, '?result=Failed')).data as Finding[];
    assert.equal(failed.length, 5);
    assert.ok(failed.every((f) => f.result === 'Failed'));
    assert.equal(((await results(id, '?result=failed')).data as Finding[]).length, 5);
    const bad = await call(emu, 'GET', `/scans/${id}/results?result=Maybe`);
    assert.equal(bad.status, 400);
  });

  it('results of a scan still running get 409 SCAN_NOT_COMPLETED', async () => {
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    const reply = await call(emu, 'GET', `/scans/${id}/results`);
    assert.equal(reply.status, 409);
    assert.equal(reply.body.error.code, 'SCAN_NOT_COMPLETED');
    emu.advance(3_600_000);
  });

  it('results of a failed scan are an empty list', async () => {
    emu.setScanPlan({ outcome: { kind: 'failed' } });
    const id = await finishedScan(emu);
    emu.setScanPlan({});
    assert.deepEqual((await results(id)).data, []);
  });

  it('results paginate with ?cursor= and meta.nextCursor under resultsPageSize', async () => {
    emu.setScanPlan({ outcome: { kind: 'completed', total: 95, failed: 23 } });
    const id = await finishedScan(emu);
    emu.setScanPlan({});
    emu.setVariant({ resultsPageSize: 10 });
    try {
      const seen: Finding[] = [];
      let cursor: number | null = 0;
      let pages = 0;
      while (cursor !== null) {
        const page: { data: Finding[]; meta: { nextCursor: number | null } } = await results(
          id,
          `?result=Failed&cursor=${cursor}`,
        );
        seen.push(...page.data);
        cursor = page.meta.nextCursor;
        pages++;
      }
      assert.equal(pages, 3);
      assert.equal(seen.length, 23);
      assert.equal(new Set(seen.map((f) => f.id)).size, 23);
      assert.ok(seen.every((f) => f.result === 'Failed'));
    } finally {
      emu.setVariant({});
    }
  });

  it('without a page size, one page with meta.nextCursor null', async () => {
    const id = await finishedScan(emu);
    assert.equal((await results(id)).meta.nextCursor, null);
  });

  it('ignoreResultFilter variant returns every result despite ?result=', async () => {
    const id = await finishedScan(emu);
    emu.setVariant({ ignoreResultFilter: true });
    try {
      assert.equal(((await results(id, '?result=Failed')).data as Finding[]).length, 40);
    } finally {
      emu.setVariant({});
    }
  });

  it("finding shape variants: 'alt' renames fields and upper-cases severity; 'sparse' keeps id, checkId, result", async () => {
    const id = await finishedScan(emu);
    emu.setVariant({ findingShape: 'alt' });
    const alt = ((await results(id)).data as Finding[])[0]!;
    assert.equal(alt.title, undefined);
    assert.equal(typeof alt.name, 'string');
    assert.match(alt.level as string, /^(CRITICAL|HIGH|MEDIUM|LOW|INFO)$/);
    assert.equal(typeof alt.fix, 'string');
    assert.equal(typeof alt.url, 'string');
    assert.equal(typeof alt.group, 'string');
    emu.setVariant({ findingShape: 'sparse' });
    const sparse = ((await results(id)).data as Finding[])[0]!;
    assert.deepEqual(Object.keys(sparse).sort(), ['checkId', 'id', 'result']);
    emu.setVariant({});
  });

  it('50,000 results are generated on demand and served whole or by page', async () => {
    emu.setScanPlan({ outcome: { kind: 'completed', total: 50_000, failed: 1_234, skipped: 100 } });
    const id = await finishedScan(emu);
    emu.setScanPlan({});
    const all = await results(id);
    assert.equal(all.data.length, 50_000);
    assert.equal((all.data as Finding[]).filter((f) => f.result === 'Failed').length, 1_234);
    const failed = await results(id, '?result=Failed&limit=1000&cursor=1000');
    assert.equal(failed.data.length, 234);
    assert.equal(failed.meta.nextCursor, null);
  });
});
