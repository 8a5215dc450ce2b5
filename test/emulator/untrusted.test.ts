// The emulator's faults and variants of an untrusted service: results that are not a list, pages
// that never end, a page without its failed results; markup and the echoed key in service text;
// scan ids that are not plain identifiers.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from './emulator.js';
import { HOSTILE_MARKDOWN, echoForms } from './findings.js';
import { HOSTILE_SCAN_ID_PREFIX } from './routes/scans.js';
import { call, finishedScan } from './test-http.js';
import type { Emulator } from './types.js';

describe('emulator: an untrusted service', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 23 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.clearFaults();
    emu.setVariant({});
  });

  const results = async (id: string, query = '') =>
    (await call(emu, 'GET', `/scans/${encodeURIComponent(id)}/results${query}`)).body as {
      data: unknown;
      meta?: { nextCursor: number | null };
    };

  it('a data fault answers its data in a success envelope', async () => {
    const id = await finishedScan(emu);
    emu.addFault({ route: 'GET /scans/:id/results', fault: { kind: 'data', data: 'ok' } });
    assert.deepEqual(await results(id), { success: true, data: 'ok' });
    assert.equal((await results(id)).data instanceof Array, true, 'once');
  });

  it('an endless cursor: empty pages whose next cursor is always one further', async () => {
    const id = await finishedScan(emu);
    emu.addFault({ route: 'GET /scans/:id/results', fault: { kind: 'endless-cursor' }, times: 2 });
    assert.deepEqual(await results(id), { success: true, data: [], meta: { nextCursor: 1 } });
    assert.deepEqual(await results(id, '?cursor=41'), {
      success: true,
      data: [],
      meta: { nextCursor: 42 },
    });
  });

  it('drop-failed: the page without its failed results, the counts unchanged', async () => {
    const id = await finishedScan(emu);
    emu.addFault({ route: 'GET /scans/:id/results', fault: { kind: 'drop-failed' } });
    const short = (await results(id)).data as Array<{ result: string }>;
    assert.equal(short.length, 35);
    assert.ok(short.every((f) => f.result !== 'Failed'));
    const scan = (await call(emu, 'GET', `/scans/${id}`)).body.data as {
      summary: { failed: number };
    };
    assert.equal(scan.summary.failed, 5);
    assert.equal(((await results(id)).data as unknown[]).length, 40, 'once');
  });

  it('hostileMarkdown and echoKey: markup and the presenting key in every text field', async () => {
    emu.setVariant({ hostileMarkdown: true, echoKey: true });
    const id = await finishedScan(emu);
    const [finding] = (await results(id, '?result=Failed')).data as Array<Record<string, string>>;
    for (const field of ['title', 'category', 'description', 'remediation']) {
      assert.ok(finding?.[field]?.includes(HOSTILE_MARKDOWN.text), field);
    }
    assert.ok(finding?.title?.includes(emu.apiKey));
    const forms = echoForms(emu.apiKey);
    assert.equal(new Set(forms).size, 18, 'eighteen distinct forms');
    for (const form of forms) assert.ok(finding?.description?.includes(form), form);
    assert.ok(forms.includes(emu.apiKey.slice('ak_live_'.length)), 'the secret part alone');
    assert.equal(finding?.reference, HOSTILE_MARKDOWN.reference);
    const me = (await call(emu, 'GET', '/tenants/me')).body.data as { name: string };
    assert.match(me.name, /@octocat/);
    for (const form of forms) assert.ok(me.name.includes(form), form);
  });

  it('echoEveryKey and echoTexts: every key the host holds, whichever tenant, and drawn texts', async () => {
    const other = emu.addTenant();
    emu.setVariant({ echoEveryKey: true, echoTexts: ['drawn-text-1'] });
    const id = await finishedScan(emu);
    const [finding] = (await results(id, '?result=Failed')).data as Array<Record<string, string>>;
    for (const form of [...echoForms(emu.apiKey), ...echoForms(other.apiKey), 'drawn-text-1'])
      assert.ok(finding?.description?.includes(form), form);
    const me = (await call(emu, 'GET', '/tenants/me')).body.data as { name: string };
    assert.ok(me.name.includes(other.apiKey), "another tenant's key in this tenant's name");
  });

  it('hostileScanIds: ids that are a command substitution, still addressable encoded', async () => {
    emu.setVariant({ hostileScanIds: true });
    const id = await finishedScan(emu);
    assert.ok(id.startsWith(HOSTILE_SCAN_ID_PREFIX), id);
    const got = await call(emu, 'GET', `/scans/${encodeURIComponent(id)}`);
    assert.equal(got.status, 200);
    assert.equal((got.body.data as { id: string }).id, id);
  });
});
