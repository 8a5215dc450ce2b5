// Wire-precise behaviour against small local servers: each retry rule, resets, timeouts, budgets,
// the client-wide pacer, headers and URL joining, report redirects, aborts and the canary key.
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import {
  ConfigError,
  DownloadError,
  NetworkError,
  NotFoundError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
  createClient,
  toScan,
  type RetryEvent,
  type TenantClient,
} from '../../src/client/index.js';
import {
  fail,
  json,
  ok,
  startLocalServer,
  type Handler,
  type LocalServer,
} from './local-server.js';

const KEY = 'ak_live_CANARYwire0123456789';
const FAST = { baseDelayMs: 5, maxDelayMs: 20 };
const servers: LocalServer[] = [];
const clients: TenantClient[] = [];

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

async function setup(handler: Handler, extra: Partial<Parameters<typeof createClient>[0]> = {}) {
  const server = await startLocalServer(handler);
  servers.push(server);
  const events: RetryEvent[] = [];
  const client = createClient({
    apiKey: KEY,
    baseUrl: `${server.origin}/api/v1`,
    env: {},
    retry: FAST,
    onRetry: (e) => events.push(e),
    ...extra,
  });
  clients.push(client);
  return { server, client, events };
}

const scan = { id: 's1', status: 'queued', scanType: 'compliance' };

describe('requests', () => {
  it('joins the base path, sends the key, JSON headers and the User-Agent', async () => {
    const { server, client } = await setup((_req, res) => ok(res, scan));
    const created = await client.scans.create('compliance');
    assert.equal(created.id, 's1');
    assert.equal(created.phase, 'pending');
    const [seen] = server.requests;
    assert.equal(seen?.url, '/api/v1/tenants/me/scans');
    assert.equal(seen?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(seen?.headers['content-type'], 'application/json');
    assert.match(String(seen?.headers['user-agent']), /^tenant-scan\/\d+\.\d+\.\d+/);
    assert.deepEqual(JSON.parse(seen?.body ?? ''), { scanType: 'compliance' });
  });

  it('encodes ids so they stay one path segment', async () => {
    const { server, client } = await setup((_req, res) => ok(res, scan));
    await client.scans.get('../../tenants/me?x=1');
    assert.equal(server.requests[0]?.url, '/api/v1/scans/..%2F..%2Ftenants%2Fme%3Fx%3D1');
  });
});

describe('retries', () => {
  it('429 without Retry-After: exponential backoff, then success', async () => {
    const { server, client, events } = await setup((_req, res, _s, i) =>
      i < 2 ? fail(res, 429, 'RATE_LIMITED') : ok(res, scan),
    );
    await client.scans.get('s1');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(
      events.map((e) => [e.reason, e.attempt, e.fromRetryAfter, e.status, e.path]),
      [
        ['rate-limited', 1, false, 429, '/scans/s1'],
        ['rate-limited', 2, false, 429, '/scans/s1'],
      ],
    );
  });

  it('429 with Retry-After in seconds is honoured', async () => {
    const { server, client, events } = await setup((_req, res, _s, i) =>
      i === 0 ? fail(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : ok(res, scan),
    );
    await client.scans.create('compliance'); // a POST: the server provably did not act on a 429
    assert.equal(server.requests.length, 2);
    assert.equal(events[0]?.fromRetryAfter, true);
    assert.ok(events[0]!.delayMs >= 1_000 && events[0]!.delayMs <= 1_100);
    assert.ok(server.requests[1]!.at - server.requests[0]!.at >= 950);
  });

  it('jobs told the same Retry-After come back spread over as much again, not together', async () => {
    const refused = new Set<string>();
    const server = await startLocalServer((req, res) => {
      const job = String(req.headers['user-agent']);
      if (refused.has(job)) return ok(res, scan);
      refused.add(job);
      return fail(res, 429, 'RATE_LIMITED', { 'retry-after': '1' });
    });
    servers.push(server);
    const events: RetryEvent[] = [];
    // One client per job (its own pacer), as in a fleet of processes sharing one key.
    const jobs = Array.from({ length: 20 }, (_, n) => {
      const client = createClient({
        apiKey: KEY,
        baseUrl: `${server.origin}/api/v1`,
        env: {},
        userAgentSuffix: `job-${n}`,
        retry: { baseDelayMs: 5, maxDelayMs: 30_000 },
        onRetry: (e) => events.push(e),
      });
      clients.push(client);
      return client;
    });
    await Promise.all(jobs.map((client) => client.scans.get('s1')));
    assert.equal(server.requests.length, 40);
    const delays = events.map((e) => e.delayMs);
    assert.equal(delays.length, 20);
    assert.ok(
      delays.every((d) => d >= 1_000 && d <= 2_000),
      delays.join(),
    );
    // The old rule added at most 10 % (1.1 s); half of these land past 1.5 s on average.
    assert.ok(delays.filter((d) => d > 1_200).length >= 5, delays.join());
  });

  it('429 with Retry-After as an HTTP date is honoured', async () => {
    const { client, events } = await setup((_req, res, _s, i) =>
      i === 0
        ? fail(res, 429, 'RATE_LIMITED', {
            'retry-after': new Date(Date.now() + 2_000).toUTCString(),
          })
        : ok(res, scan),
    );
    await client.scans.get('s1');
    assert.equal(events[0]?.fromRetryAfter, true);
    assert.ok(events[0]!.delayMs > 0 && events[0]!.delayMs <= 2_200, String(events[0]!.delayMs));
  });

  it('503 SERVICE_STARTING is retried, even for a POST', async () => {
    const { server, client, events } = await setup((_req, res, _s, i) =>
      i < 2 ? fail(res, 503, 'SERVICE_STARTING') : ok(res, scan),
    );
    await client.scans.create('compliance');
    assert.equal(server.requests.length, 3);
    assert.deepEqual(
      events.map((e) => e.reason),
      ['service-starting', 'service-starting'],
    );
  });

  it('SCAN_PLAN_LIMIT_REACHED on a 429 is raised at once, never retried', async () => {
    const { server, client, events } = await setup((_req, res) =>
      fail(res, 429, 'SCAN_PLAN_LIMIT_REACHED'),
    );
    await assert.rejects(client.scans.create('compliance'), PlanLimitError);
    assert.equal(server.requests.length, 1);
    assert.equal(events.length, 0);
  });

  it('other 4xx are not retried', async () => {
    const { server, client } = await setup((req, res) =>
      req.method === 'GET' ? fail(res, 404, 'NOT_FOUND') : fail(res, 400, 'VALIDATION_ERROR'),
    );
    await assert.rejects(client.scans.get('nope'), NotFoundError);
    await assert.rejects(client.notifications.update({ teamsWebhookUrl: 'x' }), ValidationError);
    assert.equal(server.requests.length, 2);
  });

  it('bare 502/503/504 are retried for a GET but not for a POST', async () => {
    const statuses = [502, 503, 504];
    const { server, client } = await setup((req, res, _s, i) =>
      req.method === 'GET' && i < 3
        ? fail(res, statuses[i]!)
        : req.method === 'GET'
          ? ok(res, scan)
          : fail(res, 502),
    );
    await client.scans.get('s1');
    assert.equal(server.requests.length, 4);
    await assert.rejects(client.scans.create('compliance'), ServerError);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
  });

  it('gives up after maxAttempts with the typed error (bare 502 on a GET)', async () => {
    const { server, client } = await setup((_req, res) => fail(res, 502, undefined), {
      retry: { ...FAST, maxAttempts: 3 },
    });
    await assert.rejects(client.scans.get('s1'), ServerError);
    assert.equal(server.requests.length, 3);
  });

  it('429 and 503 warm-up are retried past maxAttempts while the time budget lasts', async () => {
    const { server, client, events } = await setup(
      (_req, res, _s, i) =>
        i < 3
          ? fail(res, 429, 'RATE_LIMITED')
          : i < 6
            ? fail(res, 503, 'SERVICE_STARTING')
            : ok(res, { id: 'n1', status: 'queued' }),
      { retry: { ...FAST, maxAttempts: 2 } },
    );
    await client.scans.create('compliance');
    assert.equal(server.requests.length, 7);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 7);
    assert.deepEqual(
      events.map((e) => e.reason),
      [...Array(3).fill('rate-limited'), ...Array(3).fill('service-starting')],
    );
  });

  it('maxBusyAttempts is the safety net of rate-limit retries', async () => {
    const { server, client } = await setup((_req, res) => fail(res, 429, 'RATE_LIMITED'), {
      retry: { ...FAST, maxAttempts: 2, maxBusyAttempts: 4 },
    });
    await assert.rejects(client.scans.get('s1'), RateLimitError);
    assert.equal(server.requests.length, 4);
  });

  it('a bare 429 that names no code and no Retry-After keeps the attempt cap (it may be a quota error)', async () => {
    const { server, client } = await setup(
      (_req, res) => {
        res.writeHead(429, { 'content-type': 'text/html' });
        res.end('<html><body>Too Many Requests</body></html>');
      },
      { retry: { ...FAST, maxAttempts: 3, maxBusyAttempts: 50 } },
    );
    await assert.rejects(client.scans.get('s1'), RateLimitError);
    assert.equal(server.requests.length, 3);
  });

  it('rate-limit retries do not use up the attempts of network failures', async () => {
    const { server, client, events } = await setup(
      (req, res, _s, i) =>
        i < 3 ? fail(res, 429, 'RATE_LIMITED') : i < 5 ? req.socket.destroy() : ok(res, scan),
      { retry: { ...FAST, maxAttempts: 3 } },
    );
    await client.scans.get('s1');
    assert.equal(server.requests.length, 6);
    assert.equal(events.filter((e) => e.reason === 'network').length, 2);
  });

  it('a Retry-After wait is shortened to fit the budget when the server asked for less', async () => {
    const { server, client, events } = await setup(
      (_req, res) => fail(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }),
      { retry: { ...FAST, maxElapsedMs: 1_500 } },
    );
    await assert.rejects(client.scans.get('s1'), RateLimitError);
    assert.equal(server.requests.length, 2);
    assert.equal(events.length, 1);
    assert.ok(
      events[0]!.delayMs >= 1_000 && events[0]!.delayMs <= 1_500,
      String(events[0]!.delayMs),
    );
  });

  it('gives up when the next wait would pass maxElapsedMs', async () => {
    const { server, client } = await setup(
      (_req, res) => fail(res, 429, 'RATE_LIMITED', { 'retry-after': '30' }),
      {
        retry: { ...FAST, maxElapsedMs: 5_000 },
      },
    );
    await assert.rejects(client.scans.get('s1'), RateLimitError);
    assert.equal(server.requests.length, 1);
  });
});

describe('connection failures', () => {
  it('a reset on a GET is retried', async () => {
    const { server, client, events } = await setup((req, res, _s, i) =>
      i === 0 ? req.socket.destroy() : ok(res, scan),
    );
    await client.scans.get('s1');
    assert.equal(server.requests.length, 2);
    assert.equal(events[0]?.reason, 'network');
  });

  it('a reset after a POST was sent is never re-sent, and the error says why', async () => {
    const { server, client, events } = await setup((req) => req.socket.destroy());
    const error = await client.scans.create('compliance').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.mayHaveBeenProcessed, true);
    assert.match(error.message, /may have processed it/);
    assert.match(error.message, /NOT sent again/);
    assert.equal(server.requests.length, 1);
    assert.equal(events.length, 0);
  });

  it('hide/unhide (idempotent PATCH) are retried after a reset; cancel (POST) is not', async () => {
    const { server, client } = await setup((req, res) => {
      const attempts = server.requests.filter((r) => r.url === req.url).length;
      if (attempts === 1) return req.socket.destroy();
      return ok(res, { id: 's1', hidden: true });
    });
    await client.scans.hide('s1');
    await client.scans.unhide('s1');
    const cancel = await client.scans.cancel('s1').catch((e: unknown) => e);
    assert.ok(cancel instanceof NetworkError && cancel.mayHaveBeenProcessed);
    const count = (suffix: string) => server.requests.filter((r) => r.url.endsWith(suffix)).length;
    assert.deepEqual([count('/hide'), count('/unhide'), count('/cancel')], [2, 2, 1]);
  });

  it('a DELETE whose first answer was lost and then gets 404 counts as done', async () => {
    const { server, client } = await setup((req, res, _s, i) =>
      i === 0 ? req.socket.destroy() : fail(res, 404, 'NOT_FOUND'),
    );
    await client.scans.delete('s1');
    assert.equal(server.requests.length, 2);
  });

  // Found by test/cli/tenant-apply.property.test.ts: a prune said "failed" for a target it removed.
  it('a DELETE first answered by a gateway 502/503/504 and then 404 counts as done; a 404 alone does not', async () => {
    for (const status of [502, 503, 504]) {
      const { server, client } = await setup((_req, res, _s, i) =>
        i === 0 ? fail(res, status, 'BAD_GATEWAY') : fail(res, 404, 'NOT_FOUND'),
      );
      await client.scans.delete('s1');
      assert.equal(server.requests.length, 2, `after a ${status}`);
    }
    const { client } = await setup((_req, res) => fail(res, 404, 'NOT_FOUND'));
    await assert.rejects(client.scans.delete('s1'), NotFoundError);
  });

  /** An address nothing listens on (a server started, then closed), and a client of it that
   *  records its retries. */
  async function clientOfClosedPort(maxAttempts: number) {
    const { server } = await setup((_req, res) => ok(res, scan));
    const origin = server.origin;
    await server.close();
    servers.splice(servers.indexOf(server), 1);
    const events: RetryEvent[] = [];
    const client = createClient({
      apiKey: KEY,
      baseUrl: origin,
      env: {},
      retry: { ...FAST, maxAttempts },
      onRetry: (e) => events.push(e),
    });
    clients.push(client);
    return { origin, client, events };
  }

  it('a refused connection is retried even for a POST (it provably never left)', async () => {
    const { client, events } = await clientOfClosedPort(3);
    const error = await client.scans.create('compliance').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.mayHaveBeenProcessed, false);
    assert.equal(error.code, 'ECONNREFUSED');
    assert.equal(events.length, 2);
  });

  it('nothing answering gives up after 3 attempts, not the 6 a flaky connection gets', async () => {
    const { origin, client, events } = await clientOfClosedPort(6);
    const error = await client.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.equal(error.code, 'ECONNREFUSED');
    assert.equal(error.address, `${origin}/tenants/me`);
    assert.equal(events.length, 2, 'three attempts in all');
  });

  it('a failed TLS handshake is not tried again: the same certificate would answer', async () => {
    const { server } = await setup((_req, res) => ok(res, scan));
    const events: RetryEvent[] = [];
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.origin.replace(/^http:/, 'https:'),
      env: {},
      retry: { ...FAST, maxAttempts: 6 },
      onRetry: (e) => events.push(e),
    });
    clients.push(client);
    const error = await client.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError);
    assert.match(error.code, /^(ERR_SSL_|EPROTO)/);
    assert.equal(events.length, 0);
  });

  it('a timeout on a GET is retried; on a POST it is not, and may have been processed', async () => {
    const { server, client } = await setup(() => undefined /* never answers */, {
      timeoutMs: 150,
      retry: { ...FAST, maxAttempts: 2 },
    });
    const getError = await client.scans.get('s1').catch((e: unknown) => e);
    assert.ok(getError instanceof TimeoutError);
    assert.equal(getError.mayHaveBeenProcessed, false);
    // 0.15 s of silence under the default 120 s request timeout: the fixed silence limit.
    assert.equal(getError.bound, 'silence');
    assert.match(
      getError.message,
      /^GET \/scans\/s1: nothing received for [\d.]+ s, after 2 attempts\.$/,
    );
    assert.equal(server.requests.length, 2);
    const postError = await client.reports.generate('s1').catch((e: unknown) => e);
    assert.ok(postError instanceof TimeoutError);
    assert.equal(postError.mayHaveBeenProcessed, true);
    assert.equal(server.requests.filter((r) => r.method === 'POST').length, 1);
  });
});

describe('bounds on every answer (a broken or hostile far end)', { timeout: 30_000 }, () => {
  /** Writes `piece` until the client goes away: an answer that never ends. */
  function endless(res: ServerResponse, piece: Buffer): void {
    const more = (): void => {
      while (!res.destroyed && res.write(piece));
      if (!res.destroyed) res.once('drain', more);
    };
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('{"success":true,"data":{"name":"');
    more();
  }

  it('stops reading an answer past 64 MiB: one line naming the route and the cap, not retried', async () => {
    const { server, client } = await setup((_req, res) => endless(res, Buffer.alloc(1 << 20, 97)));
    const error = await client.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof ServerError, String(error));
    assert.equal(error.code, 'ANSWER_TOO_LARGE');
    assert.equal(error.message, 'GET /tenants/me: the answer exceeded 64 MiB; stopped reading');
    assert.equal(server.requests.length, 1);
  });

  it('a write whose answer is over the cap may have acted: not re-sent, and said so', async () => {
    const { server, client } = await setup((_req, res) => endless(res, Buffer.alloc(1 << 20, 97)));
    const error = await client.scans.create('compliance').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.mayHaveBeenProcessed, true);
    assert.match(
      error.message,
      /^POST \/tenants\/me\/scans: the answer exceeded 64 MiB; stopped reading\. /,
    );
    assert.equal(server.requests.length, 1);
  });

  it('a trigger answered with success but no scan id may have started one: said so, not re-sent', async () => {
    const { server, client } = await setup((_req, res) => ok(res, { name: 'no id here' }));
    const error = await client.scans.create('compliance').catch((e: unknown) => e);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.mayHaveBeenProcessed, true);
    assert.match(error.message, /^POST \/tenants\/me\/scans: the answer carried no scan id\./);
    assert.equal(server.requests.length, 1);
  });

  it('refuses an answer whose Content-Length is over the cap before reading it', async () => {
    let sent = 0;
    const { client } = await setup((_req, res) => {
      res.writeHead(200, { 'content-length': String(65 * 1024 * 1024) });
      const piece = Buffer.alloc(64 * 1024, 32);
      const more = (): void => {
        while (!res.destroyed && sent < 65 * 1024 * 1024 && res.write(piece)) sent += piece.length;
        if (!res.destroyed && sent < 65 * 1024 * 1024) res.once('drain', more);
      };
      more();
    });
    const error = await client.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof ServerError && error.code === 'ANSWER_TOO_LARGE', String(error));
    assert.ok(sent < 32 * 1024 * 1024, `the body was read on (${sent} bytes sent)`);
  });

  it('a GET that trickles past the request timeout fails naming the route and the limit; tried twice', async () => {
    const { server, client, events } = await setup(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        const timer = setInterval(
          () => (res.destroyed ? clearInterval(timer) : res.write(' ')),
          50,
        );
      },
      { requestTimeoutMs: 400, timeoutMs: 5_000 },
    );
    const started = Date.now();
    const error = await client.scans.get('s1').catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.equal(error.code, 'REQUEST_TIMEOUT');
    assert.match(
      error.message,
      /^GET \/scans\/s1: no complete answer within 0\.4 s \(the request timeout\)/,
    );
    assert.equal(server.requests.length, 2, 'a read that passed its deadline is retried once');
    assert.equal(events.length, 1);
    assert.equal(events[0]?.reason, 'timeout', 'a slow answer is no network error');
    assert.ok(Date.now() - started < 3_000);
  });

  it('a POST that trickles past the request timeout is not sent again', async () => {
    const { server, client } = await setup(
      (_req, res) => {
        res.writeHead(201, { 'content-type': 'application/json' });
        const timer = setInterval(
          () => (res.destroyed ? clearInterval(timer) : res.write(' ')),
          50,
        );
      },
      { requestTimeoutMs: 300 },
    );
    const error = await client.scans.create('compliance').catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.equal(error.mayHaveBeenProcessed, true);
    assert.match(error.message, /^POST \/tenants\/me\/scans: no complete answer within 0\.3 s/);
    assert.equal(server.requests.length, 1);
  });

  it('the silence timeout is never longer than the request timeout', async () => {
    const { client } = await setup(() => undefined /* never answers */, {
      requestTimeoutMs: 300,
      retry: { ...FAST, maxAttempts: 1 },
    });
    const started = Date.now();
    const error = await client.tenants.me().catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.ok(Date.now() - started < 2_000, `took ${Date.now() - started} ms`);
    // The silence limit was cut to the request timeout: whichever of the two ends it first, the
    // error names the request timeout, the limit its setting moves.
    assert.equal(error.bound, 'request-timeout');
    assert.match(error.message, /^GET \/tenants\/me: .* 0\.3 s \(the request timeout\)\.$/);
  });

  it('a request timeout that is not a positive number is a ConfigError before any request', () => {
    for (const requestTimeoutMs of [0, -1, Number.NaN, Infinity]) {
      assert.throws(
        () => createClient({ apiKey: KEY, baseUrl: 'http://127.0.0.1:1/v1', requestTimeoutMs }),
        ConfigError,
      );
    }
  });
});

describe('pacer', () => {
  it('a 429 on one request holds back the others of the same client', async () => {
    let throttledAt = 0;
    const { server, client, events } = await setup((req, res, _s, i) => {
      if (i === 0) {
        throttledAt = Date.now();
        return fail(res, 429, 'RATE_LIMITED', { 'retry-after': '1' });
      }
      return ok(res, scan);
    });
    const first = client.scans.get('a');
    // The client has read the 429 once it schedules the retry (on a loaded machine that can take
    // longer than any fixed wait).
    for (const until = Date.now() + 5_000; events.length === 0 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(events.length, 1, 'the 429 was read');
    await Promise.all([first, client.scans.get('b'), client.tenants.me()]);
    const later = server.requests.slice(1);
    assert.equal(later.length, 3);
    for (const r of later)
      assert.ok(r.at - throttledAt >= 950, `${r.url} came ${r.at - throttledAt} ms after the 429`);
  });

  it('parallel calls throttled together retry together, not seconds apart', async () => {
    const calls = 6;
    const { server, client } = await setup((_req, res, _s, i) =>
      i < calls ? fail(res, 429, 'RATE_LIMITED', { 'retry-after': '1' }) : ok(res, scan),
    );
    await Promise.all(Array.from({ length: calls }, (_, n) => client.scans.get(`s${n}`)));
    const firstThrottle = server.requests[0]!.at;
    const retries = server.requests.slice(calls).map((r) => r.at - firstThrottle);
    assert.equal(retries.length, calls);
    // One burst widens the spacing once (50 ms): the last retry is ~1.3 s after the first 429.
    // Each 429 doubling it would space the retries up to 1.6 s apart (the last after ~8 s).
    assert.ok(Math.max(...retries) < 3_000, `retries came at ${retries.join(', ')} ms`);
  });
});

describe('abort', () => {
  it('aborting during a retry wait rejects at once with the abort reason', async () => {
    const { client } = await setup((_req, res) =>
      fail(res, 429, 'RATE_LIMITED', { 'retry-after': '30' }),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stop now')), 100);
    await assert.rejects(client.scans.get('s1', { signal: controller.signal }), /stop now/);
  });

  it('an already aborted signal sends nothing', async () => {
    const { server, client } = await setup((_req, res) => ok(res, scan));
    await assert.rejects(client.tenants.me({ signal: AbortSignal.abort() }));
    assert.equal(server.requests.length, 0);
  });
});

describe('report status', () => {
  it('a 302 is not followed with the key; its Location becomes the download address', async () => {
    const other = await startLocalServer((_req, res) => json(res, 200, {}));
    servers.push(other);
    const { client } = await setup((_req, res) => {
      res.writeHead(302, { location: `${other.origin}/download/t?sig=secret` });
      res.end();
    });
    const status = await client.reports.status('s1');
    assert.equal(status.state, 'ready');
    assert.equal(status.downloadUrl, `${other.origin}/download/t?sig=secret`);
    assert.equal(other.requests.length, 0);
  });

  it('reads the address from url/presignedUrl/href too, relative ones included', async () => {
    const bodies = [
      { status: 'READY', url: '/dl/a' },
      { status: 'ready', presignedUrl: 'https://x.test/b' },
      { status: 'Ready', href: 'https://x.test/c' },
    ];
    const { server, client } = await setup((_req, res, _s, i) => ok(res, bodies[i]));
    const got = [
      await client.reports.status('s'),
      await client.reports.status('s'),
      await client.reports.status('s'),
    ];
    assert.deepEqual(
      got.map((s) => [s.state, s.downloadUrl]),
      [
        ['ready', `${server.origin}/dl/a`],
        ['ready', 'https://x.test/b'],
        ['ready', 'https://x.test/c'],
      ],
    );
  });
});

describe('canary key', () => {
  it('never appears in any error, event or cause, whatever the server echoes', async () => {
    const echo: Handler = (req, res, _s, i) => {
      const auth = String(req.headers.authorization);
      const variants = [
        () =>
          json(
            res,
            401,
            { error: { code: 'UNAUTHORIZED', message: `bad ${auth}` } },
            { 'x-request-id': auth },
          ),
        () => json(res, 403, { code: auth, message: auth }),
        () => {
          res.writeHead(500, { 'content-type': 'text/plain' });
          res.end(`upstream said ${auth}`);
        },
        () => json(res, 429, { error: auth }, { 'retry-after': '0' }),
        () => req.socket.destroy(),
      ];
      variants[i % variants.length]!();
    };
    const { client, events } = await setup(echo, {
      retry: { ...FAST, maxAttempts: 1, maxBusyAttempts: 1 },
    });
    const seen: unknown[] = [];
    for (let i = 0; i < 5; i++)
      seen.push(await client.scans.create('compliance').catch((e: unknown) => e));
    assert.equal(seen.filter((e) => e instanceof Error).length, 5);
    for (const error of seen) {
      const e = error as Error & { cause?: Error };
      const everything = [
        e.message,
        e.stack,
        JSON.stringify(e),
        String(e.cause?.message),
        JSON.stringify(events),
      ].join('\n');
      assert.doesNotMatch(everything, /CANARY/, e.message);
    }
  });
});

describe('wait against a scripted server', () => {
  it('reports an unknown status once, keeps polling, and ends on a known terminal word', async () => {
    const words = ['queued', 'Reticulating', 'Reticulating', 'RETICULATING', 'Done'];
    const { client } = await setup((_req, res, _s, i) =>
      ok(res, { id: 's1', status: words[Math.min(i, 4)], progress: i * 25 }),
    );
    const unknown: string[] = [];
    const seen: string[] = [];
    for await (const snap of client.scans.wait('s1', {
      minIntervalMs: 5,
      maxIntervalMs: 20,
      onUnknownStatus: (w) => unknown.push(w),
    })) {
      seen.push(snap.status);
    }
    assert.deepEqual(unknown, ['Reticulating']);
    assert.equal(seen.at(-1), 'Done');
    assert.ok(seen.includes('RETICULATING'));
  });

  it('an initial snapshot is yielded first instead of an immediate poll', async () => {
    const { server, client } = await setup((_req, res) =>
      ok(res, { id: 's1', status: 'completed', progress: 100 }),
    );
    const initial = toScan({ id: 's1', status: 'queued', progress: 0 });
    const seen: string[] = [];
    for await (const snap of client.scans.wait('s1', {
      initial,
      minIntervalMs: 5,
      maxIntervalMs: 20,
    })) {
      seen.push(snap.status);
      if (seen.length === 1) assert.equal(server.requests.length, 0);
    }
    assert.deepEqual(seen, ['queued', 'completed']);
    assert.equal(server.requests.length, 1);
  });

  it('several waiters on one scan never have two requests for it in flight', async () => {
    let inFlight = 0;
    let maxInFlight = 0;
    let polls = 0;
    const { client } = await setup((_req, res) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      polls++;
      setTimeout(() => {
        inFlight--;
        ok(res, {
          id: 's1',
          status: polls > 12 ? 'completed' : 'running',
          progress: Math.min(100, polls * 8),
        });
      }, 30);
    });
    const follow = async () => {
      let last = '';
      for await (const snap of client.scans.wait('s1', { minIntervalMs: 5, maxIntervalMs: 10 }))
        last = snap.phase;
      return last;
    };
    assert.deepEqual(await Promise.all([follow(), follow(), follow()]), [
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    assert.equal(maxInFlight, 1);
  });
});

describe('wait abort', () => {
  it('when the last waiter leaves, its poll is aborted; a later wait starts afresh', async () => {
    let closedEarly = false;
    const { client } = await setup((req, res, _s, i) => {
      if (i > 0) return ok(res, { id: 's1', status: 'completed', progress: 100 });
      res.on('close', () => (closedEarly ||= !res.writableEnded));
      setTimeout(() => !res.destroyed && ok(res, { id: 's1', status: 'running' }), 2_000);
    });
    const controller = new AbortController();
    const first = (async () => {
      for await (const _ of client.scans.wait('s1', { signal: controller.signal })) void _;
    })();
    setTimeout(() => controller.abort(new Error('left')), 100);
    await assert.rejects(first, /left/);
    const phases: string[] = [];
    for await (const snap of client.scans.wait('s1')) phases.push(snap.phase);
    assert.deepEqual(phases, ['succeeded']);
    for (let i = 0; i < 100 && !closedEarly; i++) await new Promise((r) => setTimeout(r, 10));
    assert.equal(closedEarly, true);
  });
});

describe('download against scripted origins', () => {
  const body = Buffer.alloc(256 * 1024, 7);

  async function origins(download: Handler) {
    const presigned = await startLocalServer(download);
    servers.push(presigned);
    const api = await setup((_req, res) =>
      ok(res, { status: 'ready', downloadUrl: `${presigned.origin}/obj?sig=abc` }),
    );
    return { presigned, ...api };
  }

  const tempDirs: string[] = [];
  after(async () => {
    const { rm } = await import('node:fs/promises');
    await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
  });

  async function tempDir() {
    const { mkdtemp } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'client-wire-dl-'));
    tempDirs.push(dir);
    return dir;
  }

  it('sends no Authorization or API header to the presigned origin, also across its redirects', async () => {
    const { presigned, client } = await origins((req, res) => {
      if (req.url?.startsWith('/obj')) {
        res.writeHead(307, { location: '/final?sig=def' });
        return res.end();
      }
      res.writeHead(200, { 'content-type': 'application/pdf', 'content-length': body.length });
      res.end(body);
    });
    const dir = await tempDir();
    const { createHash } = await import('node:crypto');
    const { readdir } = await import('node:fs/promises');
    const result = await client.reports.download('s1', `${dir}/r.pdf`);
    assert.equal(result.sha256, createHash('sha256').update(body).digest('hex'));
    assert.equal(result.bytes, body.length);
    assert.equal(result.contentType, 'application/pdf');
    assert.equal(presigned.requests.length, 2);
    for (const r of presigned.requests) {
      assert.equal(r.headers.authorization, undefined);
      assert.equal(r.headers['content-type'], undefined);
      assert.doesNotMatch(JSON.stringify(r.headers), /CANARY/);
    }
    assert.deepEqual(await readdir(dir), ['r.pdf']);
  });

  it('a body shorter than its Content-Length fails and leaves no file', async () => {
    const { client } = await origins((_req, res) => {
      res.writeHead(200, { 'content-length': body.length * 2 });
      res.write(body);
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const dir = await tempDir();
    const { readdir } = await import('node:fs/promises');
    await assert.rejects(client.reports.download('s1', `${dir}/r.pdf`), NetworkError);
    assert.deepEqual(await readdir(dir), []);
  });

  it('abort mid-stream removes the partial temp file beside the target', async () => {
    const { client } = await origins((_req, res) => {
      res.writeHead(200, { 'content-length': body.length * 4 });
      res.write(body); // then hangs
    });
    const dir = await tempDir();
    const { readdir } = await import('node:fs/promises');
    const controller = new AbortController();
    const pending = client.reports.download('s1', `${dir}/r.pdf`, { signal: controller.signal });
    let partial: string[] = [];
    for (let i = 0; i < 500 && partial.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 10));
      partial = await readdir(dir);
    }
    assert.equal(partial.length, 1);
    assert.match(partial[0]!, /^\.r\.pdf\..+\.part$/);
    controller.abort(new Error('runner cancelled'));
    await assert.rejects(pending, /runner cancelled/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('a report over the 2 GiB cap is refused from its Content-Length, before it is read; no file', async () => {
    let sent = 0;
    const { client } = await origins((_req, res) => {
      res.writeHead(200, { 'content-length': String(3 * 1024 ** 3) });
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(body);
        sent += body.length;
      }, 20);
    });
    const dir = await tempDir();
    const { readdir } = await import('node:fs/promises');
    const error = await client.reports.download('s1', `${dir}/r.pdf`).catch((e: unknown) => e);
    assert.ok(error instanceof DownloadError, String(error));
    assert.equal(error.code, 'REPORT_TOO_LARGE');
    assert.match(error.message, /larger than the 2 GiB cap; it was not downloaded/);
    assert.ok(sent <= body.length * 2, `the body was read on (${sent} bytes)`);
    assert.deepEqual(await readdir(dir), []);
  });

  it('a report that trickles past the request timeout fails naming the limit; tried twice; no file', async () => {
    const slow = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(body.length) });
      const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write('x')), 40);
    });
    servers.push(slow);
    const { client } = await setup(
      (_req, res) => ok(res, { status: 'ready', downloadUrl: `${slow.origin}/obj?sig=abc` }),
      { requestTimeoutMs: 400 },
    );
    const dir = await tempDir();
    const { readdir } = await import('node:fs/promises');
    const error = await client.reports.download('s1', `${dir}/r.pdf`).catch((e: unknown) => e);
    assert.ok(error instanceof TimeoutError, String(error));
    assert.equal(error.code, 'REQUEST_TIMEOUT');
    assert.match(
      error.message,
      /^Report download from http:\/\/127\.0\.0\.1:\d+\/obj: no complete answer within 0\.4 s/,
    );
    assert.equal(slow.requests.length, 2);
    assert.deepEqual(await readdir(dir), []);
  });

  it('an existing target is replaced only when the new file is complete', async () => {
    const { client } = await origins((_req, res) => {
      res.writeHead(200, { 'content-length': body.length });
      res.end(body);
    });
    const dir = await tempDir();
    const { readFile, writeFile } = await import('node:fs/promises');
    await writeFile(`${dir}/r.pdf`, 'old');
    await client.reports.download('s1', `${dir}/r.pdf`);
    assert.equal((await readFile(`${dir}/r.pdf`)).length, body.length);
  });
});
