// The campaign's scenario generator: a seed always gives the same run, and over a few hundred
// seeds every kind of fault, route, variant and cancellation the campaign promises is drawn.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  API_ROUTES,
  DOWNLOAD_ROUTE,
  generateScenario,
  isHostile,
  type Scenario,
} from './scenario.js';

const SEEDS = Array.from({ length: 1200 }, (_, i) => 20261121 + i);
const scenarios: Scenario[] = SEEDS.map(generateScenario);

function drawn(label: (s: Scenario) => string[]): Set<string> {
  return new Set(scenarios.flatMap(label));
}

describe('fault campaign scenarios', () => {
  it('are reproducible from their seed and differ between seeds', () => {
    assert.deepEqual(generateScenario(42), generateScenario(42));
    assert.notDeepEqual(generateScenario(42), generateScenario(43));
  });

  it('draw every fault kind, on every route the action uses and on the download origin', () => {
    const kinds = drawn((s) =>
      s.faults.map((f) => {
        const fault = f.fault;
        if (fault.kind === 'status') return `status ${fault.status}${fault.html ? ' html' : ''}`;
        if (fault.kind === 'reset') return `reset ${fault.when}`;
        return fault.kind;
      }),
    );
    for (const kind of [
      'status 429',
      'status 503',
      'status 502 html',
      'reset before',
      'reset mid-response',
      'delay',
      'truncate',
      'slow-body',
      'stall',
      'data',
      'endless-cursor',
      'drop-failed',
    ]) {
      assert.ok(kinds.has(kind), `fault ${kind}`);
    }
    const routes = drawn((s) => s.faults.map((f) => f.route));
    for (const route of [...API_ROUTES, DOWNLOAD_ROUTE])
      assert.ok(routes.has(route), `route ${route}`);
    const midResetRoutes = drawn((s) =>
      s.faults
        .filter((f) => f.fault.kind === 'reset' && f.fault.when === 'mid-response')
        .map((f) => f.route),
    );
    assert.ok(
      midResetRoutes.has('POST /tenants/me/scans'),
      'a reset after the trigger was handled',
    );
  });

  it('draw the hostile answers on every route, and hostile text; their runs get a short request timeout', () => {
    for (const kind of ['endless-body', 'huge-body', 'trickle', 'no-answer'] as const) {
      const routes = drawn((s) =>
        s.faults.filter((f) => f.fault.kind === kind).map((f) => f.route),
      );
      for (const route of API_ROUTES) assert.ok(routes.has(route), `${kind} on ${route}`);
      if (kind !== 'endless-body') assert.ok(routes.has(DOWNLOAD_ROUTE), `${kind} on the download`);
    }
    const huge = scenarios.flatMap((s) =>
      s.faults.flatMap((f) => (f.fault.kind === 'huge-body' ? [f.fault] : [])),
    );
    assert.ok(
      huge.some((f) => f.bytes > 64 * 2 ** 20 && !f.declared),
      'over the cap, chunked',
    );
    assert.ok(
      huge.some((f) => f.bytes > 64 * 2 ** 20 && f.declared),
      'over the cap, declared',
    );
    assert.ok(
      huge.some((f) => f.bytes < 64 * 2 ** 20),
      'under the cap',
    );
    assert.ok(
      scenarios.some((s) => s.variant.hostileText),
      'hostile text',
    );
    for (const s of scenarios.filter((x) => x.faults.some(isHostile))) {
      assert.ok(
        ['1', '2', '3'].includes(s.inputs['request-timeout-seconds'] ?? ''),
        `seed ${s.seed}: a hostile answer without a short request timeout`,
      );
    }
  });

  it('draw slow and stalled bodies on every route the action uses and on the download', () => {
    for (const kind of ['slow-body', 'stall'] as const) {
      const routes = drawn((s) =>
        s.faults.filter((f) => f.fault.kind === kind).map((f) => f.route),
      );
      for (const route of [...API_ROUTES, DOWNLOAD_ROUTE])
        assert.ok(routes.has(route), `${kind} on ${route}`);
    }
    const stalls = scenarios.flatMap((s) =>
      s.faults.flatMap((f) => (f.fault.kind === 'stall' ? [f.fault] : [])),
    );
    assert.ok(
      stalls.some((f) => f.ms === Infinity),
      'a stall that outlasts the timeout',
    );
    assert.ok(
      stalls.some((f) => Number.isFinite(f.ms) && f.afterBytes === 0),
      'a stall right after the headers',
    );
    assert.ok(
      stalls.some((f) => Number.isFinite(f.ms) && f.afterBytes > 0),
      'a stall part-way through a body',
    );
  });

  it('keep every slowed body within seconds: API bodies at >= 20 bytes/ms, downloads within ~6 s', () => {
    for (const s of scenarios) {
      const reportBytes = s.emulator.reportSizeBytes ?? 200_000;
      for (const { route, fault, times } of s.faults) {
        if (fault.kind === 'slow-body' && route === DOWNLOAD_ROUTE) {
          const seconds = (Math.ceil(reportBytes / fault.bytesPerChunk) * fault.intervalMs) / 1000;
          assert.ok(seconds <= 6.1, `seed ${s.seed}: a download slowed to ${seconds} s`);
        } else if (fault.kind === 'slow-body') {
          assert.ok(fault.bytesPerChunk / fault.intervalMs >= 20, `seed ${s.seed}: ${route}`);
          assert.ok((times ?? 1) <= 3, `seed ${s.seed}: ${route} slowed ${times} times`);
        }
        if (fault.kind === 'stall' && Number.isFinite(fault.ms)) {
          assert.ok(fault.ms <= 1_500, `seed ${s.seed}: a stall of ${fault.ms} ms`);
        }
      }
    }
  });

  it('draw Retry-After absent, in seconds and as an HTTP date', () => {
    const forms = drawn((s) =>
      s.faults.flatMap((f) =>
        f.fault.kind === 'status' && f.fault.status === 429
          ? [
              f.fault.retryAfter === undefined
                ? 'none'
                : typeof f.fault.retryAfter === 'number'
                  ? 'seconds'
                  : 'date',
            ]
          : [],
      ),
    );
    assert.deepEqual([...forms].sort(), ['date', 'none', 'seconds']);
  });

  it('draw every variant of the unknowns', () => {
    const values = drawn((s) =>
      Object.entries(s.variant).map(
        ([k, v]) => `${k}=${String(k === 'resultsPageSize' ? 'n' : v)}`,
      ),
    );
    for (const expected of [
      'statusVocabulary=upper',
      'statusVocabulary=alt',
      'countsShape=renamed',
      'countsShape=none',
      'hostileMarkdown=true',
      'echoKey=true',
      'hostileScanIds=true',
      'findingShape=alt',
      'findingShape=sparse',
      'findingShape=maester',
      'errorShape=flat',
      'errorShape=string',
      'errorShape=empty',
      'errorShape=html',
      'errorShape=text',
      'downloadAddress=url',
      'downloadAddress=presignedUrl',
      'downloadAddress=href',
      'downloadAddress=redirect302',
      'downloadAddress=redirect303',
      'resultsPageSize=n',
      'ignoreResultFilter=true',
      'planLimitStatus=402',
      'planLimitStatus=403',
    ]) {
      assert.ok(values.has(expected), expected);
    }
  });

  it('draw clock skew in runs with a history that trigger: a scan dated ahead, one before 2000, a 1970 clock', () => {
    const kinds = drawn((s) => [
      ...(s.history ?? []).flatMap((h) =>
        h.skewHours === undefined ? [] : [h.skewHours > 0 ? 'ahead' : 'ancient'],
      ),
      ...(s.emulator.epochMs === undefined ? [] : ['epoch']),
    ]);
    assert.deepEqual([...kinds].sort(), ['ahead', 'ancient', 'epoch']);
    for (const s of scenarios) {
      const skewed = s.emulator.epochMs !== undefined || (s.history ?? []).some((h) => h.skewHours);
      if (!skewed) continue;
      assert.ok(s.history && !s.existingScan, `seed ${s.seed}`);
      for (const h of s.history) {
        // Ahead: dated hours after the seeding moment, so after the run's own scan.
        if (h.skewHours && h.skewHours > 0) assert.ok(h.skewHours > h.ageDays * 24 + 2);
      }
    }
  });

  it('aim a cancel at the download: a ready report to follow, slowed past the cancel moment', () => {
    const aimed = scenarios.filter((s) => s.cancel.duringDownload);
    assert.ok(aimed.length > 0);
    for (const s of aimed) {
      assert.equal(s.existingScan?.reportReady, true, `seed ${s.seed}`);
      assert.notEqual(s.inputs.report, 'none', `seed ${s.seed}`);
      assert.equal(s.emulator.downloadTtlMs, 60_000, `seed ${s.seed}`);
      assert.equal(s.badKey, false, `seed ${s.seed}`);
      const [first] = s.faults;
      assert.equal(first?.route, DOWNLOAD_ROUTE, `seed ${s.seed}`);
      assert.equal(first?.fault.kind, 'slow-body', `seed ${s.seed}`);
      if (first?.fault.kind !== 'slow-body') continue;
      const bytes = s.emulator.reportSizeBytes ?? 0;
      const lastsMs = Math.ceil(bytes / first.fault.bytesPerChunk) * first.fault.intervalMs;
      assert.ok(
        typeof s.cancel.after === 'number' && s.cancel.after + 1_000 <= lastsMs,
        `seed ${s.seed}: cancel at ${String(s.cancel.after)} ms, download lasts ${lastsMs} ms`,
      );
      assert.ok(
        s.faults.slice(1).every((f) => f.route === 'POST /scans/:id/cancel'),
        `seed ${s.seed}: nothing slows the run before the download`,
      );
    }
  });

  it('draw every report mode, cancellation, scan outcome and the environment faults', () => {
    assert.deepEqual([...drawn((s) => [s.inputs.report ?? ''])].sort(), [
      'generate',
      'if-ready',
      'none',
    ]);
    assert.deepEqual([...drawn((s) => [s.cancel.kind])].sort(), ['kill', 'none', 'sigint']);
    const moments = drawn((s) => [String(s.cancel.after)]);
    assert.ok(moments.has('triggered') && moments.has('report'), 'at the trigger and the report');
    const duringDownload = drawn((s) => (s.cancel.duringDownload ? [s.cancel.kind] : []));
    assert.deepEqual([...duringDownload].sort(), ['kill', 'sigint'], 'while downloading');
    const outcomes = drawn((s) => [s.tenant.scanPlan?.outcome?.kind ?? '']);
    assert.deepEqual([...outcomes].sort(), ['completed', 'failed', 'stuck']);
    assert.ok(
      scenarios.some((s) => s.existingScan),
      'follows an existing scan',
    );
    assert.ok(
      scenarios.some((s) => s.bystander),
      "another job's scan runs",
    );
    assert.ok(
      scenarios.some((s) => s.inputs.wait === 'false'),
      'wait: false',
    );
    assert.ok(
      scenarios.some((s) => (s.emulator.warmupMs ?? 0) > 0),
      'warm-up',
    );
    assert.ok(
      scenarios.some((s) => (s.emulator.downloadTtlMs ?? 60_000) < 1_000),
      'short-lived download addresses',
    );
    assert.ok(
      scenarios.some((s) => s.rateLimit.kind === 'account'),
      'account rate limit',
    );
    assert.ok(
      scenarios.some((s) => s.rateLimit.kind === 'per-key'),
      'per-key rate limit',
    );
    assert.ok(
      scenarios.some((s) => s.tenant.name === null),
      'no organisation name',
    );
    assert.ok(
      scenarios.some((s) => s.badKey),
      'unknown key',
    );
    for (const mode of ['one', 'per-finding']) {
      assert.ok(
        scenarios.some((s) => s.foreignMarkers && s.inputs['tracking-issue'] === mode),
        `an outsider's issues carrying our markers, with tracking-issue ${mode}`,
      );
    }
    assert.ok(
      scenarios.some((s) => s.foreignMarkers && s.pullRequest && s.inputs['pr-comment'] === 'true'),
      "an outsider's PR comment carrying our marker",
    );
  });
});
