// The campaign's scenario generator: a seed always gives the same run, and over a few hundred
// seeds every kind of fault, route, variant and cancellation the campaign promises is drawn.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { API_ROUTES, DOWNLOAD_ROUTE, generateScenario, type Scenario } from './scenario.js';

const SEEDS = Array.from({ length: 400 }, (_, i) => 20261121 + i);
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
      'findingShape=alt',
      'findingShape=sparse',
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

  it('draw every report mode, cancellation, scan outcome and the environment faults', () => {
    assert.deepEqual([...drawn((s) => [s.inputs.report ?? ''])].sort(), [
      'generate',
      'if-ready',
      'none',
    ]);
    assert.deepEqual([...drawn((s) => [s.cancel.kind])].sort(), ['kill', 'none', 'sigint']);
    const moments = drawn((s) => [String(s.cancel.after)]);
    assert.ok(moments.has('triggered') && moments.has('report'), 'at the trigger and the report');
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
  });
});
