import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { get } from 'node:http';
import { createHash } from 'node:crypto';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, finishedScan } from './test-http.js';

describe('emulator: presigned report download', () => {
  let emu: Emulator;
  let scanId = '';
  before(async () => {
    emu = await startEmulator({ seed: 13, reportSizeBytes: 1_000_003, downloadTtlMs: 60_000 });
    scanId = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${scanId}/report/generate`);
    emu.advance(10_000);
  });
  after(() => emu.close());

  const downloadUrl = async () =>
    (await call(emu, 'GET', `/scans/${scanId}/report`)).body.data.downloadUrl as string;

  it('the download is served by a second origin, not the API origin', async () => {
    const url = new URL(await downloadUrl());
    assert.equal(url.origin, emu.downloadOrigin);
    assert.notEqual(url.origin, new URL(emu.url).origin);
    assert.ok(url.searchParams.get('signature'));
    assert.ok(url.searchParams.get('expires'));
  });

  it('it streams deterministic PDF bytes with Content-Length, matching reportDigest', async () => {
    const response = await fetch(await downloadUrl());
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'application/pdf');
    assert.equal(response.headers.get('content-length'), '1000003');
    const bytes = Buffer.from(await response.arrayBuffer());
    assert.equal(bytes.length, 1_000_003);
    assert.equal(bytes.subarray(0, 8).toString('latin1'), '%PDF-1.7');
    const expected = emu.reportDigest(scanId);
    assert.deepEqual(
      { sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length },
      expected,
    );
  });

  it('a request carrying an Authorization header gets 403', async () => {
    const response = await fetch(await downloadUrl(), {
      headers: { authorization: `Bearer ${emu.apiKey}` },
    });
    assert.equal(response.status, 403);
    assert.match(await response.text(), /Authorization/);
  });

  it('a tampered signature gets 403', async () => {
    const url = new URL(await downloadUrl());
    url.searchParams.set('signature', '0'.repeat(64));
    assert.equal((await fetch(url)).status, 403);
    url.searchParams.delete('signature');
    assert.equal((await fetch(url)).status, 403);
  });

  it('an extended expiry breaks the signature (403)', async () => {
    const url = new URL(await downloadUrl());
    url.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3_600_000));
    assert.equal((await fetch(url)).status, 403);
  });

  it('an expired address gets 403; a fresh one from the API works', async () => {
    const short = await startEmulator({ downloadTtlMs: 1, reportSizeBytes: 1000 });
    try {
      const id = await finishedScan(short);
      await call(short, 'POST', `/scans/${id}/report/generate`);
      short.advance(10_000);
      const url = (await call(short, 'GET', `/scans/${id}/report`)).body.data.downloadUrl;
      await new Promise((resolve) => setTimeout(resolve, 20));
      const expired = await fetch(url);
      assert.equal(expired.status, 403);
      assert.match(await expired.text(), /expired/);
    } finally {
      await short.close();
    }
  });

  it('the request log proves the API key never reached the download origin', async () => {
    emu.clearRequests();
    const response = await fetch(await downloadUrl());
    await response.arrayBuffer();
    const downloads = emu.requests().filter((r) => r.origin === 'download');
    assert.equal(downloads.length, 1);
    assert.equal(downloads[0]!.status, 200);
    assert.equal(downloads[0]!.headers.authorization, undefined);
    assert.ok(!JSON.stringify(downloads).includes(emu.apiKey));
  });

  it('a signature is bound to its scan (403); a deleted report or unknown path gets 404', async () => {
    const other = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${other}/report/generate`);
    emu.advance(10_000);
    const url = new URL(await downloadUrl());
    url.pathname = `/download/${other}`;
    assert.equal((await fetch(url)).status, 403);
    const otherUrl = (await call(emu, 'GET', `/scans/${other}/report`)).body.data.downloadUrl;
    await call(emu, 'DELETE', `/scans/${other}`);
    assert.equal((await fetch(otherUrl)).status, 404);
    assert.equal((await fetch(`${emu.downloadOrigin}/nothing`)).status, 404);
  });

  it('download faults: truncate ends the body early, reset-before drops the connection', async () => {
    emu.addFault({ route: 'GET /download/:token', fault: { kind: 'truncate' } });
    const truncated = await fetch(await downloadUrl());
    assert.equal(truncated.status, 200);
    await assert.rejects(truncated.arrayBuffer());
    emu.addFault({ route: 'GET /download/:token', fault: { kind: 'reset', when: 'before' } });
    await assert.rejects(fetch(await downloadUrl()));
    const ok = await fetch(await downloadUrl());
    assert.equal((await ok.arrayBuffer()).byteLength, 1_000_003);
  });

  it('download faults: truncate at a given byte sends exactly that many bytes', async () => {
    for (const atByte of [0, 7, 1_000_002, 5_000_000]) {
      emu.addFault({ route: 'GET /download/:token', fault: { kind: 'truncate', atByte } });
      const url = new URL(await downloadUrl());
      const received = await new Promise<number>((resolve, reject) => {
        get(url, (res) => {
          let bytes = 0;
          res.on('data', (chunk: Buffer) => (bytes += chunk.length));
          res.on('error', () => resolve(bytes));
          res.on('close', () => resolve(bytes));
        }).on('error', reject);
      });
      assert.equal(received, Math.min(atByte, 1_000_002), `atByte ${atByte}`);
    }
  });
});
