import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

describe('emulator: authentication and route access', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 7 });
  });
  after(() => emu.close());

  it('a request without an Authorization header gets 401', async () => {
    const reply = await call(emu, 'GET', '/tenants/me', { key: null });
    assert.equal(reply.status, 401);
    assert.equal(reply.body.error.code, 'UNAUTHORIZED');
  });

  it('an unknown key gets 401 and the error does not echo the key', async () => {
    const reply = await call(emu, 'GET', '/tenants/me', {
      key: 'ak_live_notarealkey0000000000000',
    });
    assert.equal(reply.status, 401);
    assert.doesNotMatch(reply.text, /notarealkey/);
  });

  it('a non-Bearer Authorization header gets 401', async () => {
    const reply = await call(emu, 'GET', '/tenants/me', {
      key: null,
      headers: { authorization: `Basic ${emu.apiKey}` },
    });
    assert.equal(reply.status, 401);
  });

  it('a valid key reads the tenant profile, resolved from the key', async () => {
    const reply = await call(emu, 'GET', '/tenants/me');
    assert.equal(reply.status, 200);
    assert.equal(reply.body.success, true);
    assert.equal(reply.body.data.id, emu.tenantId);
    assert.equal(reply.body.data.name, 'Contoso Ltd');
  });

  const dashboardOnly: Array<[string, string]> = [
    ['GET', '/tenants/me/billing'],
    ['POST', '/tenants/me/billing/checkout'],
    ['GET', '/tenants/me/team'],
    ['POST', '/tenants/me/members'],
    ['POST', '/tenants/me/connections'],
    ['DELETE', '/tenants/me/connections/abc'],
    ['POST', '/tenants/me/onboarding'],
    ['POST', '/tenants/me/offboarding'],
    ['GET', '/tenants/me/sso'],
    ['PUT', '/tenants/me/sso/saml'],
    ['POST', '/tenants/me/remediation-plans/p1/apply'],
    ['POST', '/tenants/me/ai-pilot/break-glass'],
    ['PATCH', '/tenants/me/ai-pilot/break-glass/acc1'],
    ['POST', '/tenants/me/ai-pilot/conditional-access'],
    ['PATCH', '/tenants/me/ai-pilot/conditional-access/pol1'],
  ];
  for (const [method, path] of dashboardOnly) {
    it(`dashboard-only route ${method} ${path} gets 403 AUTH_INSUFFICIENT_SCOPE`, async () => {
      const reply = await call(
        emu,
        method,
        path,
        method === 'GET' || method === 'DELETE' ? {} : { body: {} },
      );
      assert.equal(reply.status, 403);
      assert.equal(reply.body.error.code, 'AUTH_INSUFFICIENT_SCOPE');
    });
  }

  it('the read-only AI assistant and remediation views stay readable by a key', async () => {
    for (const path of [
      '/tenants/me/ai-pilot/break-glass',
      '/tenants/me/ai-pilot/conditional-access',
      '/tenants/me/remediation-plans',
    ]) {
      assert.equal((await call(emu, 'GET', path)).status, 200, path);
    }
  });

  it('a plan without API access gets 403 PLAN_API_ACCESS_REQUIRED', async () => {
    const { apiKey } = emu.addTenant({ plan: { apiAccess: false } });
    const reply = await call(emu, 'GET', '/tenants/me', { key: apiKey });
    assert.equal(reply.status, 403);
    assert.equal(reply.body.error.code, 'PLAN_API_ACCESS_REQUIRED');
  });

  it('an unknown route gets 404 NOT_FOUND', async () => {
    const reply = await call(emu, 'GET', '/tenants/me/nothing-here');
    assert.equal(reply.status, 404);
    assert.equal(reply.body.error.code, 'NOT_FOUND');
  });

  it('a path outside the base path gets 404 NOT_FOUND', async () => {
    const reply = await fetch(new URL('/tenants/me', emu.url), {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    assert.equal(reply.status, 404);
    await reply.body?.cancel();
  });

  it('the control surface is not reachable through the API port', async () => {
    const origin = new URL(emu.url).origin;
    for (const path of ['/scans', '/requests', '/faults']) {
      const reply = await fetch(`${origin}${path}`, {
        headers: { authorization: `Bearer ${emu.apiKey}` },
      });
      assert.equal(reply.status, 404, path);
      const viaBase = await call(emu, 'GET', `/control${path}`);
      assert.equal(viaBase.status, 404, path);
      await reply.body?.cancel();
    }
  });

  it('no API key works on the control surface', async () => {
    const reply = await fetch(`${emu.controlOrigin}/scans`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    assert.equal(reply.status, 403);
    await reply.body?.cancel();
  });

  it('the request log records each origin with its headers, tenant and key', async () => {
    emu.clearRequests();
    await call(emu, 'GET', '/tenants/me/connections');
    const [entry] = emu.requests();
    assert.ok(entry);
    assert.equal(entry.origin, 'api');
    assert.equal(entry.path, '/tenants/me/connections');
    assert.equal(entry.status, 200);
    assert.equal(entry.headers.authorization, `Bearer ${emu.apiKey}`);
    assert.equal(entry.tenantId, emu.tenantId);
    assert.ok(entry.keyId);
  });
});
