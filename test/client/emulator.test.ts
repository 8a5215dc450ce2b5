// The client against the emulator over real HTTP: every route, every error class, the retry rules,
// the contract's variants (status words, finding shapes, error bodies, report addresses, paginated
// and unfiltered results), the download, and a canary key that never shows in any error.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  AuthenticationError,
  DownloadError,
  NetworkError,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TenantApiError,
  TimeoutError,
  ValidationError,
  WaitTimeoutError,
  createClient,
  describeFinding,
  isFailedFinding,
  type ClientOptions,
  type RetryEvent,
  type Scan,
  type TenantClient,
} from '../../src/client/index.js';
import { startEmulator } from '../emulator/emulator.js';
import { apiRequests } from '../emulator/request-log.js';
import { DOWNLOAD_ADDRESS_FORMS, type Emulator, type EmulatorOptions } from '../emulator/types.js';

const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 50 };
const FAST_WAIT = { minIntervalMs: 20, maxIntervalMs: 200 };
/** Every error any test here saw: none may contain a key. */
const allErrors: unknown[] = [];
const allEvents: RetryEvent[] = [];
const allKeys: string[] = [];

function capture<T>(promise: Promise<T>): Promise<unknown> {
  return promise.then(
    () => assert.fail('expected a rejection'),
    (error: unknown) => {
      allErrors.push(error);
      return error;
    },
  );
}

async function expectError<E extends TenantApiError>(
  promise: Promise<unknown>,
  type: new (...a: never[]) => E,
): Promise<E> {
  const error = await capture(promise);
  assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
  return error as E;
}

interface Setup {
  emu: Emulator;
  client: TenantClient;
  events: RetryEvent[];
  clientFor(apiKey: string, extra?: Partial<ClientOptions>): TenantClient;
}

function useEmulator(options: EmulatorOptions, extra: Partial<ClientOptions> = {}): Setup {
  const setup = { events: [] as RetryEvent[] } as Setup;
  const clients: TenantClient[] = [];
  before(async () => {
    setup.emu = await startEmulator({ clockSpeed: 50, ...options });
    allKeys.push(setup.emu.apiKey);
    setup.clientFor = (apiKey, more = {}) => {
      const client = createClient({
        apiKey,
        baseUrl: setup.emu.url,
        env: {},
        retry: FAST_RETRY,
        onRetry: (e) => {
          setup.events.push(e);
          allEvents.push(e);
        },
        ...extra,
        ...more,
      });
      clients.push(client);
      return client;
    };
    setup.client = setup.clientFor(setup.emu.apiKey);
  });
  after(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await setup.emu.close();
  });
  return setup;
}

async function finishedScan(s: Setup, client = s.client): Promise<Scan> {
  const scan = await client.scans.create('compliance');
  let last: Scan | undefined;
  for await (const snapshot of client.scans.wait(scan.id, FAST_WAIT)) last = snapshot;
  assert.ok(last?.terminal);
  return last;
}

describe('every route', () => {
  const s = useEmulator({});

  it('tenant, connections, notifications, scheduled scans, insights', async () => {
    const { client } = s;
    assert.equal(typeof (await client.tenants.me()).name, 'string');
    const connections = await client.connections.list();
    assert.ok(Array.isArray(connections));
    const settings = await client.notifications.get();
    assert.equal(typeof settings.emailOnComplete, 'boolean');
    const updated = await client.notifications.update({ emailOnFail: !settings.emailOnFail });
    assert.equal(updated.emailOnFail, !settings.emailOnFail);
    assert.equal(updated.emailOnComplete, settings.emailOnComplete);
    assert.ok(Array.isArray(await client.scheduledScans.list()));
    assert.ok(Array.isArray(await client.threats.list()));
    assert.ok(Array.isArray(await client.policies.list()));
    assert.equal(typeof (await client.remediation.capabilities()), 'object');
    const plans = await client.remediation.plans();
    assert.ok(Array.isArray(plans));
    if (plans[0])
      assert.equal((await client.remediation.plan(String(plans[0].id))).id, plans[0].id);
    assert.ok(Array.isArray(await client.aiPilot.remediable()));
    assert.ok(Array.isArray(await client.aiPilot.breakGlass()));
    assert.ok(Array.isArray(await client.aiPilot.conditionalAccess()));
  });

  it('api keys: list, create, delete; a revoked key gets AuthenticationError', async () => {
    const { client } = s;
    const before = await client.apiKeys.list();
    const connections = await client.connections.list();
    const msTenantId =
      typeof connections[0]?.msTenantId === 'string' ? connections[0].msTenantId : undefined;
    assert.ok(msTenantId, 'the emulator lists a connection with msTenantId');
    const created = await client.apiKeys.create({ name: 'ci', msTenantId });
    assert.equal(created.msTenantId, msTenantId);
    assert.match(created.key, /^ak_live_/);
    allKeys.push(created.key);
    assert.equal(created.name, 'ci');
    assert.equal((await client.apiKeys.list()).length, before.length + 1);
    const other = s.clientFor(created.key);
    await other.tenants.me();
    await client.apiKeys.delete(created.id);
    await expectError(other.tenants.me(), AuthenticationError);
    assert.equal((await client.apiKeys.list()).length, before.length);
  });

  it('scans: create, get, list, results, hide, unhide, cancel, delete', async () => {
    const { client, emu } = s;
    const done = await finishedScan(s);
    assert.equal(done.phase, 'succeeded');
    assert.equal((await client.scans.get(done.id)).id, done.id);
    assert.ok((await client.scans.list()).some((x) => x.id === done.id));
    const all = await client.scans.results(done.id);
    const failed = await client.scans.results(done.id, { result: 'Failed' });
    assert.ok(all.length > failed.length && failed.length > 0);
    assert.ok(failed.every(isFailedFinding));
    await client.scans.hide(done.id);
    assert.equal(emu.scans().find((x) => x.id === done.id)?.hidden, true);
    await client.scans.unhide(done.id);
    assert.equal(emu.scans().find((x) => x.id === done.id)?.hidden, false);
    emu.setScanPlan({ durationMs: 600_000 });
    const long = await client.scans.create('compliance');
    await client.scans.cancel(long.id);
    assert.equal((await client.scans.get(long.id)).phase, 'cancelled');
    await client.scans.delete(done.id);
    await expectError(client.scans.get(done.id), NotFoundError);
    emu.setScanPlan({});
  });

  it('reports: status, generate, list through the cursor, download', async () => {
    const { client, emu } = s;
    const scans: Scan[] = [];
    for (let i = 0; i < 3; i++) scans.push(await finishedScan(s));
    const first = scans[0]!;
    assert.equal((await client.reports.status(first.id)).state, 'locked');
    for (const scan of scans) await client.reports.generate(scan.id);
    emu.advance(60_000);
    assert.equal((await client.reports.status(first.id)).state, 'ready');
    const page = await client.reports.listPage();
    assert.ok(page.items.length >= 3);
    const listed: string[] = [];
    for await (const item of client.reports.list()) listed.push(String(item.scanId));
    for (const scan of scans) assert.ok(listed.includes(scan.id));
    const dir = await mkdtemp(join(tmpdir(), 'client-dl-'));
    try {
      const result = await client.reports.download(first.id, join(dir, 'report.pdf'));
      const expected = emu.reportDigest(first.id);
      assert.equal(result.sha256, expected.sha256);
      assert.equal(result.bytes, expected.bytes);
      const onDisk = createHash('sha256')
        .update(await readFile(result.path))
        .digest('hex');
      assert.equal(onDisk, expected.sha256);
      assert.deepEqual(await readdir(dir), ['report.pdf']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('attack surface', async () => {
    const { client } = s;
    assert.equal(typeof (await client.attackSurface.summary()), 'object');
    assert.ok(Array.isArray(await client.attackSurface.history()));
    const target = await client.attackSurface.addTarget('app.contoso.example');
    const id = String(target.id);
    assert.ok((await client.attackSurface.targets()).some((t) => t.id === target.id));
    assert.equal((await client.attackSurface.updateTarget(id, { label: 'prod' })).label, 'prod');
    await client.attackSurface.verifyTarget(id);
    await client.attackSurface.scan();
    await client.attackSurface.removeTarget(id);
    assert.ok(!(await client.attackSurface.targets()).some((t) => t.id === target.id));
  });
});

describe('error classes', () => {
  const s = useEmulator({});

  it('401, 403 (no API access), 404, 400, 11th key', async () => {
    const { emu, client } = s;
    await expectError(s.clientFor('ak_live_unknownkey').tenants.me(), AuthenticationError);
    const noAccess = emu.addTenant({ plan: { apiAccess: false } });
    allKeys.push(noAccess.apiKey);
    const permission = await expectError(
      s.clientFor(noAccess.apiKey).scans.list(),
      PermissionError,
    );
    assert.equal(permission.status, 403);
    await expectError(client.scans.get('00000000-0000-4000-8000-000000000000'), NotFoundError);
    await expectError(
      client.notifications.update({ teamsWebhookUrl: 'not a url' }),
      ValidationError,
    );
    const keys = await client.apiKeys.list();
    for (let i = keys.length; i < 10; i++)
      allKeys.push((await client.apiKeys.create({ name: `k${i}` })).key);
    const eleventh = await expectError(client.apiKeys.create({ name: 'k11' }), ValidationError);
    assert.equal(eleventh.code, 'VALIDATION_ERROR');
  });

  for (const planLimitStatus of [429, 402, 403] as const) {
    it(`SCAN_PLAN_LIMIT_REACHED on ${planLimitStatus}: PlanLimitError, sent once`, async () => {
      const { emu } = s;
      emu.setVariant({ planLimitStatus });
      const limited = emu.addTenant({ plan: { scanQuota: 0 } });
      allKeys.push(limited.apiKey);
      emu.clearRequests();
      const error = await expectError(
        s.clientFor(limited.apiKey).scans.create('compliance'),
        PlanLimitError,
      );
      assert.equal(error.status, planLimitStatus);
      assert.equal(emu.requests().filter((r) => r.method === 'POST').length, 1);
      emu.setVariant({});
    });
  }

  it('RateLimitError, ServerError, NetworkError, TimeoutError once the budget is spent', async () => {
    const { emu } = s;
    const once = s.clientFor(emu.apiKey, {
      retry: { maxAttempts: 1, maxBusyAttempts: 1 },
      timeoutMs: 1_000,
    });
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 429, code: 'RATE_LIMITED' },
    });
    await expectError(once.tenants.me(), RateLimitError);
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'status', status: 500, code: 'INTERNAL' },
    });
    await expectError(once.tenants.me(), ServerError);
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'reset', when: 'before' } });
    await expectError(once.tenants.me(), NetworkError);
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'delay', ms: 2_500 } });
    await expectError(once.tenants.me(), TimeoutError);
    emu.clearFaults();
  });

  for (const errorShape of ['envelope', 'flat', 'string', 'empty', 'html', 'text'] as const) {
    it(`error body "${errorShape}" still maps to the right class`, async () => {
      const { emu, client } = s;
      emu.setVariant({ errorShape });
      await expectError(client.scans.get('00000000-0000-4000-8000-000000000000'), NotFoundError);
      await expectError(s.clientFor('ak_live_nosuchkey').tenants.me(), AuthenticationError);
      emu.setVariant({});
    });
  }
});

describe('retry rules', () => {
  const s = useEmulator({});

  it('429 without Retry-After (account bucket) is retried with backoff', async () => {
    const { emu } = s;
    emu.setRateLimit({ kind: 'account', ratePerSecond: 20, burst: 2 });
    const events: RetryEvent[] = [];
    const client = s.clientFor(emu.apiKey, {
      retry: { baseDelayMs: 50, maxDelayMs: 400, maxAttempts: 10 },
      onRetry: (e) => events.push(e),
    });
    const results = await Promise.all(Array.from({ length: 6 }, () => client.tenants.me()));
    assert.equal(results.length, 6);
    const throttled = emu.requests().filter((r) => r.status === 429);
    assert.ok(throttled.length > 0);
    assert.ok(
      events.length > 0 && events.every((e) => e.reason === 'rate-limited' && !e.fromRetryAfter),
    );
    emu.setRateLimit({ kind: 'none' });
  });

  it('429 with Retry-After (per-key window) is honoured', async () => {
    const { emu } = s;
    emu.setRateLimit({ kind: 'per-key', perMinute: 2 });
    const events: RetryEvent[] = [];
    const client = s.clientFor(emu.apiKey, {
      retry: { maxAttempts: 2, maxBusyAttempts: 2, retryAfterCapMs: 50 },
      onRetry: (e) => events.push(e),
    });
    await client.tenants.me().catch(() => undefined);
    await client.tenants.me().catch(() => undefined);
    await capture(client.tenants.me());
    assert.ok(events.some((e) => e.reason === 'rate-limited' && e.fromRetryAfter));
    emu.setRateLimit({ kind: 'none' });
  });

  it('429 with an HTTP-date Retry-After is honoured', async () => {
    const { emu } = s;
    emu.addFault({
      route: 'GET /tenants/me',
      fault: {
        kind: 'status',
        status: 429,
        code: 'RATE_LIMITED',
        retryAfter: { httpDateSeconds: 1 },
      },
    });
    const events: RetryEvent[] = [];
    await s.clientFor(emu.apiKey, { onRetry: (e) => events.push(e) }).tenants.me();
    assert.equal(events.length, 1);
    assert.equal(events[0]?.fromRetryAfter, true);
    assert.ok(events[0]!.delayMs <= 1_100);
  });

  it('503 warm-up is retried, for a POST too', async () => {
    const emu = await startEmulator({ warmupMs: 300 });
    const events: RetryEvent[] = [];
    const client = createClient({
      apiKey: emu.apiKey,
      baseUrl: emu.url,
      env: {},
      retry: { baseDelayMs: 100, maxDelayMs: 200, maxAttempts: 20 },
      onRetry: (e) => events.push(e),
    });
    try {
      await client.scans.create('compliance');
      assert.ok(events.length > 0 && events.every((e) => e.reason === 'service-starting'));
      assert.equal(emu.scans().length, 1);
    } finally {
      await client.close();
      await emu.close();
    }
  });

  it('a reset on a GET is retried; a POST reset mid-response is not re-sent', async () => {
    const { emu, client } = s;
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'reset', when: 'before' } });
    await client.tenants.me();
    const scansBefore = emu.scans().length;
    emu.addFault({
      route: 'POST /tenants/me/scans',
      fault: { kind: 'reset', when: 'mid-response' },
    });
    const error = await expectError(client.scans.create('compliance'), NetworkError);
    assert.equal(error.mayHaveBeenProcessed, true);
    assert.equal(
      emu.scans().length,
      scansBefore + 1,
      'exactly one scan: the POST was not sent again',
    );
  });

  it('bare 502 on a GET is retried, 4xx is not', async () => {
    const { emu, client } = s;
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'status', status: 502 }, times: 2 });
    await client.tenants.me();
    emu.clearRequests();
    await expectError(client.notifications.update({ teamsWebhookUrl: 'nope' }), ValidationError);
    assert.equal(apiRequests(emu).length, 1);
  });
});

describe('variants of what the seed leaves open', () => {
  const s = useEmulator({});

  for (const statusVocabulary of ['upper', 'alt'] as const) {
    it(`wait ends on "${statusVocabulary}" status words, no unknown status reported`, async () => {
      const { emu, client } = s;
      emu.setVariant({ statusVocabulary });
      const unknown: string[] = [];
      const scan = await client.scans.create('compliance');
      const seen: string[] = [];
      for await (const snap of client.scans.wait(scan.id, {
        ...FAST_WAIT,
        onUnknownStatus: (w) => unknown.push(w),
      })) {
        seen.push(snap.status);
      }
      assert.deepEqual(unknown, []);
      assert.equal(toPhaseOfLast(seen), statusVocabulary === 'upper' ? 'COMPLETED' : 'succeeded');
      emu.setScanPlan({ outcome: { kind: 'failed' } });
      const failing = await client.scans.create('compliance');
      let last: Scan | undefined;
      for await (const snap of client.scans.wait(failing.id, FAST_WAIT)) last = snap;
      assert.equal(last?.phase, 'failed');
      emu.setScanPlan({});
      emu.setVariant({});
    });
  }

  for (const findingShape of ['alt', 'sparse'] as const) {
    it(`finding shape "${findingShape}" renders with fallbacks`, async () => {
      const { emu, client } = s;
      emu.setVariant({ findingShape });
      const scan = await finishedScan(s);
      const failed = await client.scans.results(scan.id, { result: 'Failed' });
      assert.ok(failed.length > 0);
      for (const f of failed) {
        const view = describeFinding(f);
        assert.ok(view.title.length > 0);
        assert.equal(view.result, 'Failed');
        if (findingShape === 'alt') assert.notEqual(view.severity, 'unknown');
      }
      emu.setVariant({});
    });
  }

  it('paginated results that ignore the filter are followed and filtered locally', async () => {
    const { emu, client } = s;
    const scan = await finishedScan(s);
    const expectedFailed = (await client.scans.results(scan.id)).filter(isFailedFinding).length;
    emu.setVariant({ resultsPageSize: 7, ignoreResultFilter: true });
    emu.clearRequests();
    const all = await client.scans.results(scan.id);
    const failed = await client.scans.results(scan.id, { result: 'Failed' });
    assert.equal(all.length, 40);
    assert.equal(new Set(all.map((f) => f.id)).size, 40);
    assert.equal(failed.length, expectedFailed);
    assert.ok(
      emu
        .requests()
        .filter((r) => r.path.endsWith('/results'))
        .some((r) => r.query.includes('cursor=')),
    );
    emu.setVariant({});
  });

  for (const downloadAddress of DOWNLOAD_ADDRESS_FORMS) {
    it(`report address as "${downloadAddress}": downloaded, no key at the download origin`, async () => {
      const { emu, client } = s;
      const scan = await finishedScan(s);
      await client.reports.generate(scan.id);
      emu.advance(60_000);
      emu.setVariant({ downloadAddress });
      emu.clearRequests();
      const dir = await mkdtemp(join(tmpdir(), 'client-dl-'));
      try {
        const result = await client.reports.download(scan.id, join(dir, 'r.pdf'));
        assert.equal(result.sha256, emu.reportDigest(scan.id).sha256);
        const downloads = emu.requests().filter((r) => r.origin === 'download');
        assert.equal(downloads.length, 1);
        assert.equal(downloads[0]?.headers.authorization, undefined);
        assert.ok(apiRequests(emu).every((r) => r.headers.authorization));
      } finally {
        await rm(dir, { recursive: true, force: true });
        emu.setVariant({});
      }
    });
  }
});

function toPhaseOfLast(words: string[]): string | undefined {
  return words.at(-1);
}

describe('download', () => {
  const s = useEmulator({ reportSizeBytes: 8 * 1024 * 1024 });
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'client-dl-'));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  async function readyScan(): Promise<string> {
    const scan = await finishedScan(s);
    await s.client.reports.generate(scan.id);
    s.emu.advance(60_000);
    return scan.id;
  }

  it('an expired address (403) is fetched afresh once', async () => {
    const { emu, client } = s;
    const id = await readyScan();
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'status', status: 403, code: 'EXPIRED' },
    });
    emu.clearRequests();
    const result = await client.reports.download(id, join(dir, 'fresh.pdf'));
    assert.equal(result.sha256, emu.reportDigest(id).sha256);
    assert.equal(apiRequests(emu, 'GET', /\/report$/).length, 2);
    await rm(result.path);
  });

  it('addresses that are always expired end in DownloadError, no file left', async () => {
    const { emu, client } = s;
    const id = await readyScan();
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'status', status: 403 },
      times: Infinity,
    });
    const error = await expectError(
      client.reports.download(id, join(dir, 'never.pdf')),
      DownloadError,
    );
    assert.equal(error.code, 'DOWNLOAD_REFUSED');
    emu.clearFaults();
    assert.deepEqual(await readdir(dir), []);
  });

  it('a truncated body is fetched again; only the complete file is left', async () => {
    const { emu, client } = s;
    const id = await readyScan();
    emu.addFault({ route: 'GET /download/:token', fault: { kind: 'truncate' }, times: 1 });
    emu.clearRequests();
    const result = await client.reports.download(id, join(dir, 'cut.pdf'));
    assert.equal(result.sha256, emu.reportDigest(id).sha256);
    assert.equal(emu.requests().filter((r) => r.origin === 'download').length, 2);
    assert.deepEqual(await readdir(dir), ['cut.pdf']);
    await rm(result.path);
  });

  it('abort mid-download leaves no file', async () => {
    const { emu, client } = s;
    const id = await readyScan();
    emu.addFault({ route: 'GET /download/:token', fault: { kind: 'delay', ms: 300 } });
    const controller = new AbortController();
    const pending = client.reports.download(id, join(dir, 'aborted.pdf'), {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error('user cancelled')), 150);
    await assert.rejects(pending, /user cancelled/);
    assert.deepEqual(await readdir(dir), []);
  });

  it('a report that is not ready is a DownloadError before any download', async () => {
    const { emu, client } = s;
    const scan = await finishedScan(s);
    emu.clearRequests();
    const error = await expectError(
      client.reports.download(scan.id, join(dir, 'x.pdf')),
      DownloadError,
    );
    assert.equal(error.code, 'REPORT_NOT_READY');
    assert.equal(emu.requests().filter((r) => r.origin === 'download').length, 0);
    assert.equal(
      emu.creditsSpent(),
      4,
      'only the four explicit generate calls above spent credits',
    );
  });
});

describe('wait', () => {
  const s = useEmulator({});

  it('a stuck scan ends in WaitTimeoutError; the scan is not cancelled', async () => {
    const { emu, client } = s;
    emu.setScanPlan({ outcome: { kind: 'stuck', atProgress: 40 } });
    const scan = await client.scans.create('compliance');
    const error = await capture(
      (async () => {
        for await (const _ of client.scans.wait(scan.id, { ...FAST_WAIT, timeoutMs: 400 })) void _;
      })(),
    );
    assert.ok(error instanceof WaitTimeoutError);
    assert.equal(error.scanId, scan.id);
    assert.equal(emu.scans().find((x) => x.id === scan.id)?.status, 'running');
    emu.setScanPlan({});
  });

  it('snapshots carry startedAt and when their answer arrived: wait places the start from them', async () => {
    const { client } = s;
    const before = Date.now();
    const created = await client.scans.create('compliance');
    const after = Date.now();
    assert.ok(created.receivedAt! >= before && created.receivedAt! <= after);
    assert.match(created.createdAt ?? '', /T\d\d:\d\d:\d\d\.\d{3}Z$/);
    const snapshots: Scan[] = [];
    for await (const snapshot of client.scans.wait(created.id, FAST_WAIT)) snapshots.push(snapshot);
    const started = snapshots.filter((x) => x.phase !== 'pending');
    assert.ok(started.length > 0);
    for (const x of started) assert.match(x.startedAt ?? '', /T\d\d:\d\d:\d\d\.\d{3}Z$/);
    for (const [a, b] of started.slice(1).map((x, i) => [started[i]!, x] as const))
      assert.ok(b.receivedAt! >= a.receivedAt!);
  });

  it('abort stops the wait', async () => {
    const { emu, client } = s;
    emu.setScanPlan({ outcome: { kind: 'stuck' } });
    const scan = await client.scans.create('compliance');
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('cancelled by runner')), 200);
    await assert.rejects(async () => {
      for await (const _ of client.scans.wait(scan.id, { ...FAST_WAIT, signal: controller.signal }))
        void _;
    }, /cancelled by runner/);
    emu.setScanPlan({});
  });
});

describe('canary', () => {
  it('no error or retry event of this file contains any key', () => {
    assert.ok(allErrors.length > 20, String(allErrors.length));
    const text = allErrors
      .map((e) => {
        const err = e as Error & { cause?: unknown };
        return [err.message, err.stack, JSON.stringify(err), String(err.cause)].join('\n');
      })
      .concat(JSON.stringify(allEvents))
      .join('\n');
    for (const key of allKeys) assert.ok(!text.includes(key), 'a key leaked into an error');
    assert.doesNotMatch(text, /ak_live_[A-Za-z0-9]{6,}/);
  });
});

void ServiceUnavailableError;
