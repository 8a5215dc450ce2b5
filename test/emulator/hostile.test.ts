// The faults of a broken gateway or a compromised endpoint (endless-body, huge-body, trickle,
// no-answer) and the hostileText variant, over real HTTP: what the wire carries, and that the
// handler ran first (a POST did act).
import { after, before, beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request, type IncomingMessage } from 'node:http';
import { startEmulator } from './emulator.js';
import { HOSTILE_TEXT } from './findings.js';
import { call, finishedScan } from './test-http.js';
import type { Emulator } from './types.js';

interface Observed {
  status?: number;
  headers?: IncomingMessage['headers'];
  body: Buffer;
  /** When each piece arrived, ms after the request was sent. */
  arrivals: number[];
  ended: boolean;
}

/** A request that reads for at most `forMs`, then lets go (an endless answer never ends). */
function observe(
  url: string,
  options: { method?: string; key?: string; body?: string; forMs: number; maxBytes?: number },
): Promise<Observed> {
  const started = Date.now();
  const seen: Observed = { body: Buffer.alloc(0), arrivals: [], ended: false };
  const chunks: Buffer[] = [];
  return new Promise((resolve) => {
    const headers: Record<string, string> = options.key
      ? { authorization: `Bearer ${options.key}`, 'content-type': 'application/json' }
      : {};
    const req = request(url, { method: options.method ?? 'GET', headers }, (res) => {
      seen.status = res.statusCode;
      seen.headers = res.headers;
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        seen.arrivals.push(Date.now() - started);
        size += chunk.length;
        chunks.push(chunk);
        if (size >= (options.maxBytes ?? Infinity)) done();
      });
      res.on('end', () => {
        seen.ended = true;
        done();
      });
    });
    const timer = setTimeout(() => done(), options.forMs);
    let finished = false;
    function done(): void {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      req.destroy();
      seen.body = Buffer.concat(chunks);
      resolve(seen);
    }
    req.on('error', () => done());
    req.end(options.body);
  });
}

describe('emulator: hostile answers', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 9, clockSpeed: 50 });
  });
  after(() => emu.close());
  beforeEach(() => {
    emu.clearFaults();
    emu.setVariant({});
  });

  const me = () => `${emu.url}/tenants/me`;

  it('endless-body: a 200 JSON envelope that keeps streaming, without a length', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'endless-body' } });
    const seen = await observe(me(), { key: emu.apiKey, forMs: 2_000, maxBytes: 8 << 20 });
    assert.equal(seen.status, 200);
    assert.equal(seen.headers?.['content-type'], 'application/json');
    assert.equal(seen.headers?.['content-length'], undefined);
    assert.ok(seen.body.toString().startsWith('{"success":true,"data":{"name":"aaaa'));
    assert.equal(seen.ended, false);
    assert.ok(seen.body.length >= 8 << 20, `only ${seen.body.length} bytes in 2 s`);
  });

  it('endless-body stops writing once the client has gone (no buffering without end)', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'endless-body' }, times: Infinity });
    await observe(me(), { key: emu.apiKey, forMs: 2_000, maxBytes: 1 << 20 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const before = process.memoryUsage().rss;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const grown = process.memoryUsage().rss - before;
    assert.ok(grown < 50 * 2 ** 20, `the emulator grew by ${Math.round(grown / 2 ** 20)} MiB`);
  });

  it('huge-body: exactly that many bytes, chunked or declared, and valid JSON', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'huge-body', bytes: 300_000 } });
    const chunked = await observe(me(), { key: emu.apiKey, forMs: 5_000 });
    assert.equal(chunked.body.length, 300_000);
    assert.equal(chunked.headers?.['content-length'], undefined);
    assert.equal(
      (JSON.parse(chunked.body.toString()) as { data: { name: string } }).data.name.length,
      300_000 - '{"success":true,"data":{"name":""}}'.length,
    );
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'huge-body', bytes: 300_000, declared: true },
    });
    const declared = await observe(me(), { key: emu.apiKey, forMs: 5_000 });
    assert.equal(declared.headers?.['content-length'], '300000');
    assert.equal(declared.body.length, 300_000);
    assert.ok(declared.ended);
  });

  it('trickle: one byte per interval, never ending, never silent for long', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'trickle', intervalMs: 50 } });
    const seen = await observe(me(), { key: emu.apiKey, forMs: 800 });
    assert.equal(seen.status, 200);
    assert.equal(seen.ended, false);
    assert.ok(seen.body.length >= 8 && seen.body.length <= 20, `${seen.body.length} bytes`);
    const gaps = seen.arrivals.slice(1).map((at, i) => at - seen.arrivals[i]!);
    assert.ok(Math.max(...gaps) < 300, `a gap of ${Math.max(...gaps)} ms`);
  });

  it('no-answer: not even the headers, after the handler ran (the trigger did start a scan)', async () => {
    emu.addFault({ route: 'POST /tenants/me/scans', fault: { kind: 'no-answer' } });
    const before = emu.scans().length;
    const seen = await observe(`${emu.url}/tenants/me/scans`, {
      method: 'POST',
      key: emu.apiKey,
      body: JSON.stringify({ scanType: 'compliance' }),
      forMs: 600,
    });
    assert.equal(seen.status, undefined);
    assert.equal(emu.scans().length, before + 1);
  });

  it('the download origin: endless and declared huge reports', async () => {
    const scanId = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${scanId}/report/generate`);
    emu.advance(60_000);
    const address = (await call(emu, 'GET', `/scans/${scanId}/report`)).body.data
      .downloadUrl as string;
    emu.addFault({ route: 'GET /download/:token', fault: { kind: 'endless-body' } });
    const endless = await observe(address, { forMs: 10_000, maxBytes: 4 << 20 });
    assert.equal(endless.headers?.['content-type'], 'application/pdf');
    assert.ok(endless.body.toString('latin1').startsWith('%PDF-1.7'));
    assert.ok(endless.body.length >= 4 << 20);
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'huge-body', bytes: 3 * 1024 ** 3, declared: true },
    });
    const huge = await observe(address, { forMs: 10_000, maxBytes: 1 << 20 });
    assert.equal(huge.headers?.['content-length'], String(3 * 1024 ** 3));
  });

  it('hostileText: escape sequences in finding titles and categories and in the tenant name', async () => {
    emu.setVariant({ hostileText: true });
    const profile = await call(emu, 'GET', '/tenants/me');
    assert.ok((profile.body.data.name as string).includes(HOSTILE_TEXT.before));
    const scanId = await finishedScan(emu);
    const results = await call(emu, 'GET', `/scans/${scanId}/results?result=Failed`);
    const findings = results.body.data as Array<{ title: string; category: string }>;
    assert.ok(findings.length > 0);
    for (const finding of findings) {
      assert.ok(finding.title.startsWith(HOSTILE_TEXT.before));
      assert.ok(finding.category.endsWith(HOSTILE_TEXT.after));
    }
  });
});
