import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, control } from './test-http.js';

describe('emulator: control surface over HTTP', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 17 });
  });
  after(() => emu.close());

  it('runs on a third origin and reports the state', async () => {
    const origins = new Set([new URL(emu.url).origin, emu.downloadOrigin, emu.controlOrigin]);
    assert.equal(origins.size, 3);
    const state = (await control(emu, 'GET', '/state')).body.data;
    assert.equal(state.apiKey, emu.apiKey);
    assert.equal(state.url, emu.url);
  });

  it('seeds tenants and keys', async () => {
    const tenant = (
      await control(emu, 'POST', '/tenants', { name: 'Fabrikam', plan: { scanQuota: 'Infinity' } })
    ).body.data;
    assert.equal(
      (await call(emu, 'GET', '/tenants/me', { key: tenant.apiKey })).body.data.name,
      'Fabrikam',
    );
    const key = (await control(emu, 'POST', `/tenants/${tenant.tenantId}/keys`, { name: 'extra' }))
      .body.data.apiKey;
    assert.equal((await call(emu, 'GET', '/tenants/me', { key })).body.data.id, tenant.tenantId);
    await control(emu, 'PATCH', `/tenants/${tenant.tenantId}`, { plan: { apiAccess: false } });
    assert.equal((await call(emu, 'GET', '/tenants/me', { key })).status, 403);
  });

  it('seeds faults (times: null means Infinity) and clears them', async () => {
    assert.equal(
      (
        await control(emu, 'POST', '/faults', {
          route: 'GET /tenants/me',
          fault: { kind: 'status', status: 503 },
          times: null,
        })
      ).status,
      200,
    );
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 503);
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 503);
    await control(emu, 'DELETE', '/faults');
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
    assert.equal((await control(emu, 'POST', '/faults', { fault: {} })).status, 400);
  });

  it('seeds a fault for one key; a key that is not a string is refused', async () => {
    const other = emu.addKey(emu.tenantId, 'faulted');
    const rule = { route: 'GET /tenants/me', fault: { kind: 'status', status: 503 }, times: null };
    assert.equal((await control(emu, 'POST', '/faults', { ...rule, key: other })).status, 200);
    assert.equal((await call(emu, 'GET', '/tenants/me', { key: other })).status, 503);
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
    await control(emu, 'DELETE', '/faults');
    assert.equal((await control(emu, 'POST', '/faults', { ...rule, key: 42 })).status, 400);
    assert.equal((await call(emu, 'GET', '/tenants/me', { key: other })).status, 200);
  });

  it('sets the scan plan and variant, advances the clock, reads scans truth', async () => {
    await control(emu, 'PUT', '/scan-plan', {
      plan: { durationMs: 1_000, queuedMs: 0, outcome: { kind: 'completed', total: 3, failed: 1 } },
    });
    await control(emu, 'PUT', '/variant', { statusVocabulary: 'upper' });
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    await control(emu, 'POST', '/clock/advance', { ms: 2_000 });
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).body.data.status, 'COMPLETED');
    const truth = (await control(emu, 'GET', `/scans?tenantId=${emu.tenantId}`)).body.data;
    const mine = truth.find((s: { id: string }) => s.id === id);
    assert.deepEqual([mine.status, mine.total, mine.failed], ['completed', 3, 1]);
    await control(emu, 'PUT', '/variant', {});
    await control(emu, 'PUT', '/scan-plan', { plan: {} });
  });

  it('sets the rate limit model', async () => {
    await control(emu, 'PUT', '/rate-limit', { kind: 'per-key', perMinute: 1 });
    const key = emu.addKey(emu.tenantId);
    assert.equal((await call(emu, 'GET', '/tenants/me', { key })).status, 200);
    assert.equal((await call(emu, 'GET', '/tenants/me', { key })).status, 429);
    await control(emu, 'PUT', '/rate-limit', { kind: 'none' });
  });

  it('reads credits, notifications, report digests and the request log', async () => {
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    await control(emu, 'POST', '/clock/advance', { ms: 3_600_000 });
    await call(emu, 'POST', `/scans/${id}/report/generate`);
    assert.equal((await control(emu, 'GET', '/credits')).body.data.spent, 1);
    assert.ok(
      (await control(emu, 'GET', '/notifications')).body.data.some(
        (n: { scanId: string }) => n.scanId === id,
      ),
    );
    assert.deepEqual(
      (await control(emu, 'GET', `/reports/${id}/digest`)).body.data,
      emu.reportDigest(id),
    );
    const log = (await control(emu, 'GET', '/requests?origin=api')).body.data;
    assert.ok(log.length > 0 && log.every((r: { origin: string }) => r.origin === 'api'));
    await control(emu, 'DELETE', '/requests');
    const after = (await control(emu, 'GET', '/requests')).body.data;
    assert.ok(after.every((r: { origin: string }) => r.origin === 'control'));
  });

  it('an unknown control route is 404', async () => {
    assert.equal((await control(emu, 'GET', '/nope')).status, 404);
  });
});
