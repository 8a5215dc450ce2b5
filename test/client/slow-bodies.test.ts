// The client under slow and stalled bodies (the emulator's slow-body and stall faults, real HTTP):
// a slow body still gives the right data; a stall longer than the per-request timeout is retried
// on a safe GET; a stalled or abandoned download leaves no partial file.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import {
  TimeoutError,
  createClient,
  type RetryEvent,
  type TenantClient,
} from '../../src/client/index.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { call, finishedScan } from '../emulator/test-http.js';

/** Per-request timeout of the client under test: a stall of Infinity outlasts it. */
const TIMEOUT_MS = 400;
const REPORT_BYTES = 700_001;

describe('client: slow and stalled bodies', () => {
  let emu: Emulator;
  let client: TenantClient;
  let scanId = '';
  let dir = '';
  const retries: RetryEvent[] = [];

  before(async () => {
    emu = await startEmulator({ seed: 31, reportSizeBytes: REPORT_BYTES });
    scanId = await finishedScan(emu);
    await call(emu, 'POST', `/scans/${scanId}/report/generate`);
    emu.advance(10_000);
    client = createClient({
      apiKey: emu.apiKey,
      baseUrl: emu.url,
      env: {},
      timeoutMs: TIMEOUT_MS,
      retry: { baseDelayMs: 5, maxDelayMs: 50 },
      onRetry: (event) => retries.push(event),
    });
    dir = await mkdtemp(join(tmpdir(), 'client-slow-bodies-'));
  });
  after(async () => {
    await client.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    emu.clearFaults();
    emu.clearRequests();
    retries.length = 0;
    for (const name of await readdir(dir)) await rm(join(dir, name), { force: true });
  });

  const requestsTo = (pathEnd: RegExp) =>
    emu.requests().filter((r) => r.origin !== 'control' && pathEnd.test(r.path));
  const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

  /** The report as a fault-free download gives it, for comparison. */
  async function expectWholeReport(path: string): Promise<void> {
    const bytes = await readFile(path);
    assert.deepEqual({ sha256: sha256(bytes), bytes: bytes.length }, emu.reportDigest(scanId));
    assert.deepEqual(await readdir(dir), [path.slice(dir.length + 1)], 'no temp file left');
  }

  it('a slow body on GET results still gives every result, in one request', async () => {
    const expected = await client.scans.results(scanId);
    emu.clearRequests();
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'slow-body', bytesPerChunk: 1_500, intervalMs: 5 },
    });
    const slow = await client.scans.results(scanId);
    assert.deepEqual(slow, expected);
    assert.ok(expected.length > 0);
    assert.deepEqual(
      requestsTo(/\/results$/).map((r) => r.fault),
      ['slow-body'],
    );
  });

  it('an API answer that keeps flowing for longer than the timeout is not cut: the timeout is on silence', async () => {
    emu.clearRequests();
    const expected = await client.scans.results(scanId);
    const [asked] = requestsTo(/\/results$/);
    const query = asked?.query ? `?${asked.query}` : '';
    const bytes = Buffer.byteLength((await call(emu, 'GET', `${asked?.path}${query}`)).text);
    emu.clearRequests();
    // Gaps of a quarter of the timeout, ~2.5 timeouts in all.
    const chunks = Math.ceil((2.5 * TIMEOUT_MS) / (TIMEOUT_MS / 4));
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: {
        kind: 'slow-body',
        bytesPerChunk: Math.ceil(bytes / chunks),
        intervalMs: TIMEOUT_MS / 4,
      },
    });
    const started = performance.now();
    assert.deepEqual(await client.scans.results(scanId), expected);
    assert.ok(
      performance.now() - started > 2 * TIMEOUT_MS,
      'the body took longer than the timeout',
    );
    assert.deepEqual(
      requestsTo(/\/results$/).map((r) => r.fault),
      ['slow-body'],
    );
    assert.deepEqual(retries, []);
  });

  it('a slow body on GET scans/:id still gives the scan', async () => {
    emu.addFault({
      route: 'GET /scans/:id',
      fault: { kind: 'slow-body', bytesPerChunk: 16, intervalMs: 5 },
    });
    const scan = await client.scans.get(scanId);
    assert.equal(scan.id, scanId);
    assert.equal(scan.phase, 'succeeded');
    assert.deepEqual(retries, []);
  });

  it('a slow download still writes the whole report (sha256), and nothing else', async () => {
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'slow-body', bytesPerChunk: 100_000, intervalMs: 20 },
    });
    const target = join(dir, 'slow.pdf');
    const result = await client.reports.download(scanId, target);
    assert.equal(result.sha256, emu.reportDigest(scanId).sha256);
    assert.equal(result.bytes, REPORT_BYTES);
    await expectWholeReport(target);
    assert.deepEqual(
      requestsTo(/^\/download\//).map((r) => r.fault),
      ['slow-body'],
    );
  });

  it('a stall shorter than the timeout is waited out: one request, the right data', async () => {
    emu.addFault({ route: 'GET /scans/:id', fault: { kind: 'stall', afterBytes: 5, ms: 100 } });
    assert.equal((await client.scans.get(scanId)).id, scanId);
    assert.equal(requestsTo(/^\/scans\/[^/]+$/).length, 1);
    assert.deepEqual(retries, []);
  });

  for (const [route, read] of [
    ['GET /scans/:id/results', () => client.scans.results(scanId)],
    // receivedAt is when the answer arrived: it differs between two reads by design.
    [
      'GET /scans/:id',
      () => client.scans.get(scanId).then(({ receivedAt: _arrival, ...scan }) => scan),
    ],
  ] as const) {
    it(`a stall longer than the timeout on ${route} (a safe GET) is retried and gives the right data`, async () => {
      const expected = await read();
      emu.clearRequests();
      emu.addFault({ route, fault: { kind: 'stall', afterBytes: 20, ms: Infinity } });
      assert.deepEqual(await read(), expected);
      const path = route.endsWith('results') ? /\/results$/ : /^\/scans\/[^/]+$/;
      assert.deepEqual(
        requestsTo(path).map((r) => r.fault),
        ['stall', undefined],
      );
      assert.deepEqual(
        retries.map((r) => [r.method, r.reason, r.attempt]),
        [['GET', 'timeout', 1]],
      );
    });
  }

  it('a download stalled past the body timeout is fetched again: whole report, no partial file', async () => {
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 300_000, ms: Infinity },
    });
    const target = join(dir, 'stalled-once.pdf');
    const result = await client.reports.download(scanId, target);
    assert.equal(result.sha256, emu.reportDigest(scanId).sha256);
    await expectWholeReport(target);
    assert.deepEqual(
      requestsTo(/^\/download\//).map((r) => r.fault),
      ['stall', undefined],
    );
  });

  it('a download that stalls every time fails clearly and leaves no file at all', async () => {
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 300_000, ms: Infinity },
      times: Infinity,
    });
    const target = join(dir, 'never.pdf');
    const error = await client.reports.download(scanId, target).then(
      () => assert.fail('expected the download to fail'),
      (e: unknown) => e,
    );
    // A silence, named as one (not a failure), with the fixed silence limit it ran into.
    assert.ok(error instanceof TimeoutError, String(error));
    assert.equal(error.bound, 'silence');
    assert.match(error.message, /^Report download from \S+: nothing received for 0\.4 s\.$/);
    assert.doesNotMatch((error as Error).message, /signature=|ak_live_/);
    assert.deepEqual(await readdir(dir), []);
    assert.ok(requestsTo(/^\/download\//).length >= 2, 'tried more than once');
  });

  it('a download silent for the request timeout is a deadline: tried twice, no file', async () => {
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'stall', afterBytes: 300_000, ms: Infinity },
      times: Infinity,
    });
    const timed = createClient({
      apiKey: emu.apiKey,
      baseUrl: emu.url,
      env: {},
      requestTimeoutMs: TIMEOUT_MS, // the silence limit (30 s) is cut to it
      retry: { baseDelayMs: 5, maxDelayMs: 50 },
    });
    emu.clearRequests();
    try {
      const error = await timed.reports.download(scanId, join(dir, 'late.pdf')).then(
        () => assert.fail('expected the download to fail'),
        (e: unknown) => e,
      );
      assert.ok(error instanceof TimeoutError, String(error));
      assert.match(error.message, /\(the request timeout\)\.$/);
      assert.equal(requestsTo(/^\/download\//).length, 2, 'docs/guarantees.md: tried twice');
      assert.deepEqual(await readdir(dir), []);
    } finally {
      emu.clearFaults();
      await timed.close();
    }
  });

  it('a slow download abandoned part-way (the caller aborts) leaves no partial file', async () => {
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'slow-body', bytesPerChunk: 50_000, intervalMs: 50 },
    });
    const controller = new AbortController();
    const target = join(dir, 'aborted.pdf');
    const download = client.reports.download(scanId, target, { signal: controller.signal });
    await waitFor(() => requestsTo(/^\/download\//).some((r) => r.status === 200));
    await new Promise((resolve) => setTimeout(resolve, 120));
    controller.abort(new Error('job cancelled'));
    await assert.rejects(download, /job cancelled/);
    assert.deepEqual(await readdir(dir), []);
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !condition(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  assert.ok(condition(), 'condition never met');
}
