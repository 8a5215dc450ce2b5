// What decides a verdict is read whole or not at all: results and the scan list that are not lists
// of records, pages that never end or loop, a result without a result word are errors naming the
// route. The client's own key never comes back in data, in any form (its secret part alone,
// escaped, encoded, case-folded, split by a control), ids cannot climb the route, and a report
// address on the runner's own network is refused unless the API is there too.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  ServerError,
  ValidationError,
  createClient,
  type TenantClient,
} from '../../src/client/index.js';
import {
  LocalAddressError,
  guardedLookup,
  isLocalAddress,
  isLocalHostname,
} from '../../src/client/network.js';
import { redact, sanitizeServerText } from '../../src/client/redact.js';
import { ok, startLocalServer, type Handler, type LocalServer } from './local-server.js';
import { containsSecret } from '../helpers/secret-scan.js';

const KEY = 'ak_live_CANARYclosed0123456789';
const servers: LocalServer[] = [];
const clients: TenantClient[] = [];

after(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
});

async function setup(handler: Handler) {
  const server = await startLocalServer(handler);
  servers.push(server);
  const client = createClient({
    apiKey: KEY,
    baseUrl: `${server.origin}/api/v1`,
    env: {},
    retry: { baseDelayMs: 5, maxDelayMs: 20, maxAttempts: 1 },
  });
  clients.push(client);
  return { server, client };
}

const failed = (i: number) => ({ id: `f${i}`, checkId: `C-${i}`, result: 'Failed' });

async function resultsError(data: unknown, meta?: unknown): Promise<ServerError> {
  const { client } = await setup((_req, res) => ok(res, data, meta));
  const error = await client.scans.results('s1', { result: 'Failed' }).catch((e: unknown) => e);
  assert.ok(error instanceof ServerError, String(error));
  return error;
}

describe('results are a list of results, read whole, or an error', () => {
  it('an answer that is a string, null or an object without a list', async () => {
    const cases: Array<[unknown, string]> = [
      ['ok', 'data is a string'],
      [null, 'data is null'],
      [{ count: 3 }, 'data is an object without a list'],
      [7, 'data is a number'],
    ];
    for (const [data, words] of cases) {
      const error = await resultsError(data);
      assert.equal(error.code, 'INVALID_RESPONSE');
      assert.equal(
        error.message,
        `GET /scans/s1/results: page 1 is not a list of results (${words}).`,
      );
    }
  });

  it('items that are not records, or records without a result word', async () => {
    const notRecord = await resultsError([failed(1), 'x']);
    assert.match(notRecord.message, /item 2 of page 1 is not one of the results: it is a string/);
    const noWord = await resultsError([failed(1), { id: 'f2', title: 'no result' }]);
    assert.match(
      noWord.message,
      /item 2 of page 1 is not one of the results: it has no result word/,
    );
  });

  it('a list under a usual name is still read (tolerance where it is whole)', async () => {
    const { client } = await setup((_req, res) => ok(res, { items: [failed(1), failed(2)] }));
    assert.equal((await client.scans.results('s1')).length, 2);
  });

  it('a cursor that never ends stops at the page cap with an error, never a short list', async () => {
    const { client, server } = await setup((req, res) => {
      const cursor = Number(new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? 0);
      ok(res, cursor === 0 ? [failed(0)] : [], { nextCursor: cursor + 1 });
    });
    const error = await client.scans.results('s1').catch((e: unknown) => e);
    assert.ok(error instanceof ServerError);
    assert.equal(error.code, 'PAGE_LIMIT');
    assert.match(
      error.message,
      /^GET \/scans\/s1\/results: more pages followed after 5000; stopped/,
    );
    assert.equal(server.requests.length, 5000);
  });

  it('a cursor that goes back or repeats is a loop', async () => {
    const error = await (async () => {
      const { client } = await setup((req, res) => {
        const cursor = new URL(req.url ?? '', 'http://x').searchParams.get('cursor');
        ok(res, [failed(Number(cursor ?? 0))], { nextCursor: cursor === '5' ? 2 : 5 });
      });
      return client.scans.results('s1').catch((e: unknown) => e);
    })();
    assert.ok(error instanceof ServerError);
    assert.equal(error.code, 'PAGINATION_LOOP');
  });

  it('pages whose answers pass maxBytes together stop the read: an error naming the cap, no page more', async () => {
    const bulky = (i: number) => ({ ...failed(i), description: 'x'.repeat(10_000) });
    const { client, server } = await setup((req, res) => {
      const cursor = Number(new URL(req.url ?? '', 'http://x').searchParams.get('cursor') ?? 0);
      ok(res, [bulky(cursor), bulky(cursor + 1)], { nextCursor: cursor + 2 });
    });
    const error = await client.scans.results('s1', { maxBytes: 100_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof ServerError, String(error));
    assert.equal(error.code, 'LIST_BYTES_LIMIT');
    assert.equal(
      error.message,
      "GET /scans/s1/results: the pages' answers passed 97.7 KiB in all; stopped, the list was not read whole.",
    );
    // Five pages of ~20 KB fit; the sixth is cut off mid-answer and nothing follows it.
    assert.equal(server.requests.length, 5);
  });

  it('each item is kept as it streams in: only what keep returns stays, in order', async () => {
    const items = Array.from({ length: 40 }, (_, i) => ({
      ...failed(i),
      result: i % 2 ? 'Failed' : 'Passed',
    }));
    const { client } = await setup((_req, res) => ok(res, { results: items }));
    const kept = await client.scans.results('s1', {
      result: 'Failed',
      keep: (finding) => (finding.id === 'f3' ? undefined : String(finding.id)),
    });
    assert.deepEqual(
      kept,
      items.filter((_, i) => i % 2 && i !== 3).map((f) => f.id),
      'the filter the server ignored, then keep',
    );
  });

  it('the scan list is strict too', async () => {
    const { client } = await setup((_req, res) => ok(res, 'none'));
    await assert.rejects(
      client.scans.list(),
      /GET \/tenants\/me\/scans: the answer is not a list of scans \(data is a string\)/,
    );
  });
});

describe('the client never hands its own key back', () => {
  it('in strings, names and \\u-escaped forms of any answer', async () => {
    const escaped = JSON.stringify(`see ${KEY}`).replace('CANARY', '\\u0043ANARY');
    const { client } = await setup((req, res) => {
      if (req.url?.includes('/results')) {
        const body = `{"success":true,"data":[{"id":"f1","result":"Failed","title":${escaped},"${KEY}":1,"nested":{"list":["${KEY}"]}}]}`;
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(body);
      }
      ok(res, { name: `Org ${KEY}`, other: 'ak_live_another_key' });
    });
    const [finding] = await client.scans.results('s1');
    assert.doesNotMatch(JSON.stringify(finding), /CANARY/);
    assert.equal(finding?.title, 'see [redacted]');
    assert.deepEqual(finding?.nested, { list: ['[redacted]'] });
    assert.equal(finding?.['[redacted]'], 1);
    const me = await client.tenants.me();
    assert.equal(me.name, 'Org [redacted]');
    // Another key (a created one, say) is data, not the client's secret.
    assert.equal(me.other, 'ak_live_another_key');
  });

  it('in any form: the secret part alone, escaped, encoded, case-folded, split by a control or an invisible, base64, hex', async () => {
    const part = KEY.slice('ak_live_'.length);
    const middle = Math.floor(KEY.length / 2);
    const forms = [
      part,
      KEY.replace(/_/g, '\\_'),
      [...KEY].map((c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`).join(''),
      encodeURIComponent(KEY).replace(/_/g, '%5f'),
      KEY.toUpperCase(),
      part.toLowerCase(),
      `${KEY.slice(0, middle)}\u200b${KEY.slice(middle)}`,
      `${KEY.slice(0, middle)}\u001b[0m${KEY.slice(middle)}`,
      // Issue 46's audit: split by code points the old list of forms did not know, and base64.
      `${KEY.slice(0, middle)}\u00ad${KEY.slice(middle)}`,
      `${KEY.slice(0, middle)}\u034f${KEY.slice(middle)}`,
      `${KEY.slice(0, middle)}\u{e0020}${KEY.slice(middle)}`,
      Buffer.from(`key: ${KEY}`).toString('base64'),
      Buffer.from(KEY).toString('base64url'),
      Buffer.from(KEY).toString('hex'),
    ];
    for (const [index, form] of forms.entries()) {
      // Each form alone in an answer: without a control anywhere in it the whole text is looked
      // at once, so each must be found that way too.
      const { client } = await setup((_req, res) =>
        ok(res, [
          { id: 'f1', result: 'Failed', title: `see ${form} and \u001b[31mred`, n: 'kept' },
        ]),
      );
      const [finding] = await client.scans.results('s1');
      const title = String(finding?.title);
      // Only the key's span is replaced (the whole quads of an encoded run that carry a bit of
      // it): the rest of the string is kept as sent (its escape sequence is stripped where it is
      // shown, as in any other string).
      const what = `form ${index}: ${JSON.stringify(form)} became ${JSON.stringify(title)}`;
      assert.ok(title.startsWith('see ') && title.endsWith(' and \u001b[31mred'), what);
      assert.match(title, /^see \S*\[redacted\]\S* and /, what);
      assert.ok(!containsSecret(title, KEY), what);
      assert.equal(finding?.n, 'kept');
      const plain = await setup((_req, res) => ok(res, [{ id: 'f1', result: 'Failed', t: form }]));
      const [only] = await plain.client.scans.results('s1');
      assert.match(String(only?.t), /\[redacted\]/, `form ${index} in a text without controls`);
      assert.ok(!containsSecret(String(only?.t), KEY), `form ${index} in a text without controls`);
    }
  });

  it('keeps every string without the key exactly, control characters and all', async () => {
    const hostile = '\u001b]0;title\u0007 MFA \u200b off';
    const { client } = await setup((_req, res) =>
      ok(res, [{ id: 'f1', result: 'Failed', title: hostile, other: `x ${KEY}` }]),
    );
    const [finding] = await client.scans.results('s1');
    assert.equal(finding?.title, hostile);
    assert.equal(finding?.other, 'x [redacted]');
  });

  it('in JSON that spells the key with \\u escapes only (ensure_ascii services)', async () => {
    const spelled = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const { client } = await setup((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`{"success":true,"data":{"name":"Org ${spelled.join('')} caf\\u00e9"}}`);
    });
    assert.equal((await client.tenants.me()).name, 'Org [redacted] café');
  });
});

describe('redact: the key in any form, in messages', () => {
  it('redacts every form, before a long message is cut', () => {
    const part = KEY.slice('ak_live_'.length);
    assert.equal(redact(`a ${part.toUpperCase()} b`, KEY), 'a [redacted] b');
    assert.equal(redact(`ak\\_live\\_${part}`, KEY), '[redacted]');
    const long = `${'x'.repeat(290)} ${part}`;
    const shown = sanitizeServerText(long, [KEY]);
    assert.doesNotMatch(shown, new RegExp(part.slice(0, 6)), 'no part of it survives the cut');
    assert.equal(
      redact('ak_live_ab ab ab', 'ak_live_ab'),
      '[redacted] ab ab',
      'short: whole key only',
    );
  });
});

describe('ids stay one route segment', () => {
  it('. and .. are refused before any request', async () => {
    const { client, server } = await setup((_req, res) => ok(res, {}));
    for (const id of ['.', '..']) {
      await assert.rejects(client.scans.get(id), ValidationError);
      await assert.rejects(client.scans.cancel(id), ValidationError);
    }
    assert.equal(server.requests.length, 0);
  });
});

describe('which network an address is on', () => {
  it('classifies literals: loopback, private, link-local, unique-local, CGNAT, mapped, reserved', () => {
    for (const local of [
      '127.0.0.1',
      '10.0.0.1',
      '172.16.5.4',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '::1',
      '[::1]',
      'fe80::1',
      'fd00::1',
      '::ffff:127.0.0.1',
      '::ffff:7f00:1',
      // Found by test/client/report-address.property.test.ts: the IPv4-compatible form.
      '::127.0.0.1',
      '[::a9fe:a9fe]',
    ]) {
      assert.equal(isLocalAddress(local), true, local);
    }
    for (const remote of ['8.8.8.8', '2606:4700::1111', '::8.8.8.8', 'reports.example.com']) {
      assert.equal(isLocalAddress(remote), false, remote);
    }
    assert.equal(isLocalHostname('localhost'), true);
    assert.equal(isLocalHostname('x.localhost'), true);
    assert.equal(isLocalHostname('localhost.'), true, 'the fully qualified name is the same name');
    assert.equal(isLocalHostname('x.localhost.'), true);
    assert.equal(isLocalHostname('example.com'), false);
  });

  it('a name that resolves to a local address is refused at connect time unless allowed', async () => {
    const lookup = (allow: boolean) =>
      new Promise<unknown>((resolve) =>
        guardedLookup(() => Promise.resolve(allow))('localhost', { all: true }, (error, value) =>
          resolve(error ?? value),
        ),
      );
    const refused = await lookup(false);
    assert.ok(refused instanceof LocalAddressError);
    assert.match(refused.message, /^localhost resolves to (127\.0\.0\.1|::1), a loopback/);
    const allowed = await lookup(true);
    assert.ok(Array.isArray(allowed) && allowed.length > 0);
  });
});
