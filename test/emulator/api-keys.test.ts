import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

describe('emulator: API keys', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({
      seed: 11,
      tenant: { connections: [{ msTenantId: 'ms-tenant-a' }, { msTenantId: 'ms-tenant-b' }] },
    });
  });
  after(() => emu.close());

  const create = (body: unknown, key?: string) =>
    call(emu, 'POST', '/tenants/me/api-keys', { body, ...(key ? { key } : {}) });

  it('create returns 201 with the full key once and keyPrefix = first 12 chars + ... + last 4', async () => {
    const reply = await create({ name: 'ci' });
    assert.equal(reply.status, 201);
    const data = reply.body.data;
    assert.match(data.key, /^ak_live_/);
    assert.equal(data.keyPrefix, `${data.key.slice(0, 12)}...${data.key.slice(-4)}`);
    assert.deepEqual(Object.keys(data).sort(), [
      'createdAt',
      'id',
      'key',
      'keyPrefix',
      'msTenantId',
      'name',
    ]);
    assert.equal(data.msTenantId, null);
  });

  it('list returns active keys only, never the full key', async () => {
    const made = (await create({ name: 'to-revoke' })).body.data;
    await call(emu, 'DELETE', `/tenants/me/api-keys/${made.id}`);
    const reply = await call(emu, 'GET', '/tenants/me/api-keys');
    assert.equal(reply.status, 200);
    assert.ok(!reply.body.data.some((k: { id: string }) => k.id === made.id));
    assert.doesNotMatch(reply.text, /ak_live_[A-Za-z0-9]{20,}/);
    for (const k of reply.body.data) {
      assert.deepEqual(Object.keys(k).sort(), [
        'createdAt',
        'id',
        'keyPrefix',
        'lastUsedAt',
        'msTenantId',
        'name',
      ]);
    }
  });

  it('name is required and at most 255 characters', async () => {
    assert.equal((await create({})).status, 400);
    assert.equal((await create({ name: 42 })).body.error.code, 'VALIDATION_ERROR');
    assert.equal((await create({ name: 'x'.repeat(256) })).status, 400);
    assert.equal((await create({ name: 'x'.repeat(255) })).status, 201);
  });

  it('msTenantId must equal one of the account connections and is stored as metadata', async () => {
    const bad = await create({ name: 'k', msTenantId: 'ms-tenant-zzz' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.code, 'VALIDATION_ERROR');
    const good = await create({ name: 'k', msTenantId: 'ms-tenant-b' });
    assert.equal(good.status, 201);
    assert.equal(good.body.data.msTenantId, 'ms-tenant-b');
  });

  it('the 11th active key gets 400 VALIDATION_ERROR', async () => {
    const { apiKey } = emu.addTenant({});
    for (let i = 2; i <= 10; i++)
      assert.equal((await create({ name: `k${i}` }, apiKey)).status, 201, `key ${i}`);
    const eleventh = await create({ name: 'k11' }, apiKey);
    assert.equal(eleventh.status, 400);
    assert.equal(eleventh.body.error.code, 'VALIDATION_ERROR');
  });

  it('a revoked key gets 401 at once, on every later request', async () => {
    const made = (await create({ name: 'short-lived' })).body.data;
    assert.equal((await call(emu, 'GET', '/tenants/me', { key: made.key })).status, 200);
    assert.equal(
      (await call(emu, 'DELETE', `/tenants/me/api-keys/${made.id}`, { key: made.key })).status,
      200,
    );
    assert.equal((await call(emu, 'GET', '/tenants/me', { key: made.key })).status, 401);
    assert.equal((await call(emu, 'GET', '/tenants/me/scans', { key: made.key })).status, 401);
  });

  it('deleting an unknown or already revoked key gets 404', async () => {
    assert.equal((await call(emu, 'DELETE', '/tenants/me/api-keys/nope')).status, 404);
  });

  it('lastUsedAt is null until the key is used, then tracks its last request', async () => {
    const made = (await create({ name: 'tracked' })).body.data;
    const before = (await call(emu, 'GET', '/tenants/me/api-keys')).body.data.find(
      (k: { id: string }) => k.id === made.id,
    );
    assert.equal(before.lastUsedAt, null);
    emu.advance(60_000);
    await call(emu, 'GET', '/tenants/me', { key: made.key });
    const afterUse = (await call(emu, 'GET', '/tenants/me/api-keys')).body.data.find(
      (k: { id: string }) => k.id === made.id,
    );
    assert.ok(afterUse.lastUsedAt);
    assert.ok(Date.parse(afterUse.lastUsedAt) >= Date.parse(made.createdAt) + 60_000);
  });

  it('a status fault with afterHandler answers 5xx after the key was made', async () => {
    const count = async () => (await call(emu, 'GET', '/tenants/me/api-keys')).body.data.length;
    const before = await count();
    emu.addFault({
      route: 'POST /tenants/me/api-keys',
      fault: { kind: 'status', status: 500, afterHandler: true },
    });
    assert.equal((await create({ name: 'acted' })).status, 500);
    assert.equal(await count(), before + 1);
    emu.addFault({ route: 'POST /tenants/me/api-keys', fault: { kind: 'status', status: 500 } });
    assert.equal((await create({ name: 'refused' })).status, 500);
    assert.equal(await count(), before + 1);
  });
});
