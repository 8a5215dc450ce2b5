import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startEmulator } from './emulator.js';
import { call, finishedScan } from './test-http.js';

describe('emulator: start and close', () => {
  it('starts in-process on port 0 with three distinct origins on 127.0.0.1', async () => {
    const emu = await startEmulator();
    try {
      const ports = [emu.url, emu.downloadOrigin, emu.controlOrigin].map((u) => new URL(u).port);
      assert.equal(new Set(ports).size, 3);
      assert.ok(ports.every((p) => Number(p) > 0));
      assert.match(emu.url, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1$/);
    } finally {
      await emu.close();
    }
  });

  it('close() stops all three servers, even with keep-alive sockets and a download in flight', async () => {
    const emu = await startEmulator({ reportSizeBytes: 50_000_000 });
    const id = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${id}/report/generate`);
    emu.advance(10_000);
    const url = (await call(emu, 'GET', `/scans/${id}/report`)).body.data.downloadUrl as string;
    const inFlight = await new Promise<import('node:http').IncomingMessage>((resolve, reject) => {
      request(url, (res) => resolve(res))
        .on('error', reject)
        .end();
    });
    inFlight.pause();
    inFlight.on('error', () => undefined);
    await fetch(`${emu.controlOrigin}/state`).then((r) => r.text());
    await emu.close();
    for (const origin of [emu.url, emu.downloadOrigin, emu.controlOrigin]) {
      await assert.rejects(fetch(origin), origin);
    }
  });
});
