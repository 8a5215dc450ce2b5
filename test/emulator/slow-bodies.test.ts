// The slow-body and stall faults, over real HTTP: the bytes arrive whole, in pieces spread over
// time, or stop part-way and then resume (or never do). Raw sockets show what the wire carries.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { connect } from 'node:net';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call, control, finishedScan } from './test-http.js';

interface Arrival {
  at: number;
  bytes: number;
}

interface RawReply {
  head: string;
  body: Buffer;
  /** When each piece of the body arrived (wall ms since the request was sent), and its size. */
  arrivals: Arrival[];
  /** The connection closed before the whole body arrived. */
  cut: boolean;
}

/** GET over a raw socket, recording when each piece of the body arrives. Resolves when the body
 *  (Content-Length) is complete, or when `giveUpAfterMs` of silence passed (then `cut`). */
function rawGet(url: string, headers: Record<string, string>, giveUpAfterMs = 5_000) {
  const target = new URL(url);
  const started = Date.now();
  return new Promise<RawReply>((resolve, reject) => {
    const socket = connect(Number(target.port), target.hostname);
    let buffered = Buffer.alloc(0);
    let head: string | undefined;
    let length = 0;
    const body: Buffer[] = [];
    const arrivals: Arrival[] = [];
    let received = 0;
    const finish = (cut: boolean) => {
      clearTimeout(silence);
      socket.destroy();
      resolve({ head: head ?? '', body: Buffer.concat(body), arrivals, cut });
    };
    let silence = setTimeout(() => finish(true), giveUpAfterMs);
    const takeBody = (piece: Buffer) => {
      if (piece.length === 0) return;
      body.push(piece);
      received += piece.length;
      arrivals.push({ at: Date.now() - started, bytes: piece.length });
    };
    socket.on('data', (data: Buffer) => {
      clearTimeout(silence);
      silence = setTimeout(() => finish(true), giveUpAfterMs);
      if (head === undefined) {
        buffered = Buffer.concat([buffered, data]);
        const end = buffered.indexOf('\r\n\r\n');
        if (end < 0) return;
        head = buffered.subarray(0, end).toString('latin1');
        length = Number(/\r\ncontent-length: *(\d+)/i.exec(head)?.[1] ?? 0);
        takeBody(buffered.subarray(end + 4));
      } else takeBody(data);
      if (received >= length) finish(false);
    });
    socket.on('error', reject);
    socket.on('close', () => finish(received < length));
    const lines = Object.entries({ host: target.host, connection: 'close', ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    );
    socket.write(
      `GET ${target.pathname}${target.search} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`,
    );
  });
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const statusOf = (reply: RawReply) => Number(/^HTTP\/1\.1 (\d+)/.exec(reply.head)?.[1]);
const spanMs = (reply: RawReply) => (reply.arrivals.at(-1)?.at ?? 0) - (reply.arrivals[0]?.at ?? 0);

/** The longest silence between two pieces of the body. */
const longestGapMs = (reply: RawReply) =>
  Math.max(0, ...reply.arrivals.slice(1).map((a, i) => a.at - (reply.arrivals[i] as Arrival).at));

describe('emulator: slow and stalled bodies', () => {
  let emu: Emulator;
  let scanId = '';
  const REPORT_BYTES = 300_001;

  before(async () => {
    emu = await startEmulator({ seed: 21, reportSizeBytes: REPORT_BYTES });
    scanId = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${scanId}/report/generate`);
    emu.advance(10_000);
  });
  after(() => emu.close());

  const auth = () => ({ authorization: `Bearer ${emu.apiKey}` });
  const downloadUrl = async () =>
    (await call(emu, 'GET', `/scans/${scanId}/report`)).body.data.downloadUrl as string;

  it('slow-body on an API route: the whole JSON body arrives in small pieces, spread over time', async () => {
    emu.clearFaults();
    const whole = await call(emu, 'GET', `/scans/${scanId}/results`);
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'slow-body', bytesPerChunk: 2_000, intervalMs: 10 },
    });
    const slow = await rawGet(`${emu.url}/scans/${scanId}/results`, auth());
    assert.equal(statusOf(slow), 200);
    assert.equal(slow.cut, false);
    assert.match(slow.head, new RegExp(`content-length: ${Buffer.byteLength(whole.text)}`, 'i'));
    assert.deepEqual(JSON.parse(slow.body.toString('utf8')), whole.body);
    const pieces = Math.ceil(slow.body.length / 2_000);
    assert.ok(pieces >= 5, `a body of ${slow.body.length} bytes`);
    assert.ok(
      slow.arrivals.length >= pieces / 2,
      `${slow.arrivals.length} pieces for ${pieces} chunks`,
    );
    assert.ok(
      slow.arrivals.every((a) => a.bytes <= 2_000),
      'no piece larger than bytesPerChunk',
    );
    assert.equal(emu.requests().at(-1)?.fault, 'slow-body');
  });

  it('slow-body on the download origin: the streamed report arrives whole (sha256), in pieces', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'slow-body', bytesPerChunk: 50_000, intervalMs: 30 },
    });
    const slow = await rawGet(await downloadUrl(), {});
    assert.equal(statusOf(slow), 200);
    assert.equal(slow.cut, false);
    assert.match(slow.head, new RegExp(`content-length: ${REPORT_BYTES}`, 'i'));
    assert.deepEqual(
      { sha256: sha256(slow.body), bytes: slow.body.length },
      emu.reportDigest(scanId),
    );
    // 7 pieces of at most 50 000 bytes with 6 pauses of 30 ms between them.
    assert.ok(slow.arrivals.length >= 7, `${slow.arrivals.length} pieces`);
    assert.ok(spanMs(slow) >= 6 * 30 * 0.8, `spread over ${spanMs(slow)} ms`);
  });

  it('stall on an API route: headers and afterBytes arrive, then a silence, then the rest', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'stall', afterBytes: 10, ms: 400 },
    });
    const stalled = await rawGet(`${emu.url}/scans/${scanId}`, auth());
    assert.equal(statusOf(stalled), 200);
    assert.equal(stalled.cut, false);
    assert.equal(stalled.arrivals[0]?.bytes, 10);
    assert.equal(JSON.parse(stalled.body.toString('utf8')).data.id, scanId);
    assert.ok(longestGapMs(stalled) >= 300, `longest silence ${longestGapMs(stalled)} ms`);
  });

  it('stall on the download origin: a prefix, a silence, then the rest of the report, whole', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 100_000, ms: 400 },
    });
    const stalled = await rawGet(await downloadUrl(), {});
    assert.equal(stalled.cut, false);
    assert.deepEqual(
      { sha256: sha256(stalled.body), bytes: stalled.body.length },
      emu.reportDigest(scanId),
    );
    const beforeSilence = stalled.arrivals.findIndex(
      (a, i) => (stalled.arrivals[i + 1]?.at ?? a.at) - a.at >= 300,
    );
    assert.ok(beforeSilence >= 0, 'a silence of at least 300 ms');
    const prefix = stalled.arrivals.slice(0, beforeSilence + 1).reduce((n, a) => n + a.bytes, 0);
    assert.equal(prefix, 100_000);
  });

  it('stall with ms Infinity: the rest never comes, the connection stays open until the client leaves', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 1_000, ms: Infinity },
    });
    const stalled = await rawGet(await downloadUrl(), {}, 600);
    assert.equal(statusOf(stalled), 200);
    assert.equal(stalled.cut, true);
    assert.equal(stalled.body.length, 1_000);
    // The emulator is not stuck: the next download is whole.
    const next = await rawGet(await downloadUrl(), {});
    assert.equal(next.body.length, REPORT_BYTES);
  });

  it('stall on an empty body holds back the headers; afterBytes beyond the body stalls before its last byte', async () => {
    emu.clearFaults();
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'stall', afterBytes: 1_000_000, ms: 300 },
    });
    const tail = await rawGet(`${emu.url}/tenants/me`, auth());
    assert.equal(tail.cut, false);
    assert.equal(tail.arrivals.at(-1)?.bytes, 1);
    assert.ok(longestGapMs(tail) >= 200, `longest silence ${longestGapMs(tail)} ms`);

    emu.setReportSize?.(0);
    const emptyScan = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${emptyScan}/report/generate`);
    emu.advance(10_000);
    emu.setReportSize?.(REPORT_BYTES);
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 0, ms: Infinity },
    });
    const address = (await call(emu, 'GET', `/scans/${emptyScan}/report`)).body.data.downloadUrl;
    const held = await rawGet(address, {}, 400);
    assert.equal(held.head, '', 'no headers yet');
  });

  it('the control surface takes a stall of "Infinity" ms; afterBytes 0 sends the headers alone', async () => {
    emu.clearFaults();
    const added = await control(emu, 'POST', '/faults', {
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 0, ms: 'Infinity' },
    });
    assert.equal(added.status, 200);
    const stalled = await rawGet(await downloadUrl(), {}, 400);
    assert.equal(statusOf(stalled), 200);
    assert.match(stalled.head, new RegExp(`content-length: ${REPORT_BYTES}`, 'i'));
    assert.equal(stalled.cut, true);
    assert.equal(stalled.body.length, 0);
    emu.clearFaults();
  });
});
