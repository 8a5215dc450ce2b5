// The webhook delivery against a stand-in on 127.0.0.1: sent once, 429 honoured with its
// Retry-After, a 500 not repeated, silence cut at the timeout, no redirect followed, the budget
// kept, and no word of the outcome holding the address.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, beforeEach, describe, it } from 'node:test';
import { deliver } from '../../src/pipeline/notify/deliver.js';
import { containsSecret } from '../helpers/secret-scan.js';
import { startWebhookStandin, type WebhookStandin } from '../helpers/webhook-standin.js';

const SLACK_OK = JSON.stringify({ text: 'hi', blocks: [{ type: 'divider' }] });

function assertHidden(text: string, hook: WebhookStandin): void {
  for (const secret of hook.secrets) assert.ok(!text.includes(secret), `${text} shows ${secret}`);
}

describe('notify: delivery to a webhook', () => {
  let hook: WebhookStandin;
  before(async () => {
    hook = await startWebhookStandin('slack');
  });
  after(() => hook.close());
  beforeEach(() => hook.reset());

  it('sends once, as JSON, and says so', async () => {
    assert.deepEqual(await deliver(hook.url, SLACK_OK), { sent: true, tries: 1 });
    assert.equal(hook.received.length, 1);
    assert.deepEqual(hook.received[0]?.problems, []);
  });

  it('a 429 is tried again after its Retry-After; at most three tries', async () => {
    hook.answerNext({ status: 429, headers: { 'retry-after': '1' }, body: 'rate_limited' });
    const started = Date.now();
    assert.deepEqual(await deliver(hook.url, SLACK_OK), { sent: true, tries: 2 });
    const [first, second] = hook.requests;
    assert.ok((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0) >= 950, 'waited Retry-After');
    assert.ok(Date.now() - started < 5000);
    hook.reset();
    const limited = { status: 429, headers: { 'retry-after': '0.2' } };
    hook.answerNext(limited, limited, limited, limited);
    const outcome = await deliver(hook.url, SLACK_OK);
    assert.deepEqual(outcome, { sent: false, why: 'the webhook answered HTTP 429 (3 tries)' });
    assert.equal(hook.requests.length, 3);
  });

  it('a Retry-After beyond the budget is not waited for', async () => {
    hook.answerNext({ status: 429, headers: { 'retry-after': '3600' } });
    const started = Date.now();
    const outcome = await deliver(hook.url, SLACK_OK, { budgetMs: 5000 });
    assert.equal(outcome.sent, false);
    assert.ok(Date.now() - started < 1000);
    assert.equal(hook.requests.length, 1);
  });

  it('a 500 is one failure, not repeated (the message may have been posted)', async () => {
    hook.answerNext({ status: 500, body: `oops at ${hook.url}` });
    const outcome = await deliver(hook.url, SLACK_OK);
    assert.equal(outcome.sent, false);
    assert.match(outcome.sent ? '' : outcome.why, /^the webhook answered HTTP 500: oops at /);
    assertHidden(JSON.stringify(outcome), hook);
    assert.equal(hook.requests.length, 1);
  });

  it('its signature echoed in the error body, upper-cased, decoded or encoded, is not in its words', async () => {
    const signature = hook.secrets.at(-1) ?? '';
    const echoes = [
      `signature ${signature.toUpperCase()} does not match`,
      `bad sig=${encodeURIComponent(encodeURIComponent(signature))}`,
      `sig (b64): ${Buffer.from(`sig=${signature}`).toString('base64')}`,
      `sig\u00ad: ${signature.slice(0, 8)}\u00ad${signature.slice(8)}`,
      `reversed ${[...signature].reverse().join('')}`,
    ];
    for (const body of echoes) {
      hook.answerNext({ status: 401, body });
      const outcome = await deliver(hook.url, SLACK_OK);
      const why = outcome.sent ? '' : outcome.why;
      assert.match(why, /^the webhook answered HTTP 401: .*\[webhook\]/, body);
      for (const secret of hook.secrets)
        assert.ok(!containsSecret(why, secret), `${why}: ${secret}`);
    }
  });

  it('a webhook that never answers is cut at the timeout', async () => {
    hook.answerNext('hang');
    const started = Date.now();
    const outcome = await deliver(hook.url, SLACK_OK, { timeoutMs: 700 });
    const took = Date.now() - started;
    assert.deepEqual(outcome, { sent: false, why: 'no answer within 0.7 s' });
    // undici's timers tick coarsely: the cut comes near the timeout, never much after it.
    assert.ok(took >= 300 && took < 3000, `${took} ms`);
    assert.equal(hook.requests.length, 1);
  });

  it('a redirect is not followed: the address goes to its own origin only', async () => {
    const other: string[] = [];
    const elsewhere = createServer((request, response) => {
      other.push(request.url ?? '');
      response.end('ok');
    });
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    const port = (elsewhere.address() as AddressInfo).port;
    hook.answerNext({ status: 307, headers: { location: `http://127.0.0.1:${port}/steal` } });
    const outcome = await deliver(hook.url, SLACK_OK);
    elsewhere.close();
    assert.deepEqual(outcome, {
      sent: false,
      why: 'the webhook answered with a redirect (HTTP 307), not followed',
    });
    assert.deepEqual(other, []);
  });

  it('a refused connection is tried again; its words hide the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const address = `http://127.0.0.1:${port}/hook/abcdef0123456789?sig=0123456789abcdef`;
    const outcome = await deliver(address, SLACK_OK, { budgetMs: 10_000 });
    assert.equal(outcome.sent, false);
    assert.match(outcome.sent ? '' : outcome.why, /ECONNREFUSED.*\(3 tries\)$/);
    assert.ok(!JSON.stringify(outcome).includes('abcdef0123456789'));
  });
});
