import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

describe('emulator: notification settings and scan-finished events', () => {
  let emu: Emulator;
  const posts: Array<{ body: unknown; headers: IncomingMessage['headers'] }> = [];
  const webhook = createServer((req, res) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      posts.push({ body: JSON.parse(text), headers: req.headers });
      res.writeHead(200).end('1');
    });
  });
  let webhookUrl = '';

  before(async () => {
    emu = await startEmulator({ seed: 3 });
    await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
    webhookUrl = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/hook`;
  });
  after(async () => {
    await emu.close();
    await new Promise((resolve) => webhook.close(resolve));
  });

  const patch = (body: unknown) => call(emu, 'PATCH', '/tenants/me/notifications', { body });

  it('GET returns the five notification fields', async () => {
    const reply = await call(emu, 'GET', '/tenants/me/notifications');
    assert.equal(reply.status, 200);
    assert.deepEqual(Object.keys(reply.body.data).sort(), [
      'emailOnComplete',
      'emailOnFail',
      'teamsOnComplete',
      'teamsOnFail',
      'teamsWebhookUrl',
    ]);
  });

  it('PATCH changes only the fields sent and returns the full object', async () => {
    const before = (await call(emu, 'GET', '/tenants/me/notifications')).body.data;
    const reply = await patch({ emailOnFail: !before.emailOnFail });
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.body.data, { ...before, emailOnFail: !before.emailOnFail });
    await patch({ emailOnFail: before.emailOnFail });
  });

  it('PATCH with an invalid webhook URL gets 400 VALIDATION_ERROR and changes nothing', async () => {
    const before = (await call(emu, 'GET', '/tenants/me/notifications')).body.data;
    for (const bad of ['not a url', 'ftp://example.com/x', '', 42]) {
      const reply = await patch({ teamsWebhookUrl: bad, emailOnComplete: !before.emailOnComplete });
      assert.equal(reply.status, 400, String(bad));
      assert.equal(reply.body.error.code, 'VALIDATION_ERROR');
    }
    assert.deepEqual((await call(emu, 'GET', '/tenants/me/notifications')).body.data, before);
  });

  it('PATCH with wrong types gets 400 VALIDATION_ERROR', async () => {
    assert.equal((await patch({ emailOnComplete: 'yes' })).status, 400);
    assert.equal((await patch({ teamsOnFail: 1 })).status, 400);
    const notObject = await fetch(`${emu.url}/tenants/me/notifications`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${emu.apiKey}`, 'content-type': 'application/json' },
      body: '[true]',
    });
    assert.equal(notObject.status, 400);
    await notObject.body?.cancel();
  });

  it('PATCH accepts null to clear the webhook URL', async () => {
    assert.equal(
      (await patch({ teamsWebhookUrl: webhookUrl })).body.data.teamsWebhookUrl,
      webhookUrl,
    );
    assert.equal((await patch({ teamsWebhookUrl: null })).body.data.teamsWebhookUrl, null);
  });

  it('a completed scan records an email per emailOnComplete and posts to the webhook per teamsOnComplete', async () => {
    await patch({
      emailOnComplete: true,
      emailOnFail: false,
      teamsWebhookUrl: webhookUrl,
      teamsOnComplete: true,
      teamsOnFail: false,
    });
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    emu.advance(60_000);
    await emu.flushEvents?.();
    const mine = emu.notifications().filter((n) => n.scanId === id);
    assert.deepEqual(mine.map((n) => [n.channel, n.event]).sort(), [
      ['email', 'completed'],
      ['teams', 'completed'],
    ]);
    assert.equal(mine.find((n) => n.channel === 'teams')?.status, 200);
    const post = posts.find((p) => (p.body as { scanId: string }).scanId === id);
    assert.ok(post);
    assert.equal((post.body as { event: string }).event, 'completed');
    assert.equal(post.headers['content-type'], 'application/json');
    assert.equal(post.headers.authorization, undefined);
  });

  it('a failed scan notifies per emailOnFail and teamsOnFail, not the complete settings', async () => {
    await patch({
      emailOnComplete: true,
      emailOnFail: false,
      teamsOnComplete: false,
      teamsOnFail: true,
    });
    emu.setScanPlan({ outcome: { kind: 'failed' } });
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    emu.setScanPlan({});
    emu.advance(60_000);
    await emu.flushEvents?.();
    const mine = emu.notifications().filter((n) => n.scanId === id);
    assert.deepEqual(
      mine.map((n) => [n.channel, n.event]),
      [['teams', 'failed']],
    );
  });

  it('events follow the settings at finish time, a cancelled scan never notifies, all off sends nothing', async () => {
    await patch({
      emailOnComplete: false,
      emailOnFail: false,
      teamsOnComplete: false,
      teamsOnFail: false,
    });
    const done = (
      await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
    ).body.data.id;
    await patch({ emailOnComplete: true, teamsOnComplete: true });
    emu.advance(60_000); // the settings at finish time count
    const cancelled = (
      await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
    ).body.data.id;
    await call(emu, 'POST', `/scans/${cancelled}/cancel`);
    emu.advance(60_000);
    await emu.flushEvents?.();
    const ids = emu.notifications().map((n) => n.scanId);
    assert.ok(ids.includes(done));
    assert.ok(!ids.includes(cancelled));
    await patch({ emailOnComplete: false, teamsOnComplete: false });
    const silent = (
      await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
    ).body.data.id;
    emu.advance(60_000);
    await emu.flushEvents?.();
    assert.ok(!emu.notifications().some((n) => n.scanId === silent));
  });
});
