import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

describe('emulator: rate limits and warm-up', () => {
  it('account model: a shared token bucket gives 429 RATE_LIMITED without Retry-After, across keys', async () => {
    const emu = await startEmulator({
      rateLimit: { kind: 'account', ratePerSecond: 0.001, burst: 5 },
    });
    try {
      const second = emu.addKey(emu.tenantId);
      const statuses = [];
      for (let i = 0; i < 6; i++)
        statuses.push(
          (await call(emu, 'GET', '/tenants/me', { key: i % 2 ? second : emu.apiKey })).status,
        );
      assert.deepEqual(statuses, [200, 200, 200, 200, 200, 429]);
      const limited = await call(emu, 'GET', '/tenants/me', { key: second });
      assert.equal(limited.body.error.code, 'RATE_LIMITED');
      assert.equal(limited.headers.get('retry-after'), null);
      const other = emu.addTenant({});
      assert.equal((await call(emu, 'GET', '/tenants/me', { key: other.apiKey })).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('per-key model: N per minute per key gives 429 RATE_LIMITED with Retry-After seconds', async () => {
    const emu = await startEmulator({ rateLimit: { kind: 'per-key', perMinute: 3 } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
      const limited = await call(emu, 'GET', '/tenants/me');
      assert.equal(limited.status, 429);
      assert.equal(limited.body.error.code, 'RATE_LIMITED');
      const retryAfter = Number(limited.headers.get('retry-after'));
      assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter));
      assert.equal(
        (await call(emu, 'GET', '/tenants/me', { key: emu.addKey(emu.tenantId) })).status,
        200,
      );
    } finally {
      await emu.close();
    }
  });

  it('per-key default is 120 requests per minute', async () => {
    const emu = await startEmulator({ rateLimit: { kind: 'per-key' } });
    try {
      const statuses = await Promise.all(
        Array.from({ length: 121 }, () => call(emu, 'GET', '/tenants/me').then((r) => r.status)),
      );
      assert.equal(statuses.filter((s) => s === 200).length, 120);
      assert.equal(statuses.filter((s) => s === 429).length, 1);
    } finally {
      await emu.close();
    }
  });

  it('setRateLimit switches the model at run time', async () => {
    const emu = await startEmulator();
    try {
      emu.setRateLimit({ kind: 'per-key', perMinute: 1 });
      assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
      assert.equal((await call(emu, 'GET', '/tenants/me')).status, 429);
      emu.setRateLimit({ kind: 'none' });
      assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
    } finally {
      await emu.close();
    }
  });

  it('warm-up: every API request gets 503 SERVICE_STARTING until warmupMs has passed', async () => {
    const emu = await startEmulator({ warmupMs: 800 });
    try {
      const early = await call(emu, 'GET', '/tenants/me');
      assert.equal(early.status, 503);
      assert.equal(early.body.error.code, 'SERVICE_STARTING');
      let status = early.status;
      for (let tries = 0; status === 503 && tries < 50; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        status = (await call(emu, 'GET', '/tenants/me')).status;
      }
      assert.equal(status, 200);
    } finally {
      await emu.close();
    }
  });
});

describe('emulator: fault injection', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 2 });
  });
  after(() => emu.close());

  it('N× 429 with Retry-After in seconds, then normal', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 429, retryAfter: 2 },
      times: 2,
    });
    const first = await call(emu, 'GET', '/tenants/me');
    assert.equal(first.status, 429);
    assert.equal(first.body.error.code, 'RATE_LIMITED');
    assert.equal(first.headers.get('retry-after'), '2');
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 429);
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
  });

  it('429 without Retry-After when the rule gives none', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'status', status: 429 } });
    const reply = await call(emu, 'GET', '/tenants/me');
    assert.equal(reply.status, 429);
    assert.equal(reply.headers.get('retry-after'), null);
  });

  it('429 with Retry-After as an HTTP date', async () => {
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 429, retryAfter: { httpDateSeconds: 5 } },
    });
    const reply = await call(emu, 'GET', '/tenants/me');
    const date = Date.parse(reply.headers.get('retry-after') ?? '');
    assert.ok(date > Date.now() && date <= Date.now() + 6_000);
  });

  it('N× 503 on a route with :params, other routes untouched; after skips the first matches', async () => {
    emu.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'status', status: 503 },
      times: 1,
      after: 1,
    });
    const id = (await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }))
      .body.data.id;
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).status, 200);
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).status, 503);
    assert.equal((await call(emu, 'GET', `/scans/${id}`)).status, 200);
  });

  it('a non-JSON 502 HTML body', async () => {
    emu.addFault({
      route: '* /tenants/me/scans',
      fault: { kind: 'status', status: 502, html: true },
    });
    const reply = await call(emu, 'GET', '/tenants/me/scans');
    assert.equal(reply.status, 502);
    assert.match(reply.headers.get('content-type') ?? '', /text\/html/);
    assert.equal(reply.body, undefined);
  });

  it('connection reset before anything is sent; the request never acts', async () => {
    emu.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'reset', when: 'before' } });
    const before = emu.scans().length;
    await assert.rejects(
      call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }),
    );
    assert.equal(emu.scans().length, before);
  });

  it('connection reset mid-response: a POST did act', async () => {
    emu.addFault({
      route: 'POST /tenants/me/scans',
      fault: { kind: 'reset', when: 'mid-response' },
    });
    const before = emu.scans().length;
    await assert.rejects(
      call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } }),
    );
    assert.equal(emu.scans().length, before + 1);
    const [entry] = emu
      .requests()
      .filter((r) => r.fault === 'reset')
      .slice(-1);
    assert.equal(entry?.path, '/tenants/me/scans');
  });

  it('truncate: headers promise more than the body delivers', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'truncate' } });
    const response = await fetch(`${emu.url}/tenants/me`, {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    assert.equal(response.status, 200);
    await assert.rejects(response.text());
  });

  it('delay postpones the response, then handles it normally', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'delay', ms: 50 } });
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
    assert.equal(emu.requests().at(-1)?.fault, 'delay');
  });

  it('a rule with a key hits only requests presenting that key; after counts only those', async () => {
    emu.clearFaults();
    emu.clearRequests();
    const other = emu.addTenant().apiKey;
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 503 },
      key: other,
      times: 2,
      after: 1,
    });
    const status = async (key: string) => (await call(emu, 'GET', '/tenants/me', { key })).status;
    assert.equal(await status(emu.apiKey), 200);
    assert.equal(await status(other), 200, 'after: the first request presenting the key passes');
    assert.equal(await status(emu.apiKey), 200);
    assert.equal(await status(other), 503);
    assert.equal(await status(emu.apiKey), 200);
    assert.equal(await status(other), 503);
    assert.equal(await status(other), 200, 'times: 2');
    const unknown = 'ak_live_notakeyoftheemulator0000000000000000000';
    emu.addFault({ route: '*', fault: { kind: 'status', status: 500 }, key: unknown });
    assert.equal(await status(unknown), 500, 'matched on the key presented, before auth');
    const logged = emu.requests().filter((r) => r.fault !== undefined);
    assert.ok(logged.every((r) => r.headers.authorization !== `Bearer ${emu.apiKey}`));
  });

  it("'*' matches any route and times: Infinity keeps hitting until clearFaults", async () => {
    emu.addFault({ route: '*', fault: { kind: 'status', status: 500 }, times: Infinity });
    for (const path of ['/tenants/me', '/tenants/me/scans', '/nowhere']) {
      assert.equal((await call(emu, 'GET', path)).status, 500);
    }
    emu.clearFaults();
    assert.equal((await call(emu, 'GET', '/tenants/me')).status, 200);
  });
});

describe('emulator: variants of the unknowns', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 4 });
  });
  after(() => emu.close());

  for (const [vocabulary, words] of [
    ['default', ['queued', 'running', 'completed', 'cancelled']],
    ['upper', ['QUEUED', 'RUNNING', 'COMPLETED', 'CANCELLED']],
    ['alt', ['pending', 'in_progress', 'succeeded', 'canceled']],
  ] as const) {
    it(`status vocabulary '${vocabulary}'`, async () => {
      emu.setVariant({ statusVocabulary: vocabulary });
      try {
        const id = (
          await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
        ).body.data.id;
        const cancel = (
          await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
        ).body.data.id;
        const seen = [(await call(emu, 'GET', `/scans/${id}`)).body.data.status];
        emu.advance(5_000);
        seen.push((await call(emu, 'GET', `/scans/${id}`)).body.data.status);
        seen.push((await call(emu, 'POST', `/scans/${cancel}/cancel`)).body.data.status);
        emu.advance(60_000);
        seen.push((await call(emu, 'GET', `/scans/${id}`)).body.data.status);
        assert.deepEqual(seen, [words[0], words[1], words[3], words[2]]);
        assert.equal(emu.scans().find((s) => s.id === id)?.status, 'completed');
      } finally {
        emu.setVariant({});
      }
    });
  }

  it("the 'alt' vocabulary names a failed scan 'error'", async () => {
    emu.setVariant({ statusVocabulary: 'alt' });
    emu.setScanPlan({ outcome: { kind: 'failed' } });
    try {
      const id = (
        await call(emu, 'POST', '/tenants/me/scans', { body: { scanType: 'compliance' } })
      ).body.data.id;
      emu.advance(60_000);
      assert.equal((await call(emu, 'GET', `/scans/${id}`)).body.data.status, 'error');
    } finally {
      emu.setVariant({});
      emu.setScanPlan({});
    }
  });

  const shapes = [
    [
      'envelope',
      (r: { body: unknown }) =>
        assert.deepEqual((r.body as { error: { code: string } }).error.code, 'NOT_FOUND'),
    ],
    [
      'flat',
      (r: { body: unknown }) => assert.equal((r.body as { code: string }).code, 'NOT_FOUND'),
    ],
    ['string', (r: { body: unknown }) => assert.deepEqual(r.body, { error: 'NOT_FOUND' })],
    ['empty', (r: { text: string }) => assert.equal(r.text, '')],
    [
      'html',
      (r: { text: string; headers: Headers }) =>
        assert.match(r.headers.get('content-type') ?? '', /text\/html/),
    ],
    ['text', (r: { text: string; headers: Headers }) => assert.match(r.text, /^NOT_FOUND: /)],
  ] as const;
  for (const [shape, check] of shapes) {
    it(`error body shape '${shape}'`, async () => {
      emu.setVariant({ errorShape: shape });
      try {
        const reply = await call(emu, 'GET', '/scans/does-not-exist');
        assert.equal(reply.status, 404);
        check(reply as never);
      } finally {
        emu.setVariant({});
      }
    });
  }
});
