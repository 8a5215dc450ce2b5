// What `tenant plan` reads and `tenant apply` writes: aged keys (control surface), seeded
// notification fields and targets, and the variant of Authentication rule 10.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

const DAY = 86_400_000;

describe('emulator: tenant settings', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({
      seed: 36,
      tenant: {
        notifications: { emailOnFail: false },
        targets: [
          { host: 'App.Example.com', label: 'Prod', verified: true },
          { host: 'b.example.com' },
        ],
      },
    });
  });
  after(() => emu.close());

  it('a key added through the control surface can be old and long unused', async () => {
    const response = await fetch(`${emu.controlOrigin}/tenants/${emu.tenantId}/keys`, {
      method: 'POST',
      body: JSON.stringify({ name: 'aged', ageMs: 400 * DAY, lastUsedAgoMs: 120 * DAY }),
    });
    assert.equal(response.status, 200);
    const keys = (await call(emu, 'GET', '/tenants/me/api-keys')).body.data;
    const aged = keys.find((k: { name: string }) => k.name === 'aged');
    assert.equal(Math.round((emu.now!() - Date.parse(aged.createdAt)) / DAY), 400);
    assert.equal(Math.round((emu.now!() - Date.parse(aged.lastUsedAt)) / DAY), 120);
  });

  it('a seeded tenant has its notification fields and targets with their verification state', async () => {
    assert.equal(
      (await call(emu, 'GET', '/tenants/me/notifications')).body.data.emailOnFail,
      false,
    );
    const targets = (await call(emu, 'GET', '/tenants/me/attack-surface/targets')).body.data;
    assert.deepEqual(
      targets.map((t: { host: string; label: string; verified: boolean }) => [
        t.host,
        t.label,
        t.verified,
      ]),
      [
        ['app.example.com', 'Prod', true],
        ['b.example.com', null, false],
      ],
    );
  });

  it('notificationsPatch dashboard-only: a key gets 403 AUTH_INSUFFICIENT_SCOPE and nothing changes', async () => {
    emu.setVariant({ notificationsPatch: 'dashboard-only' });
    try {
      const reply = await call(emu, 'PATCH', '/tenants/me/notifications', {
        body: { emailOnFail: true },
      });
      assert.equal(reply.status, 403);
      assert.equal(reply.body.error.code, 'AUTH_INSUFFICIENT_SCOPE');
      assert.equal(
        (await call(emu, 'GET', '/tenants/me/notifications')).body.data.emailOnFail,
        false,
      );
    } finally {
      emu.setVariant({});
    }
    const allowed = await call(emu, 'PATCH', '/tenants/me/notifications', {
      body: { emailOnFail: true },
    });
    assert.equal(allowed.body.data.emailOnFail, true);
  });
});
