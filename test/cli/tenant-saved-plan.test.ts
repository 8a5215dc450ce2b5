// Saved plans, run as the bundled CLI against the emulator: `tenant plan --out` then `tenant apply
// --plan` sends exactly the plan's writes (and a plan afterwards has no drift); a plan gone stale
// (a target added on the tenant since) sends nothing and names the change; a plan of another
// version of the file, or a file that is not a plan, is refused before any request.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, TenantSeed } from '../emulator/types.js';
import { assertBundleBuilt, cliEnv, runCli } from './helpers.js';
import { HOOK, YAML } from '../helpers/reviewed-settings-sample.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 49 });
  work = await mkdtemp(join(tmpdir(), 'tenant-saved-plan-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

let count = 0;
async function tenantWith(seed: TenantSeed, yaml = YAML) {
  const { apiKey } = emu.addTenant(seed);
  const dir = await mkdtemp(join(work, `t${++count}-`));
  const file = join(dir, 'tenant.yml');
  const plan = join(dir, 'plan.json');
  await writeFile(file, yaml);
  const env = cliEnv(emu, { SERVICE_API_KEY: apiKey, TEAMS_HOOK: HOOK });
  const mine = () => emu.requests().filter((r) => r.headers.authorization === `Bearer ${apiKey}`);
  return {
    apiKey,
    file,
    plan,
    run: (args: string[]) => runCli([...args, '--file', file], env),
    requests: mine,
    writes: () => mine().filter((r) => r.method !== 'GET'),
  };
}

const SEED: TenantSeed = {
  notifications: { emailOnFail: false, teamsOnFail: false },
  targets: [
    { host: 'kept.example.com', label: null },
    { host: 'old.example.com', label: 'Legacy' },
  ],
};

describe('tenant plan --out, tenant apply --plan', () => {
  it('applies exactly the reviewed writes; a plan afterwards has no drift', async () => {
    const t = await tenantWith(SEED);
    const planned = await t.run(['tenant', 'plan', '--out', t.plan]);
    assert.equal(planned.code, 2, planned.stderr);
    const saved = await readFile(t.plan, 'utf8');
    assert.ok(!saved.includes('SECRETSIGNATURE') && !saved.includes('/workflows/'), saved);
    assert.ok(!saved.includes(t.apiKey.slice(8)), 'no key in the plan');
    const { changes } = JSON.parse(saved) as { changes: Array<Record<string, unknown>> };
    assert.deepEqual(
      changes.map((c) => c.kind),
      ['notifications', 'add-target', 'remove-target'],
    );

    const before = t.writes().length;
    const applied = await t.run(['tenant', 'apply', '--plan', t.plan, '--output', 'json']);
    assert.equal(applied.code, 0, applied.stderr);
    const writes = t.writes().slice(before);
    assert.deepEqual(
      writes.map((r) => [r.method, r.path.replace(/targets\/[^/]+$/, 'targets/:id'), r.body]),
      [
        ['PATCH', '/tenants/me/notifications', { emailOnFail: true, teamsWebhookUrl: HOOK }],
        ['POST', '/tenants/me/attack-surface/targets', { host: 'app.example.com' }],
        ['PATCH', '/tenants/me/attack-surface/targets/:id', { label: 'Production' }],
        ['DELETE', '/tenants/me/attack-surface/targets/:id', undefined],
      ],
    );
    const doc = JSON.parse(applied.stdout) as {
      applied: Array<{ outcome: string; change: string }>;
    };
    assert.deepEqual(
      doc.applied.map((a) => `${a.outcome} ${a.change}`),
      [
        'done notifications: emailOnFail → true, teamsWebhookUrl → https://prod-07.westeurope.logic.azure.com/…',
        'done add target app.example.com (label "Production")',
        'done remove target old.example.com',
      ],
    );
    const again = await t.run(['tenant', 'plan', '--fail-on', 'drift', '--output', 'json']);
    assert.equal(again.code, 0, again.stderr);
    assert.deepEqual((JSON.parse(again.stdout) as { drift: unknown[] }).drift, []);
  });

  it('a plan gone stale sends nothing and names what changed since', async () => {
    const t = await tenantWith(SEED);
    assert.equal((await t.run(['tenant', 'plan', '--out', t.plan])).code, 2);
    const added = await fetch(`${emu.url}/tenants/me/attack-surface/targets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${t.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ host: 'added-after-review.example.com' }),
    });
    assert.equal(added.status, 201);
    const before = t.writes().length;
    const applied = await t.run(['tenant', 'apply', '--plan', t.plan]);
    assert.equal(applied.code, 1);
    assert.match(
      applied.stderr.trim(),
      /^tenant-scan: error: targets: added-after-review\.example\.com appeared since the plan of 20\d\d-\d\d-\d\dT[\d:.]+Z; plan again$/,
    );
    assert.equal(t.writes().length, before, 'nothing was written');
  });

  it('a plan of another version of the file, or a file that is not a plan: one line, nothing sent', async () => {
    const t = await tenantWith(SEED);
    assert.equal((await t.run(['tenant', 'plan', '--out', t.plan])).code, 2);
    const sent = t.requests().length;
    await writeFile(t.file, YAML.replace('label: Production', 'label: Prod'));
    const other = await t.run(['tenant', 'apply', '--plan', t.plan]);
    assert.equal(other.code, 1);
    assert.match(
      other.stderr.trim(),
      /^tenant-scan: error: the plan was made from another version of \S+tenant\.yml \(SHA-256 [0-9a-f]{12}… then, [0-9a-f]{12}… now\): plan again with this one$/,
    );
    const notPlan = join(work, 'not-a-plan.json');
    await writeFile(notPlan, '{"kind":"tenant-plan","version":1,"drift":[]}');
    const wrong = await t.run(['tenant', 'apply', '--plan', notPlan]);
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr.trim(), /not a tenant-scan plan \(tenant plan --out writes one\)$/);
    const big = join(work, 'big.json');
    await writeFile(big, Buffer.alloc(8 * 1024 * 1024 + 1, 0x20));
    const tooBig = await t.run(['tenant', 'apply', '--plan', big]);
    assert.match(
      tooBig.stderr.trim(),
      /big\.json is larger than 8 MiB: it is not a tenant-scan plan/,
    );
    const missing = await t.run(['tenant', 'apply', '--plan', join(work, 'nope.json')]);
    assert.match(
      missing.stderr.trim(),
      /cannot read the plan \S+nope\.json \(no such file\): make it with tenant plan --out$/,
    );
    for (const result of [other, wrong, tooBig, missing]) {
      assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
    }
    assert.equal(t.requests().length, sent, 'no request');
  });

  it('an apply of a plan that fails halfway says what each write did; the plan is then stale', async () => {
    const t = await tenantWith(SEED);
    assert.equal((await t.run(['tenant', 'plan', '--out', t.plan])).code, 2);
    emu.addFault({
      route: 'POST /tenants/me/attack-surface/targets',
      fault: { kind: 'status', status: 500 },
      key: t.apiKey,
    });
    const first = await t.run(['tenant', 'apply', '--plan', t.plan, '--output', 'json']);
    assert.equal(first.code, 1, first.stderr);
    const doc = JSON.parse(first.stdout) as { applied: Array<{ outcome: string; change: string }> };
    assert.deepEqual(
      doc.applied.map((a) => a.outcome),
      ['done', 'unknown', 'not-attempted'],
    );
    emu.clearFaults();
    const again = await t.run(['tenant', 'apply', '--plan', t.plan]);
    assert.equal(again.code, 1);
    // Its own writes changed what it depended on: plan again (what is left is then planned).
    assert.match(
      again.stderr.trim(),
      /^tenant-scan: error: notifications: emailOnFail changed, teamsWebhookUrl changed since the plan of \S+; plan again$/,
    );
  });
});
