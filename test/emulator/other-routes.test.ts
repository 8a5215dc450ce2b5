import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

const READ_ROUTES = [
  '/tenants/me',
  '/tenants/me/connections',
  '/tenants/me/scheduled-scans',
  '/tenants/me/attack-surface',
  '/tenants/me/attack-surface/history',
  '/tenants/me/attack-surface/targets',
  '/tenants/me/threats',
  '/tenants/me/policies',
  '/tenants/me/remediation/capabilities',
  '/tenants/me/remediation-plans',
  '/tenants/me/ai-pilot/remediable',
  '/tenants/me/ai-pilot/break-glass',
  '/tenants/me/ai-pilot/conditional-access',
];

describe('emulator: every other listed route', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 31 });
  });
  after(() => emu.close());

  for (const path of READ_ROUTES) {
    it(`GET ${path} answers 200 in the envelope with deterministic data`, async () => {
      const first = await call(emu, 'GET', path);
      assert.equal(first.status, 200);
      assert.equal(first.body.success, true);
      assert.ok(first.body.data !== undefined && first.body.data !== null);
      const twin = await startEmulator({ seed: 31 });
      try {
        const again = await call(twin, 'GET', path, { key: twin.apiKey });
        const stable = (value: unknown) =>
          JSON.stringify(value, (k, v) => (/At$|^date$/.test(k) ? undefined : v));
        assert.equal(stable(again.body.data), stable(first.body.data));
      } finally {
        await twin.close();
      }
    });
  }

  it('GET a remediation plan by id; an unknown id is 404', async () => {
    const [plan] = (await call(emu, 'GET', '/tenants/me/remediation-plans')).body.data;
    const one = await call(emu, 'GET', `/tenants/me/remediation-plans/${plan.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.data.id, plan.id);
    assert.equal((await call(emu, 'GET', '/tenants/me/remediation-plans/nope')).status, 404);
  });

  it('attack-surface targets: add, update, verify, scan, remove', async () => {
    const added = await call(emu, 'POST', '/tenants/me/attack-surface/targets', {
      body: { host: 'portal.example.com' },
    });
    assert.equal(added.status, 201);
    const id = added.body.data.id;
    assert.equal(added.body.data.verified, false);
    assert.equal(
      (
        await call(emu, 'POST', '/tenants/me/attack-surface/targets', {
          body: { host: 'not a host' },
        })
      ).status,
      400,
    );
    assert.equal(
      (
        await call(emu, 'POST', '/tenants/me/attack-surface/targets', {
          body: { host: 'portal.example.com' },
        })
      ).status,
      409,
    );
    assert.equal((await call(emu, 'POST', '/tenants/me/attack-surface/scan')).status, 409);
    const updated = await call(emu, 'PATCH', `/tenants/me/attack-surface/targets/${id}`, {
      body: { label: 'Portal' },
    });
    assert.equal(updated.body.data.label, 'Portal');
    const verified = await call(emu, 'POST', `/tenants/me/attack-surface/targets/${id}/verify`);
    assert.equal(verified.body.data.verified, true);
    const scan = await call(emu, 'POST', '/tenants/me/attack-surface/scan');
    assert.equal(scan.status, 202);
    assert.equal(scan.body.data.targets, 1);
    assert.equal((await call(emu, 'GET', '/tenants/me/attack-surface')).body.data.targets, 1);
    assert.equal(
      (await call(emu, 'DELETE', `/tenants/me/attack-surface/targets/${id}`)).status,
      200,
    );
    assert.deepEqual((await call(emu, 'GET', '/tenants/me/attack-surface/targets')).body.data, []);
    assert.equal(
      (await call(emu, 'PATCH', `/tenants/me/attack-surface/targets/${id}`, { body: {} })).status,
      404,
    );
  });

  it('a custom basePath serves the same API under it', async () => {
    const custom = await startEmulator({ basePath: '/tenant-api/v2/' });
    try {
      assert.match(custom.url, /\/tenant-api\/v2$/);
      assert.equal((await call(custom, 'GET', '/tenants/me', { key: custom.apiKey })).status, 200);
    } finally {
      await custom.close();
    }
  });
});
