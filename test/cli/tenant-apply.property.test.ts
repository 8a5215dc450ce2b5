// Guarantee 16, "An apply says what it changed" (docs/guarantees.md): for any tenant (notification
// flags, targets with labels and verification) and any .tenant-scan/tenant.yml (flags, targets to
// add, relabel, verify, prune), and any schedule of faults on the writes (5xx before and after
// the service acted, gateway pages, a connection reset before or after it, a truncated answer,
// refusals, a target gone or refused as invalid) and on the plan after them, `tenant apply` lists
// every change its plan needed, each as it ended, consistent with the emulator's truth: done is in
// effect; refused, failed and not-attempted are not (an add that happened says the target was
// added); not-attempted was never sent; unknown only when a write of that change met a 5xx or a
// lost answer; refused only after a 403. A second apply without faults finishes the job. In
// process over runSettings (the core both faces call); the exit code (1 exactly when a change did
// not end done or refused) through the bundled CLI a few times.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { createClient } from '../../src/client/index.js';
import type { Applied } from '../../src/pipeline/tenant-settings/apply.js';
import { describeChange } from '../../src/pipeline/tenant-settings/apply.js';
import { planTenant } from '../../src/pipeline/tenant-settings/plan.js';
import { readTenant } from '../../src/pipeline/tenant-settings/read.js';
import {
  ReplanFailed,
  prepareSettings,
  runSettings,
} from '../../src/pipeline/tenant-settings/run.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, Fault, LoggedRequest } from '../emulator/types.js';
import { propertyParameters } from '../helpers/property.js';
import { inEffect, readTruth, type Truth } from '../helpers/tenant-settings-truth.js';
import { cliEnv, runCli } from './helpers.js';

const FLAGS = ['emailOnComplete', 'emailOnFail', 'teamsOnComplete', 'teamsOnFail'] as const;
const HOSTS = ['a', 'b', 'c', 'd', 'e'].map((h) => `${h}.example.com`);
const TARGETS = '/tenants/me/attack-surface/targets';
const WRITE_ROUTES = [
  'PATCH /tenants/me/notifications',
  `POST ${TARGETS}`,
  `PATCH ${TARGETS}/:id`,
  `DELETE ${TARGETS}/:id`,
  `POST ${TARGETS}/:id/verify`,
] as const;
/** Retry pauses shortened; the rules are the client's. */
const QUICK_RETRY = { baseDelayMs: 10, maxDelayMs: 50 } as const;

/** Faults of one request: the service may or may not have acted. */
const transientFault = fc.constantFrom<Fault>(
  { kind: 'status', status: 500 },
  { kind: 'status', status: 500, afterHandler: true },
  { kind: 'status', status: 502, html: true },
  { kind: 'status', status: 503, afterHandler: true },
  { kind: 'reset', when: 'before' },
  { kind: 'reset', when: 'mid-response' },
  { kind: 'truncate' },
);

/** Answers that hold for every request of a route, as a real service's do: the key may not make
 *  the change, the target is gone, the value is refused. (A refusal that came only after the
 *  service had acted on the same request would be a service that contradicts itself.) */
const refusal = fc.constantFrom<Fault>(
  { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
  { kind: 'status', status: 404, code: 'NOT_FOUND' },
  { kind: 'status', status: 400, code: 'VALIDATION_ERROR' },
);

const flagValues = fc.record(
  Object.fromEntries(FLAGS.map((f) => [f, fc.boolean()])) as Record<
    (typeof FLAGS)[number],
    fc.Arbitrary<boolean>
  >,
);

const drawn = fc.record({
  flags: flagValues,
  wantedFlags: fc.subarray([...FLAGS]).chain((names) =>
    fc.tuple(...names.map(() => fc.boolean())).map((values) => {
      const wanted: Record<string, boolean> = {};
      names.forEach((name, i) => (wanted[name] = values[i] ?? false));
      return wanted;
    }),
  ),
  targets: fc.subarray(HOSTS).chain((hosts) =>
    fc.tuple(
      ...hosts.map((host) =>
        fc.record({
          host: fc.constant(host),
          label: fc.constantFrom(null, 'old', 'prod'),
          verified: fc.boolean(),
        }),
      ),
    ),
  ),
  wantedTargets: fc.subarray(HOSTS).chain((hosts) =>
    fc.tuple(
      ...hosts.map((host) =>
        fc.record(
          {
            host: fc.constant(host),
            label: fc.constantFrom('prod', 'new'),
            verify: fc.constant(true),
          },
          { requiredKeys: ['host'] },
        ),
      ),
    ),
  ),
  prune: fc.boolean(),
  faults: fc.array(
    fc.record({
      route: fc.constantFrom(...WRITE_ROUTES),
      after: fc.constantFrom(0, 0, 1, 2),
      fault: transientFault,
    }),
    { maxLength: 3 },
  ),
  refusals: fc.array(fc.record({ route: fc.constantFrom(...WRITE_ROUTES), fault: refusal }), {
    maxLength: 1,
  }),
  replanFails: fc.constantFrom(false, false, false, false, true),
});
type Drawn = typeof drawn extends fc.Arbitrary<infer T> ? T : never;

const FLAGS_OFF = {
  emailOnComplete: false,
  emailOnFail: false,
  teamsOnComplete: false,
  teamsOnFail: false,
};
/** What the property found, tried first in every run: a 503 after the service acted said
 *  "failed" for an add it made, and for a prune's removal (the DELETE retried, then 404). */
const FOUND: Drawn[] = [
  {
    flags: FLAGS_OFF,
    wantedFlags: {},
    targets: [],
    wantedTargets: [{ host: 'e.example.com' }],
    prune: false,
    faults: [
      {
        route: `POST ${TARGETS}`,
        after: 0,
        fault: { kind: 'status', status: 503, afterHandler: true },
      },
    ],
    refusals: [],
    replanFails: false,
  },
  {
    flags: FLAGS_OFF,
    wantedFlags: {},
    targets: [{ host: 'd.example.com', label: null, verified: false }],
    wantedTargets: [],
    prune: true,
    faults: [
      {
        route: `DELETE ${TARGETS}/:id`,
        after: 0,
        fault: { kind: 'status', status: 503, afterHandler: true },
      },
    ],
    refusals: [],
    replanFails: false,
  },
];

function tenantYaml(d: Drawn): string {
  return [
    `notifications: ${JSON.stringify(d.wantedFlags)}`,
    'attackSurface:',
    `  prune: ${d.prune}`,
    `  targets: ${JSON.stringify(d.wantedTargets)}`,
    '',
  ].join('\n');
}

/** The write requests that belong to a change (an add's POST may carry no body when a fault hit
 *  it before the body was read: such a POST is counted for every add). */
function requestsOf(change: string, writes: LoggedRequest[], before: Truth, after: Truth) {
  const idOf = (host: string) =>
    [...before.targets, ...after.targets].find((t) => t.host === host)?.id ?? '\0';
  const host = /target (\S+)/.exec(change)?.[1] ?? '';
  if (change.startsWith('notifications: '))
    return writes.filter((r) => r.path === '/tenants/me/notifications');
  if (change.startsWith('add target ')) {
    const id = idOf(host);
    return writes.filter(
      (r) =>
        (r.path === TARGETS && (r.body === undefined || r.body.host === host)) ||
        r.path.startsWith(`${TARGETS}/${id}`),
    );
  }
  const path = `${TARGETS}/${idOf(host)}`;
  if (change.startsWith('verify target '))
    return writes.filter((r) => r.method === 'POST' && r.path === `${path}/verify`);
  const method = change.startsWith('remove target ') ? 'DELETE' : 'PATCH';
  return writes.filter((r) => r.method === method && r.path === path);
}

const LOST_OR_5XX = new Set(['reset', 'truncate']);

/** Every way a listed outcome may disagree with the truth; [] when none does. */
function disagreements(
  applied: Applied[],
  needed: string[],
  writes: LoggedRequest[],
  before: Truth,
  after: Truth,
): string[] {
  const problems: string[] = [];
  const listed = applied.map((a) => a.change);
  if (JSON.stringify(listed) !== JSON.stringify(needed))
    problems.push(`lists ${JSON.stringify(listed)}, the plan needed ${JSON.stringify(needed)}`);
  for (const a of applied) {
    const own = requestsOf(a.change, writes, before, after);
    const effect = inEffect(a.change, after);
    const addedAnyway =
      a.change.startsWith('add target ') &&
      after.targets.some((t) => t.host === /target (\S+)/.exec(a.change)?.[1]);
    if (a.outcome === 'done' && !effect) problems.push(`"${a.change}" says done, not in effect`);
    if (['refused', 'failed', 'not-attempted'].includes(a.outcome)) {
      if (addedAnyway ? !/was added/.test(a.detail ?? '') : effect && !inEffect(a.change, before))
        problems.push(`"${a.change}" says ${a.outcome}, yet it is in effect`);
    }
    if (
      a.outcome === 'not-attempted' &&
      own.some((r) => r.body !== undefined || !a.change.startsWith('add'))
    )
      problems.push(`"${a.change}" says not-attempted, yet it was sent`);
    if (
      a.outcome === 'unknown' &&
      !own.some((r) => (r.fault !== undefined && LOST_OR_5XX.has(r.fault)) || r.status >= 500)
    )
      problems.push(`"${a.change}" says unknown, yet no write of it met a 5xx or a lost answer`);
    if (a.outcome === 'refused' && !own.some((r) => r.status === 403))
      problems.push(`"${a.change}" says refused without a 403`);
  }
  return problems;
}

describe('guarantee 16: an apply says what it changed', () => {
  let emulator: Emulator;
  let dir: string;

  before(async () => {
    emulator = await startEmulator({ seed: 37, warmupMs: 0 });
    dir = await mkdtemp(join(tmpdir(), 'tenant-scan-apply-'));
  });
  after(async () => {
    await emulator.close();
    await rm(dir, { recursive: true, force: true });
  });

  /** A tenant as drawn, its file, and the change lines its plan needs. */
  async function setUp(d: Drawn) {
    emulator.clearFaults();
    const { tenantId, apiKey } = emulator.addTenant({ notifications: d.flags, targets: d.targets });
    const file = join(dir, `${tenantId}.yml`);
    await writeFile(file, tenantYaml(d));
    const prepared = await prepareSettings(file, {});
    const client = createClient({ apiKey, baseUrl: emulator.url, retry: QUICK_RETRY });
    const needed = planTenant(await readTenant(client), prepared.desired, Date.now()).changes.map(
      describeChange,
    );
    const before = await readTruth(emulator, apiKey);
    const refused = new Set(d.refusals.map(({ route }) => route));
    for (const { route, fault } of d.refusals)
      emulator.addFault({ route, fault, times: Infinity, key: apiKey });
    for (const { route, after, fault } of d.faults)
      if (!refused.has(route)) emulator.addFault({ route, after, fault, times: 1, key: apiKey });
    if (d.replanFails) {
      // The plan before the writes reads the notifications once; the plan after them cannot.
      emulator.addFault({
        route: 'GET /tenants/me/notifications',
        after: 1,
        times: Infinity,
        key: apiKey,
        fault: { kind: 'status', status: 401, code: 'AUTH_INVALID_KEY' },
      });
    }
    emulator.clearRequests();
    return { apiKey, file, prepared, client, needed, before };
  }

  function writesOf(apiKey: string): LoggedRequest[] {
    return emulator
      .requests()
      .filter((r) => r.method !== 'GET' && r.headers.authorization === `Bearer ${apiKey}`);
  }

  async function runOnce(d: Drawn): Promise<void> {
    const { apiKey, prepared, client, needed, before } = await setUp(d);
    try {
      const outcome: { applied: Applied[]; replan?: ReplanFailed } = await runSettings({
        client,
        prepared,
        apply: true,
      }).then(
        ({ doc }) => ({ applied: doc.applied ?? [] }),
        (error: unknown) => {
          if (error instanceof ReplanFailed) return { applied: error.applied, replan: error };
          // Nothing to write, and the plan after (nothing) could not be read: the plain error.
          if (d.replanFails && needed.length === 0) return { applied: [] };
          throw error;
        },
      );
      const writes = writesOf(apiKey);
      emulator.clearFaults();
      const after = await readTruth(emulator, apiKey);
      const shown = `${JSON.stringify(d)}\n${JSON.stringify(outcome.applied, null, 1)}`;
      const problems = disagreements(outcome.applied, needed, writes, before, after);
      // A plan after the writes that fails lists each write in its one line.
      if (outcome.replan) {
        for (const a of outcome.applied)
          if (!outcome.replan.message.includes(`${a.outcome}: ${a.change}`))
            problems.push(`the error line leaves out "${a.change}"`);
      }
      assert.deepEqual(problems, [], shown);
      // A second apply, without faults, finishes the job.
      const { doc: second } = await runSettings({ client, prepared, apply: true });
      assert.deepEqual(
        (second.applied ?? []).filter((a) => a.outcome !== 'done'),
        [],
        `the second apply: ${shown}`,
      );
      assert.deepEqual(second.drift, [], `drift after the second apply: ${shown}`);
    } finally {
      await client.close();
    }
  }

  it('each change is listed as it ended, consistent with the emulator, and a second apply finishes the job', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, (d) => runOnce(d)),
      propertyParameters(40, { examples: FOUND.map((d) => [d]) }),
    );
  });

  it('the bundled CLI exits 1 exactly when a change did not end done or refused', async () => {
    await fc.assert(
      fc.asyncProperty(drawn, async (d) => {
        const { apiKey, file, client } = await setUp(d);
        await client.close();
        const env = cliEnv(emulator, { SERVICE_API_KEY: apiKey });
        const result = await runCli(['tenant', 'apply', '--file', file, '--output', 'json'], env);
        emulator.clearFaults();
        const shown = `${JSON.stringify(d)}\nexit ${result.code}\n${result.stdout}${result.stderr}`;
        if (!result.stdout) {
          // The plan after the writes failed (or nothing could be read): one error line, exit 1.
          assert.equal(result.code, 1, shown);
          return;
        }
        const applied = (JSON.parse(result.stdout) as { applied?: Applied[] }).applied ?? [];
        const broken = applied.some((a) => a.outcome !== 'done' && a.outcome !== 'refused');
        assert.equal(result.code === 1, broken, shown);
        if (!broken) assert.ok(result.code === 0 || result.code === 2, shown);
      }),
      // First an apply with an unknown change (it must exit 1), then drawn ones.
      propertyParameters(3, { examples: FOUND.slice(0, 1).map((d) => [d]) }),
    );
  });
});
