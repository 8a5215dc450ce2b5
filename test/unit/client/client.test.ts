// Pure parts of the client: config validation, URL joining, error mapping of every body shape,
// retry schedule and Retry-After, status and finding normalisation, poll planning.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { inspect } from 'node:util';
import {
  AuthenticationError,
  CLIENT_VERSION,
  ConfigError,
  DEFAULT_RETRY_POLICY,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  PollPlanner,
  FALLBACK_INTERVAL_MS,
  RequestTimeout,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  ValidationError,
  backoffDelayMs,
  describeFinding,
  isFailedFinding,
  parseRetryAfterMs,
  resolveRetryPolicy,
  retryDelay,
  retryReasonForReply,
  routeUrl,
  toApiError,
  toReportState,
  toScan,
  toScanPhase,
  validateClientOptions,
} from '../../../src/client/index.js';
import { Pacer } from '../../../src/client/pacer.js';
import type { ProgressShape } from '../../emulator/progress.js';
import { simulateLoop, simulatePlanner, type WaitOutcome } from '../../helpers/poll-simulation.js';

const KEY = 'ak_live_canary0123456789abcdef';

describe('validateClientOptions', () => {
  it('takes baseUrl, else SERVICE_API_URL; without either, a ConfigError naming both', () => {
    assert.throws(
      () => validateClientOptions({ apiKey: KEY, env: {} }),
      (error: unknown) =>
        error instanceof ConfigError &&
        error.message === 'No API address: pass baseUrl or set SERVICE_API_URL.',
    );
    assert.throws(
      () => validateClientOptions({ apiKey: KEY, env: { SERVICE_API_URL: ' ' } }),
      ConfigError,
    );
    const fromEnv = validateClientOptions({
      apiKey: KEY,
      env: { SERVICE_API_URL: 'https://api.example.test/api/v1/' },
    });
    assert.equal(fromEnv.baseUrl, 'https://api.example.test/api/v1');
    const explicit = validateClientOptions({
      apiKey: KEY,
      baseUrl: 'http://127.0.0.1:9/x',
      env: { SERVICE_API_URL: 'https://ignored.test' },
    });
    assert.equal(explicit.baseUrl, 'http://127.0.0.1:9/x');
  });

  it('keeps the key out of a serialised or inspected config', () => {
    const config = validateClientOptions({
      apiKey: KEY,
      env: { SERVICE_API_KEY: KEY, SERVICE_API_URL: 'https://api.example.test/v1' },
    });
    assert.equal(config.apiKey, KEY);
    assert.equal(config.env.SERVICE_API_KEY, KEY);
    assert.doesNotMatch(JSON.stringify(config) + inspect(config, { depth: 5 }), /canary/);
  });

  for (const [label, apiKey] of [
    ['missing', ''],
    ['wrong prefix', 'sk_live_abc'],
    ['whitespace', `${KEY} `],
    ['inner newline', 'ak_live_abc\ndef'],
    ['prefix only', 'ak_live_'],
  ] as const) {
    it(`rejects a key that is ${label}, without echoing it`, () => {
      assert.throws(
        () => validateClientOptions({ apiKey, env: {} }),
        (error: unknown) =>
          error instanceof ConfigError &&
          (apiKey.length < 9 || !error.message.includes(apiKey.trim())),
      );
    });
  }

  it('rejects plain http except to loopback hosts', () => {
    for (const ok of [
      'http://127.0.0.1:1',
      'http://127.5.6.7',
      'http://[::1]:8080/v1',
      'http://localhost:3000',
      'http://127.1/v1',
      'http://[0:0:0:0:0:0:0:1]',
      'http://[::ffff:127.0.0.1]',
      'http://api.localhost',
    ]) {
      assert.doesNotThrow(() => validateClientOptions({ apiKey: KEY, baseUrl: ok, env: {} }), ok);
    }
    for (const bad of [
      'http://example.test',
      'http://10.0.0.1',
      'ftp://127.0.0.1',
      'not a url',
      'http://128.0.0.1',
      'http://127.0.0.1.example.test',
      'http://[::2]',
      'http://[::ffff:8000:1]',
    ]) {
      assert.throws(
        () => validateClientOptions({ apiKey: KEY, baseUrl: bad, env: {} }),
        ConfigError,
        bad,
      );
    }
  });

  it('puts the project and version in the User-Agent, plus a suffix', () => {
    const pkg = JSON.parse(
      readFileSync(new URL('../../../package.json', import.meta.url), 'utf8'),
    ) as { version: string };
    assert.equal(CLIENT_VERSION, pkg.version);
    const config = validateClientOptions({
      apiKey: KEY,
      baseUrl: 'https://api.example.test/v1',
      env: {},
      userAgentSuffix: 'cli',
    });
    assert.equal(config.userAgent, `tenant-scan/${pkg.version} cli`);
  });
});

describe('routeUrl', () => {
  it('keeps the base path (new URL("/x", base) would drop it)', () => {
    assert.equal(
      routeUrl('https://h.test/api/v1', '/tenants/me').href,
      'https://h.test/api/v1/tenants/me',
    );
    assert.equal(
      routeUrl('https://h.test/api/v1/', 'scans/a').href,
      'https://h.test/api/v1/scans/a',
    );
    assert.equal(
      routeUrl('https://h.test', '/tenants/me/reports', { cursor: 20, x: undefined }).href,
      'https://h.test/tenants/me/reports?cursor=20',
    );
  });
});

function reply(
  status: number,
  body: string | object | undefined,
  headers: Record<string, string> = {},
) {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { status, headers, body: Buffer.from(text) };
}
const ctx = { method: 'POST', path: '/tenants/me/scans', apiKey: KEY };

describe('error mapping', () => {
  it('reads every error body shape of the contract', () => {
    const shapes = [
      reply(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'bad webhook' } }),
      reply(400, { code: 'VALIDATION_ERROR', message: 'bad webhook' }),
      reply(400, { error: 'VALIDATION_ERROR' }),
    ];
    for (const shape of shapes) {
      const error = toApiError(shape, ctx);
      assert.ok(error instanceof ValidationError);
      assert.equal(error.code, 'VALIDATION_ERROR');
      assert.equal(error.status, 400);
      assert.equal(error.path, '/tenants/me/scans');
    }
    const empty = toApiError(reply(404, undefined), ctx);
    assert.ok(empty instanceof NotFoundError);
    assert.equal(empty.code, 'NOT_FOUND');
    const html = toApiError(
      reply(502, '<html><body>Bad gateway</body></html>', { 'content-type': 'text/html' }),
      ctx,
    );
    assert.ok(html instanceof ServerError);
    assert.doesNotMatch(html.message, /<html>/);
    const text = toApiError(
      reply(503, 'upstream warming up', { 'content-type': 'text/plain' }),
      ctx,
    );
    assert.ok(text instanceof ServiceUnavailableError);
    assert.match(text.message, /upstream warming up/);
  });

  it('classifies by code before status', () => {
    for (const status of [429, 402, 403, 400]) {
      const error = toApiError(
        reply(status, { success: false, error: { code: 'SCAN_PLAN_LIMIT_REACHED' } }),
        ctx,
      );
      assert.ok(error instanceof PlanLimitError, String(status));
    }
    assert.ok(
      toApiError(reply(401, { error: { code: 'UNAUTHORIZED' } }), ctx) instanceof
        AuthenticationError,
    );
    assert.ok(toApiError(reply(401, undefined), ctx) instanceof AuthenticationError);
    for (const code of [
      'AUTH_INSUFFICIENT_SCOPE',
      'PLAN_API_ACCESS_REQUIRED',
      'SOMETHING_ELSE',
      undefined,
    ]) {
      assert.ok(
        toApiError(reply(403, code ? { code } : undefined), ctx) instanceof PermissionError,
      );
    }
    assert.ok(toApiError(reply(410, { code: 'NOT_FOUND' }), ctx) instanceof NotFoundError);
    assert.ok(toApiError(reply(429, undefined), ctx) instanceof RateLimitError);
    assert.ok(
      toApiError(reply(503, { code: 'SERVICE_STARTING' }), ctx) instanceof ServiceUnavailableError,
    );
    assert.ok(toApiError(reply(500, undefined), ctx) instanceof ServerError);
    assert.ok(toApiError(reply(422, undefined), ctx) instanceof ValidationError);
  });

  it('takes the request id from x-request-id, else from the body', () => {
    assert.equal(
      toApiError(reply(500, { requestId: 'b-1' }, { 'x-request-id': 'h-1' }), ctx).requestId,
      'h-1',
    );
    assert.equal(
      toApiError(reply(500, { error: { code: 'X', requestId: 'b-2' } }), ctx).requestId,
      'b-2',
    );
  });

  it('never repeats the key, even when the server echoes it', () => {
    const echo = reply(401, { message: `bad key ${KEY} in Bearer ${KEY}` });
    const error = toApiError(echo, ctx);
    assert.doesNotMatch(error.message, /canary/);
    assert.doesNotMatch(JSON.stringify(error), /canary/);
  });
});

describe('a silence names the limit it ran into', () => {
  it('the request timeout when the silence limit was cut to it, else the fixed silence limit', () => {
    const short = validateClientOptions({
      apiKey: KEY,
      baseUrl: 'https://h.example/v1',
      requestTimeoutMs: 20_000,
    });
    const cut = new RequestTimeout(short.timeoutMs, short.requestTimeoutMs);
    assert.equal(cut.bound, 'request-timeout');
    assert.equal(cut.message, 'nothing received for 20 s (the request timeout)');
    const usual = validateClientOptions({ apiKey: KEY, baseUrl: 'https://h.example/v1' });
    const silent = new RequestTimeout(usual.timeoutMs, usual.requestTimeoutMs);
    assert.equal(silent.bound, 'silence');
    assert.equal(silent.message, 'nothing received for 30 s');
  });
});

describe('retry schedule', () => {
  const policy = resolveRetryPolicy({ baseDelayMs: 100, maxDelayMs: 1_000 });

  it('full jitter within [0, min(max, base·2^(n-1))]', () => {
    assert.equal(
      backoffDelayMs(1, policy, () => 0.999999),
      100,
    );
    assert.equal(
      backoffDelayMs(3, policy, () => 0.999999),
      400,
    );
    assert.equal(
      backoffDelayMs(10, policy, () => 0.999999),
      1_000,
    );
    assert.equal(
      backoffDelayMs(4, policy, () => 0),
      0,
    );
  });

  it('keeps defaults for absent or invalid fields', () => {
    assert.deepEqual(resolveRetryPolicy(undefined), DEFAULT_RETRY_POLICY);
    assert.equal(
      resolveRetryPolicy({ maxAttempts: -1 }).maxAttempts,
      DEFAULT_RETRY_POLICY.maxAttempts,
    );
    assert.equal(resolveRetryPolicy({ maxAttempts: 0 }).maxAttempts, 1);
  });

  it('parses Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfterMs('3', now), 3_000);
    assert.equal(parseRetryAfterMs('0.5', now), 500);
    assert.equal(parseRetryAfterMs('Thu, 01 Jan 2026 00:00:07 GMT', now), 7_000);
    assert.equal(parseRetryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfterMs('soon', now), undefined);
    assert.equal(parseRetryAfterMs(undefined, now), undefined);
  });

  it('honours Retry-After up to the cap, spread by up to as much again (at most maxDelayMs)', () => {
    const capped = resolveRetryPolicy({ retryAfterCapMs: 5_000, maxDelayMs: 3_000 });
    assert.deepEqual(
      retryDelay(1, capped, 2_000, () => 0),
      {
        delayMs: 2_000,
        minDelayMs: 2_000,
        fromRetryAfter: true,
      },
    );
    assert.equal(retryDelay(1, capped, 2_000, () => 1).delayMs, 4_000);
    assert.equal(retryDelay(1, capped, 600_000, () => 0).delayMs, 5_000);
    assert.equal(retryDelay(1, capped, 600_000, () => 1).delayMs, 8_000);
    assert.equal(retryDelay(2, policy, undefined, () => 1).fromRetryAfter, false);
  });

  it('retries only what the rules allow', () => {
    assert.equal(retryReasonForReply(429, 'RATE_LIMITED', false), 'rate-limited');
    assert.equal(retryReasonForReply(429, undefined, false), 'rate-limited');
    assert.equal(retryReasonForReply(429, 'SCAN_PLAN_LIMIT_REACHED', true), undefined);
    assert.equal(retryReasonForReply(503, 'SERVICE_STARTING', false), 'service-starting');
    assert.equal(retryReasonForReply(503, undefined, false), undefined);
    assert.equal(retryReasonForReply(503, undefined, true), 'server-error');
    assert.equal(retryReasonForReply(502, undefined, true), 'server-error');
    assert.equal(retryReasonForReply(504, undefined, false), undefined);
    assert.equal(retryReasonForReply(500, undefined, true), undefined);
    assert.equal(retryReasonForReply(400, 'VALIDATION_ERROR', true), undefined);
    assert.equal(retryReasonForReply(404, undefined, true), undefined);
  });
});

describe('Pacer', () => {
  it('a burst of 429s for requests already under way widens the spacing once', async () => {
    const pacer = new Pacer(() => 1_000);
    const burst = await Promise.all(Array.from({ length: 8 }, () => pacer.acquire()));
    for (const turn of burst) turn.throttled(0);
    assert.equal(pacer.state.spacingMs, 50);
    const later = await pacer.acquire();
    later.throttled(0);
    assert.equal(pacer.state.spacingMs, 100, 'a request started after the widening widens again');
  });

  it('every 429 of the burst holds the others back until the latest Retry-After', async () => {
    const pacer = new Pacer(() => 1_000);
    const [a, b] = [await pacer.acquire(), await pacer.acquire()];
    a.throttled(500);
    b.throttled(2_000);
    assert.equal(pacer.state.resumeAt, 3_000);
  });
});

describe('scan status', () => {
  it('maps the usual vocabularies case-insensitively', () => {
    const cases: Array<[string, string]> = [
      ['queued', 'pending'],
      ['QUEUED', 'pending'],
      ['pending', 'pending'],
      ['in_progress', 'running'],
      ['In Progress', 'running'],
      ['RUNNING', 'running'],
      ['completed', 'succeeded'],
      ['Succeeded', 'succeeded'],
      ['success', 'succeeded'],
      ['DONE', 'succeeded'],
      ['finished', 'succeeded'],
      ['failed', 'failed'],
      ['error', 'failed'],
      ['ERRORED', 'failed'],
      ['cancelled', 'cancelled'],
      ['canceled', 'cancelled'],
      ['aborted', 'cancelled'],
      ['timed_out', 'timed_out'],
      ['timeout', 'timed_out'],
      ['Timed-Out', 'timed_out'],
      ['expired', 'timed_out'],
    ];
    for (const [word, phase] of cases) assert.equal(toScanPhase(word), phase, word);
  });

  it('treats an unknown word as running, not terminal, and says it is unknown', () => {
    const scan = toScan({ id: 's1', status: 'Reticulating', progress: '42' });
    assert.equal(scan.phase, 'running');
    assert.equal(scan.knownStatus, false);
    assert.equal(scan.terminal, false);
    assert.equal(scan.progress, 42);
    assert.equal(toScan({ status: 'COMPLETED' }).terminal, true);
    assert.equal(toScan(null, 'x').id, 'x');
    assert.equal(toScan({ status: 7 }).status, '');
  });

  it("finds a scan's counts by their shape: numbers keyed by result words, under any name", () => {
    const cases: Array<[Record<string, unknown>, number | undefined]> = [
      [{ summary: { total: 40, failed: 5 } }, 40],
      [{ counts: { total: '12', failed: '3' } }, 12],
      [{ results: { totalChecks: '40', failedChecks: '5' } }, 40],
      [{ stats: { passed: 30, failed: 5, skipped: 5 } }, 40],
      [{ totalChecks: 33, failedChecks: 1 }, 33],
      [{ results: [{ id: 'a finding' }], summary: { total: 2, failed: 1 } }, 2],
      // Names we have never seen: the shape decides.
      [{ outcome: { Passed: 30, Failed: 4, NotApplicable: 6 } }, 40],
      [{ checkResults: { pass: '7', fail: '2', error: '1' } }, 10],
      [{ tally: { num_passed: 3, num_failed: 1 } }, 4],
      // A total without any result word is not a count of results.
      [{ totals: { checks: 9 } }, undefined],
      [{ count: 7 }, undefined],
      [{ summary: { total: 'many' } }, undefined],
      [{}, undefined],
    ];
    for (const [raw, total] of cases) {
      assert.equal(
        toScan({ id: 's', status: 'completed', ...raw }).summary?.total,
        total,
        JSON.stringify(raw),
      );
    }
    assert.equal(toScan({ counts: { failures: '4' } }).summary?.failed, 4);
    // The object with the most result words wins over one that merely has a failed number.
    const both = toScan({ meta: { failed: 1 }, report: { passed: 8, failed: 3, skipped: 1 } });
    assert.deepEqual(both.summary, { passed: 8, failed: 3, skipped: 1, total: 12 });
    // Severity counts are not result counts.
    assert.equal(toScan({ bySeverity: { critical: 1, high: 2 } }).summary, undefined);
  });

  it('reads report states case-insensitively and leaves unknown ones unknown', () => {
    assert.equal(toReportState('READY'), 'ready');
    assert.equal(toReportState('org_name_required'), 'orgNameRequired');
    assert.equal(toReportState('orgNameRequired'), 'orgNameRequired');
    assert.equal(toReportState('Locked'), 'locked');
    assert.equal(toReportState('archived'), 'unknown');
    assert.equal(toReportState(undefined), 'unknown');
  });
});

describe('describeFinding', () => {
  it('uses the contract fallbacks', () => {
    assert.equal(describeFinding({ id: '1', title: 'T', name: 'N' }).title, 'T');
    assert.equal(describeFinding({ id: '1', name: 'N', checkTitle: 'C' }).title, 'N');
    assert.equal(describeFinding({ id: '1', checkTitle: 'C', checkId: 'K' }).title, 'C');
    assert.equal(describeFinding({ id: '1', checkId: 'K' }).title, 'K');
    assert.equal(describeFinding({ id: '1' }).title, '1');
    const alt = describeFinding({
      id: '2',
      name: 'MFA',
      level: 'HIGH',
      group: 'Identity',
      fix: 'Enable',
      url: 'https://d',
    });
    assert.deepEqual(
      [alt.severity, alt.category, alt.remediation, alt.reference],
      ['high', 'Identity', 'Enable', 'https://d'],
    );
    assert.equal(describeFinding({ riskLevel: 'Moderate' }).severity, 'medium');
    assert.equal(describeFinding({ severity: 'bogus', level: 'Critical' }).severity, 'critical');
  });

  it('never throws on odd input', () => {
    for (const odd of [
      null,
      undefined,
      42,
      'x',
      [],
      { title: 5, severity: {}, result: null },
      { title: { a: 1 } },
    ]) {
      const view = describeFinding(odd as never);
      assert.equal(typeof view.title, 'string');
      assert.equal(view.severity === 'unknown' || typeof view.severity === 'string', true);
    }
  });

  it("reads Maester's shape: testId is the identity, block the category, helpUrl the help", () => {
    const view = describeFinding({
      testId: 'MT.1001',
      name: 'At least one Conditional Access policy is configured with device compliance',
      result: 'Failed',
      severity: 'High',
      helpUrl: 'https://maester.dev/docs/tests/MT.1001',
      block: 'Conditional Access',
    });
    assert.deepEqual(
      [view.identity, view.id, view.severity, view.category, view.reference],
      [
        'MT.1001',
        'MT.1001',
        'high',
        'Conditional Access',
        'https://maester.dev/docs/tests/MT.1001',
      ],
    );
    assert.match(view.title, /^At least one Conditional Access policy/);
  });

  it('one identity: the first identity field given, else derived from the check, never shared', () => {
    assert.equal(describeFinding({ checkId: ' K-1 ', testId: 'T', id: 'i' }).identity, 'K-1');
    assert.equal(describeFinding({ ruleId: 'R-1', id: 'i' }).identity, 'R-1');
    assert.equal(describeFinding({ id: 'i', name: 'N' }).identity, 'i');
    const a = describeFinding({ title: 'Audit log on', category: 'Logging', result: 'Failed' });
    const b = describeFinding({ title: 'MFA on', category: 'Identity', result: 'Failed' });
    const again = describeFinding({ title: 'Audit log on', category: 'Logging', result: 'Passed' });
    assert.match(a.identity, /^check-[0-9a-f]{12}$/);
    assert.notEqual(a.identity, b.identity, 'two checks never share an identity');
    assert.equal(a.identity, again.identity, 'the same check keeps it, whatever its result');
    assert.equal(a.id, a.identity);
    const bare = [{ severity: 'high' }, { severity: 'low' }, null].map((f) =>
      describeFinding(f as never),
    );
    assert.equal(new Set(bare.map((f) => f.identity)).size, 3, 'nothing but a severity differs');
    assert.ok(bare.every((f) => f.identity !== ''));
  });

  it('isFailedFinding compares result case-insensitively', () => {
    assert.equal(isFailedFinding({ result: 'Failed' }), true);
    assert.equal(isFailedFinding({ result: 'FAILED' }), true);
    assert.equal(isFailedFinding({ result: 'Passed' }), false);
    assert.equal(isFailedFinding({ result: 1 }), false);
    assert.equal(isFailedFinding(null as never), false);
  });
});

describe('PollPlanner', () => {
  const half = () => 0.5;
  const snap = (status: string, progress: number | undefined, phase: 'pending' | 'running') => ({
    status,
    progress,
    phase,
  });

  it('reads soon after the trigger: a scan already done is seen well under a second later', () => {
    const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 30_000, random: half });
    planner.observe(snap('queued', 0, 'pending'), 0);
    assert.ok(planner.nextDelay(0) < 500);
  });

  it('aims just after the end once two predictions agree', () => {
    const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 15_000, random: half });
    planner.observe(snap('running', 10, 'running'), 0);
    planner.observe(snap('running', 30, 'running'), 2_000); // 10 %/s
    planner.observe(snap('running', 50, 'running'), 4_000); // still 10 %/s: 49.5 % left = 4.95 s
    const delay = planner.nextDelay(4_000);
    assert.ok(delay >= 4_950 && delay <= 5_500, String(delay));
  });

  it('keeps to the fallback while the only prediction is not confirmed yet', () => {
    const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 60_000, random: half });
    planner.observe(snap('running', 10, 'running'), 0);
    planner.observe(snap('running', 11, 'running'), 1_000); // 1 %/s: 88.5 s left, one prediction
    assert.equal(planner.nextDelay(1_000), FALLBACK_INTERVAL_MS);
  });

  it('polls at the fallback, never sparser, while nothing predicts the end (no progress)', () => {
    const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 30_000, random: half });
    planner.observe(snap('queued', undefined, 'pending'), 0);
    planner.nextDelay(0);
    for (let t = 300; t < 60_000; t += FALLBACK_INTERVAL_MS) {
      planner.observe(snap('running', undefined, 'running'), t);
      assert.equal(planner.nextDelay(t), FALLBACK_INTERVAL_MS);
    }
  });

  it('a stall proves a trusted prediction wrong: back to the fallback', () => {
    const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 30_000, random: half });
    planner.observe(snap('running', 5, 'running'), 0);
    planner.observe(snap('running', 7, 'running'), 2_000);
    planner.observe(snap('running', 9, 'running'), 4_000); // 1 %/s, trusted: aimed up to 30 s away
    assert.equal(planner.nextDelay(4_000), 30_000);
    planner.observe(snap('running', 9, 'running'), 34_000); // 30 points expected, none came
    assert.equal(planner.nextDelay(34_000), FALLBACK_INTERVAL_MS);
  });

  // The rule against simulated scans of 40–60 s (test/helpers/poll-simulation.ts): for every shape,
  // with and without sub-second timestamps, never worse than a 5 s loop.
  const TARGETS: Record<string, { median: number; reads: number }> = {
    linear: { median: 1_500, reads: 1 },
    'back-loaded': { median: 2_500, reads: 1.25 },
    'front-loaded': { median: 2_500, reads: 1.25 },
    stalled: { median: 2_500, reads: 1.25 },
    none: { median: 2_500, reads: 1.25 },
  };
  for (const [shape, target] of Object.entries(TARGETS)) {
    it(`${shape} progress: median delay ≤ ${target.median / 1000} s, worst ≤ 6 s, reads ≤ ×${target.reads} a 5 s loop`, () => {
      let seed = 7;
      const random = () => (seed = (seed * 1664525 + 1013904223) >>> 0) / 2 ** 32;
      for (const timestamps of [true, false]) {
        const planner: WaitOutcome[] = [];
        const loop: WaitOutcome[] = [];
        for (let i = 0; i < 200; i++) {
          const scan = {
            shape: shape as ProgressShape,
            durationMs: 40_000 + 100 * i,
            queuedMs: 1_000,
            timestamps,
          };
          planner.push(simulatePlanner(scan, { random }));
          loop.push(simulateLoop({ ...scan, durationMs: scan.durationMs + 25 * i }));
        }
        const delays = planner.map((o) => o.delayMs).sort((a, b) => a - b);
        const reads = (xs: WaitOutcome[]) => xs.reduce((n, o) => n + o.reads, 0);
        const where = `${shape}, timestamps ${timestamps}`;
        assert.ok(delays[100]! <= target.median, `${where}: median ${delays[100]} ms`);
        assert.ok(delays.at(-1)! <= 6_000, `${where}: worst ${delays.at(-1)} ms`);
        const ratio = reads(planner) / reads(loop);
        assert.ok(ratio <= target.reads, `${where}: reads ×${ratio.toFixed(2)}`);
      }
    });
  }

  describe('with the start placed from the server timestamps', () => {
    const T0 = Date.parse('2026-11-22T10:00:00.000Z');
    const at = (ms: number) => new Date(T0 + ms).toISOString();
    const queued = { ...snap('queued', 0, 'pending'), createdAt: at(0) };
    const running = (progress: number, startedAt = at(1_000)) => ({
      ...snap('running', progress, 'running'),
      createdAt: at(0),
      startedAt,
    });
    const planner = () =>
      new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs: 30_000, random: half });

    it('one running snapshot predicts the end; once the next agrees, the poll lands just after it', () => {
      const p = planner();
      p.observe(queued, 0); // arrived at local 0: created at or before it
      p.observe(running(11), 2_000); // started ≤ local 1 000; 11 % in ≤ 1 s → ends by ~10.1 s
      assert.equal(p.predictedRemaining(2_000)! > 7_500, true);
      assert.equal(p.nextDelay(2_000), FALLBACK_INTERVAL_MS, 'one prediction: not trusted yet');
      p.observe(running(58), 6_250); // the same rate: the end is confirmed at ~10.1 s
      const delay = p.nextDelay(6_250);
      assert.ok(delay >= 3_700 && delay <= 4_300, String(delay));
    });

    it('a first running snapshot late in the scan: the next poll comes just after the end', () => {
      const p = planner();
      p.observe(queued, 0);
      p.observe(running(50), 2_000); // 50 % (read as 50.5) 1 s after the start: ~1 s to go
      const delay = p.nextDelay(2_000);
      assert.ok(delay >= 1_000 && delay <= 1_400, String(delay));
    });

    it('ignores second-resolution timestamps: they cannot place a start within a second', () => {
      const p = planner();
      p.observe({ ...queued, createdAt: '2026-11-22T10:00:00Z' }, 0);
      p.observe(running(11, '2026-11-22T10:00:01Z'), 2_000);
      assert.equal(p.predictedRemaining(2_000), undefined);
    });

    it('drops a start that contradicts what was seen (a server clock faster than ours)', () => {
      const p = planner();
      p.observe(queued, 0);
      p.observe(running(11, at(5_000)), 2_000); // "started" 5 s after creation, seen at 2 s
      assert.equal(p.predictedRemaining(2_000), undefined);
      const q = planner();
      q.observe(queued, 0);
      q.observe(queued, 1_500); // still queued at 1.5 s, yet "started" at 1 s
      q.observe(running(11), 2_000);
      assert.equal(q.predictedRemaining(2_000), undefined);
    });
  });

  it('is dense when progress reached 100 but the status is not terminal yet', () => {
    const planner = new PollPlanner({ minIntervalMs: 500, maxIntervalMs: 15_000, random: half });
    planner.observe(snap('running', 90, 'running'), 0);
    planner.observe(snap('running', 100, 'running'), 1_000);
    assert.equal(planner.nextDelay(1_000), 500);
  });
});
