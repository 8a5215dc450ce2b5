import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, finishedScan } from './test-http.js';
import { checkIdAt, indexOfCheckId } from './findings.js';

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

  it('failedChecks pins which checks fail, so scans of one type can differ as a test wants', async () => {
    const ids = ['CIS-1.1.2', 'CIS-9.1.1', `${checkIdAt(0)}#2`];
    emu.setScanPlan({ outcome: { kind: 'completed', total: 80, failed: 30, failedChecks: ids } });
    const first = await finishedScan(emu);
    emu.setScanPlan({
      outcome: { kind: 'completed', total: 80, failed: 0, failedChecks: ['CIS-1.1.3'] },
    });
    const second = await finishedScan(emu);
    emu.setScanPlan({});
    const failedOf = async (id: string) =>
      ((await results(id, '?result=Failed')).data as Finding[]).map((f) => f.checkId).sort();
    assert.deepEqual(await failedOf(first), [...ids].sort());
    assert.deepEqual(await failedOf(second), ['CIS-1.1.3']);
    const scan = (await call(emu, 'GET', `/scans/${first}`)).body.data as { summary: unknown };
    assert.deepEqual(scan.summary, { total: 80, passed: 77, failed: 3, skipped: 0 });
    assert.equal(indexOfCheckId(checkIdAt(70)), 70);
    assert.equal(indexOfCheckId('NOT-A-CHECK'), undefined);
  });

  it('countsShape: renamed counts (strings) or none at all', async () => {
    const id = await finishedScan(emu);
    emu.setVariant({ countsShape: 'renamed' });
    const renamed = (await call(emu, 'GET', `/scans/${id}`)).body.data as Record<string, unknown>;
    assert.deepEqual(renamed.results, {
      totalChecks: '40',
      passedChecks: '35',
      failedChecks: '5',
      skippedChecks: '0',
    });
    assert.equal(renamed.summary, undefined);
    emu.setVariant({ countsShape: 'none' });
    const none = (await call(emu, 'GET', `/scans/${id}`)).body.data as Record<string, unknown>;
    assert.equal(none.summary, undefined);
    assert.equal(none.results, undefined);
    emu.setVariant({});
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

  it("finding shape variants: 'alt' renames fields and upper-cases severity; 'sparse' keeps id, checkId, result; 'maester' is Maester's", async () => {
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
    emu.setVariant({ findingShape: 'maester' });
    const maester = ((await results(id)).data as Finding[])[0]!;
    assert.deepEqual(Object.keys(maester).sort(), [
      'block',
      'helpUrl',
      'name',
      'result',
      'severity',
      'testId',
    ]);
    assert.match(maester.testId as string, /^CIS-/);
    assert.match(maester.severity as string, /^(Critical|High|Medium|Low|Info)$/);
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
