// tenant plan / tenant apply, run as the bundled CLI against the emulator: drift, hygiene codes,
// exit codes, one PATCH of only the fields that differ, a refused write, a failure halfway.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, TenantSeed } from '../emulator/types.js';
import { ROOT, assertBundleBuilt, cliEnv, runCli, type CliResult } from './helpers.js';

const DAY = 86_400_000;
const HOOK =
  'https://prod-07.westeurope.logic.azure.com:443/workflows/0a1b/triggers/manual/paths/invoke?api-version=1&sig=SECRETSIGNATURE';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 36 });
  work = await mkdtemp(join(tmpdir(), 'tenant-settings-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

interface PlanJson {
  tenant: string | null;
  drift: Array<{ area: string; field: string; current: unknown; desired: unknown }>;
  problems: Array<{ code: string; subject: string; detail: string }>;
  applied?: Array<{ change: string; outcome: string; detail?: string }>;
}

let files = 0;
async function tenantWith(yaml: string, seed: TenantSeed = {}) {
  const { tenantId, apiKey } = emu.addTenant(seed);
  const file = join(work, `tenant-${++files}.yml`);
  await writeFile(file, yaml);
  const run = async (args: string[], extra: Record<string, string> = {}): Promise<CliResult> =>
    runCli([...args, '--file', file], cliEnv(emu, { SERVICE_API_KEY: apiKey, ...extra }));
  const json = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await run([...args, '--output', 'json'], extra);
    return { result, doc: JSON.parse(result.stdout || '{}') as PlanJson };
  };
  return {
    tenantId,
    apiKey,
    run,
    json,
    requests: () =>
      emu.requests().filter((r) => r.keyId && r.headers.authorization === `Bearer ${apiKey}`),
  };
}

describe('tenant plan and apply', () => {
  it('names each hygiene problem of the issue tenant, exits 2; apply sends one PATCH of that field; plan is then clean of drift', async () => {
    const t = await tenantWith('notifications: {emailOnFail: true}\n', {
      notifications: { emailOnFail: false, teamsOnFail: false },
    });
    emu.addKey(t.tenantId, 'idle key', { ageMs: 200 * DAY, lastUsedAgoMs: 120 * DAY });
    emu.addKey(t.tenantId, 'ancient key', { ageMs: 400 * DAY, lastUsedAgoMs: DAY });
    emu.seedHistory([{ ageMs: 20 * DAY, failedChecks: [], scanType: 'compliance' }], t.tenantId);

    const { result, doc } = await t.json(['tenant', 'plan']);
    assert.equal(result.code, 2, result.stderr);
    assert.deepEqual(doc.drift, [
      { area: 'notifications', field: 'emailOnFail', current: false, desired: true },
    ]);
    const named = doc.problems.map((p) => `${p.code}: ${p.subject}`);
    for (const expected of [
      'failures-notify-nobody: notifications',
      'key-unused: idle key',
      'key-old: ancient key',
      'scan-stale: compliance scans',
    ]) {
      assert.ok(
        named.some((n) => n.startsWith(expected)),
        `${expected} in ${named.join(' | ')}`,
      );
    }
    assert.match(
      doc.problems.find((p) => p.code === 'key-unused')?.detail ?? '',
      /last used 120 days ago/,
    );

    const table = await t.run(['tenant', 'plan']);
    assert.equal(table.code, 2);
    assert.match(table.stdout, /notifications\.emailOnFail: false → true/);
    assert.match(table.stdout, /key-old\s+ancient key/);

    const before = t.requests().length;
    const applied = await t.json(['tenant', 'apply']);
    assert.equal(applied.result.code, 0, applied.result.stderr);
    const writes = t
      .requests()
      .slice(before)
      .filter((r) => r.method !== 'GET');
    assert.deepEqual(
      writes.map((r) => [r.method, r.path, r.body]),
      [['PATCH', '/tenants/me/notifications', { emailOnFail: true }]],
    );
    assert.deepEqual(applied.doc.applied, [
      { change: 'notifications: emailOnFail → true', outcome: 'done' },
    ]);
    assert.deepEqual(applied.doc.drift, []);
    assert.ok(!applied.doc.problems.some((p) => p.code === 'failures-notify-nobody'));

    const again = await t.json(['tenant', 'plan', '--fail-on', 'drift']);
    assert.equal(again.result.code, 0);
    assert.deepEqual(again.doc.drift, []);
  });

  it('the webhook address comes from its variable and never appears in full in any output', async () => {
    const t = await tenantWith(
      'notifications:\n  teamsWebhookUrlEnv: TEAMS_HOOK\n  teamsOnFail: true\n',
    );
    const env = { TEAMS_HOOK: HOOK };
    const outputs: CliResult[] = [];
    const plan = await t.json(['tenant', 'plan'], env);
    outputs.push(plan.result);
    assert.deepEqual(
      plan.doc.drift.find((d) => d.field === 'teamsWebhookUrl'),
      {
        area: 'notifications',
        field: 'teamsWebhookUrl',
        current: null,
        desired: 'https://prod-07.westeurope.logic.azure.com/…',
      },
    );
    outputs.push(await t.run(['tenant', 'apply'], env));
    const patch = emu
      .requests()
      .find((r) => r.method === 'PATCH' && r.body?.teamsWebhookUrl === HOOK);
    assert.ok(patch, 'the address was sent to the service');
    outputs.push(await t.run(['tenant', 'plan'], env));
    outputs.push((await t.json(['tenant', 'plan'], env)).result);
    for (const out of outputs) {
      assert.ok(!`${out.stdout}${out.stderr}`.includes('SECRETSIGNATURE'), out.stdout + out.stderr);
      assert.ok(!`${out.stdout}${out.stderr}`.includes('/workflows/'), out.stdout + out.stderr);
    }
    assert.equal(outputs.at(-1)?.code, 0);
  });

  it('a write the service refuses to a key is one line naming the setting; the rest still applies', async () => {
    const t = await tenantWith(
      'notifications: {emailOnComplete: false}\nattackSurface:\n  targets:\n    - {host: app.example.com, label: Production, verify: true}\n',
    );
    emu.setVariant({ notificationsPatch: 'dashboard-only' });
    try {
      const { result, doc } = await t.json(['tenant', 'apply']);
      assert.equal(result.code, 2, result.stderr);
      const refused = result.stderr.split('\n').filter((l) => l.includes('refused'));
      assert.equal(refused.length, 1, result.stderr);
      assert.match(
        refused[0] ?? '',
        /AUTH_INSUFFICIENT_SCOPE.*set emailOnComplete in the dashboard/,
      );
      assert.deepEqual(
        doc.applied?.map((a) => a.outcome),
        ['refused', 'done'],
      );
      assert.deepEqual(
        doc.drift.map((d) => d.field),
        ['emailOnComplete'],
      );
      assert.ok(!doc.problems.some((p) => p.code === 'target-unverified'));
    } finally {
      emu.setVariant({});
    }
  });

  it('an apply that fails halfway says what was and was not changed; a second apply finishes', async () => {
    const t = await tenantWith(
      'attackSurface:\n  targets:\n    - {host: one.example.com}\n    - {host: two.example.com}\n    - {host: three.example.com}\n',
    );
    emu.addFault({
      route: 'POST /tenants/me/attack-surface/targets',
      fault: { kind: 'status', status: 500 },
      after: 1,
      key: t.apiKey,
    });
    const first = await t.json(['tenant', 'apply']);
    assert.equal(first.result.code, 1);
    assert.deepEqual(
      first.doc.applied?.map((a) => `${a.outcome} ${a.change}`),
      [
        'done add target one.example.com',
        // A 5xx proves nothing: the service may have added it before it failed.
        'unknown add target two.example.com',
        'not-attempted add target three.example.com',
      ],
    );
    assert.match(first.doc.applied?.[1]?.detail ?? '', /it may have been applied/);
    assert.deepEqual(
      first.doc.drift.map((d) => d.field),
      ['two.example.com', 'three.example.com'],
    );
    const second = await t.json(['tenant', 'apply']);
    assert.equal(second.result.code, 0, second.result.stderr);
    assert.deepEqual(
      second.doc.applied?.map((a) => a.outcome),
      ['done', 'done'],
    );
    assert.deepEqual(second.doc.drift, []);
  });

  it('an add whose label is then refused says the target was added', async () => {
    const t = await tenantWith(
      'attackSurface:\n  targets:\n    - {host: four.example.com, label: edge}\n',
    );
    emu.addFault({
      route: 'PATCH /tenants/me/attack-surface/targets/:id',
      fault: { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
      key: t.apiKey,
    });
    const first = await t.json(['tenant', 'apply']);
    assert.equal(first.doc.applied?.[0]?.outcome, 'refused');
    assert.match(first.doc.applied?.[0]?.detail ?? '', /^the target was added, but/);
    assert.deepEqual(
      first.doc.drift.map((d) => d.field),
      ['four.example.com label'],
    );
  });

  it('a webhook address the service must not post to is refused by plan and apply, nothing sent', async () => {
    const t = await tenantWith(
      'notifications:\n  teamsWebhookUrlEnv: TEAMS_HOOK\n  teamsOnFail: true\n',
    );
    const refused = [
      ['https://169.254.169.254/latest/meta-data/iam?x=SECRETPART', 'a link-local address'],
      ['https://0x7f.1/hook/SECRETPART', 'a loopback address'],
      ['https://[::ffff:10.0.0.7]/hook/SECRETPART', 'an IPv4-mapped form of a private address'],
      ['https://metadata.google.internal/computeMetadata/SECRETPART', 'cloud metadata service'],
      ['http://hooks.slack.com/services/T0/B0/SECRETPART', 'does not hold an https:// address'],
    ];
    for (const [address = '', why = ''] of refused) {
      for (const command of ['plan', 'apply']) {
        const result = await t.run(['tenant', command], { TEAMS_HOOK: address });
        assert.equal(result.code, 1, result.stderr);
        const lines = result.stderr.trim().split('\n');
        assert.equal(lines.length, 1, result.stderr);
        assert.ok(lines[0]?.includes(why), lines[0]);
        assert.match(
          lines[0] ?? '',
          /TEAMS_HOOK (holds |does not hold an https:\/\/ address \()\w+:\/\/[^/\s]+\/…/,
        );
        assert.ok(!`${result.stdout}${result.stderr}`.includes('SECRETPART'), result.stderr);
      }
    }
    assert.equal(t.requests().length, 0);
  });

  it("the run's key written into the file is refused by plan and apply, never printed, nothing sent", async () => {
    const { apiKey } = emu.addTenant({});
    const yaml = (key: string) =>
      [
        'notifications:',
        '  emailOnFail: true',
        'attackSurface:',
        '  targets:',
        '    - host: app.example.com',
        '      verify: true',
        `      label: ${key}`,
        '',
      ].join('\n');
    const file = join(work, 'with-key.yml');
    const secretPart = apiKey.slice('ak_live_'.length);
    for (const written of [apiKey, apiKey.toUpperCase(), secretPart]) {
      await writeFile(file, yaml(written));
      for (const command of ['plan', 'apply']) {
        const result = await runCli(
          ['tenant', command, '--file', file, '--output', 'json'],
          cliEnv(emu, { SERVICE_API_KEY: apiKey }),
        );
        assert.equal(result.code, 1, result.stderr);
        assert.match(
          result.stderr.trim(),
          /^tenant-scan: error: Sanity checks failed: \S+with-key\.yml line 7: label looks like an API key: keys never go in the file$/,
        );
        const printed = `${result.stdout}${result.stderr}`.toLowerCase();
        assert.ok(!printed.includes(secretPart.toLowerCase()), result.stderr);
      }
    }
    assert.equal(
      emu.requests().filter((r) => r.headers.authorization === `Bearer ${apiKey}`).length,
      0,
    );
  });

  it('bad input is one clear line, exit 1, nothing sent', async () => {
    const t = await tenantWith('notifications:\n  emailOnFial: true\n');
    const result = await t.run(['tenant', 'plan']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /line 2: unknown field "emailOnFial" in `notifications`/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
    const missing = await tenantWith('notifications: {teamsWebhookUrlEnv: NOT_SET}\n');
    const unset = await missing.run(['tenant', 'apply']);
    assert.equal(unset.code, 1);
    assert.match(unset.stderr, /NOT_SET is empty or not set/);
    const badFailOn = await missing.run(['tenant', 'plan', '--fail-on', 'new'], { NOT_SET: HOOK });
    assert.equal(badFailOn.code, 1);
    assert.equal(t.requests().length + missing.requests().length, 0);
  });
});

describe("docs/tenant-settings.md's example file", () => {
  it('plans clean after one apply (exit 0), and its $schema line points at the schema', async () => {
    const doc = await readFile(join(ROOT, 'docs', 'tenant-settings.md'), 'utf8');
    const yaml = /```yaml\n(# yaml-language-server[^\n]*\n[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const schema =
      /\$schema=https:\/\/raw\.githubusercontent\.com\/tenant-scan\/tenant-scan\/[^/]+\/(\S+)/.exec(
        yaml,
      )?.[1];
    assert.ok(schema && existsSync(join(ROOT, schema)), `$schema names ${schema}`);
    const t = await tenantWith(yaml);
    const env = { TEAMS_WEBHOOK_URL: HOOK };
    const applied = await t.run(['tenant', 'apply'], env);
    assert.equal(applied.code, 0, applied.stderr);
    const planned = await t.json(['tenant', 'plan'], env);
    assert.equal(planned.result.code, 0, planned.result.stdout + planned.result.stderr);
    assert.deepEqual([planned.doc.drift, planned.doc.problems], [[], []]);
  });
});
