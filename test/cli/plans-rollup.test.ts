// The tenants' plans rolled up on the bundled CLI: three emulated tenants each run
// `tenant plan --record` as a nightly matrix job would (one clean, one drifting with an idle key,
// one with an old key and a stale compliance scan), a fourth expected tenant has no plan, and two
// files are not whole plans; then `rollup` over plans gives a row per problem code naming the
// tenants, the exit code and the Markdown.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, TenantSeed } from '../emulator/types.js';
import { assertBundleBuilt, cliEnv, runCli } from './helpers.js';

const DAY = 86_400_000;

interface PlansJson {
  verdict: string;
  tenants: Array<{ tenant: string; verdict: string; problem: string | null }>;
  totalTenants: number;
  failedTenants: number;
  exitCode: number;
  plans: {
    failOn: string;
    tenants: Array<{ tenant: string; verdict: string; codes: string[]; problem: string | null }>;
    codes: Array<{ code: string; tenants: string[] }>;
  } | null;
}

let emu: Emulator;
let work: string;
const ids = new Map<string, string>();

async function plan(label: string, seed: TenantSeed, more?: (tenantId: string) => void) {
  const { tenantId, apiKey } = emu.addTenant({
    ...seed,
    notifications: { emailOnFail: true, teamsOnFail: false, ...seed.notifications },
  });
  ids.set(label, tenantId);
  more?.(tenantId);
  const result = await runCli(
    [
      'tenant',
      'plan',
      '--file',
      join(work, 'tenant.yml'),
      '--tenant-label',
      label,
      '--record',
      join(work, 'plans', `${label}.json`),
      '--output',
      'json',
    ],
    cliEnv(emu, { SERVICE_API_KEY: apiKey }),
  );
  assert.ok([0, 2].includes(result.code ?? -1), result.stderr);
  return result;
}

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 63 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-plans-'));
  await mkdir(join(work, 'plans'));
  await writeFile(join(work, 'tenant.yml'), 'notifications: {emailOnFail: true}\n');
  const contoso = await plan('contoso', {});
  // The file --record writes is the document --output json prints.
  assert.deepEqual(
    JSON.parse(await readFile(join(work, 'plans', 'contoso.json'), 'utf8')),
    JSON.parse(contoso.stdout),
  );
  await plan('fabrikam', { notifications: { emailOnFail: false } }, (id) =>
    emu.addKey(id, 'idle key', { ageMs: 60 * DAY, lastUsedAgoMs: 45 * DAY }),
  );
  await plan('northwind', {}, (id) => {
    emu.addKey(id, 'ancient key', { ageMs: 400 * DAY, lastUsedAgoMs: DAY });
    emu.seedHistory([{ ageMs: 20 * DAY, failedChecks: [], scanType: 'compliance' }], id);
  });
  const whole = await readFile(join(work, 'plans', 'contoso.json'), 'utf8');
  await writeFile(join(work, 'plans', 'cut.json'), whole.slice(0, whole.length / 2));
  const shape = { ...(JSON.parse(whole) as object), drift: 'none' };
  await writeFile(join(work, 'plans', 'shape.json'), JSON.stringify(shape));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

async function rollup(args: string[]) {
  return runCli(['rollup', 'plans/*.json', ...args], cliEnv(undefined), { cwd: work });
}

describe('rollup of tenant plans', () => {
  it('names the tenants of each problem code; a missing, a cut and a misshapen plan fail with why', async () => {
    const result = await rollup([
      '--expect',
      'contoso,fabrikam,northwind,tailspin',
      '--fail-on-findings',
      '--markdown',
      'rollup.md',
      '--output',
      'json',
    ]);
    assert.equal(result.code, 2, result.stderr);
    const doc = JSON.parse(result.stdout) as PlansJson;
    assert.ok(doc.plans, 'no plans section');
    const codes = Object.fromEntries(doc.plans.codes.map((c) => [c.code, c.tenants]));
    assert.deepEqual(codes.drift, ['fabrikam']);
    assert.deepEqual(codes['failures-notify-nobody'], ['fabrikam']);
    assert.deepEqual(codes['key-unused'], ['fabrikam']);
    assert.deepEqual(codes['key-old'], ['northwind']);
    assert.deepEqual(codes['scan-stale'], ['northwind']);
    const rows = Object.fromEntries(doc.plans.tenants.map((t) => [t.tenant, t]));
    assert.equal(rows.contoso?.verdict, 'passed', JSON.stringify(rows.contoso));
    assert.equal(rows.fabrikam?.verdict, 'failed');
    assert.equal(rows.northwind?.verdict, 'failed');
    assert.equal(rows.tailspin?.verdict, 'missing');
    assert.match(rows['plans/shape.json']?.problem ?? '', /"drift" is not a list/);
    assert.equal(rows['plans/shape.json']?.verdict, 'unreadable');
    // What is not JSON cannot say it is a plan: it is listed among the records, and fails too.
    const cut = doc.tenants.find((t) => t.tenant === 'plans/cut.json');
    assert.deepEqual([cut?.verdict, cut?.problem], ['unreadable', 'not JSON']);
    // Worst first: no plan, then failing, then clean.
    assert.equal(doc.plans.tenants.at(-1)?.tenant, 'contoso');
    assert.deepEqual([doc.failedTenants, doc.totalTenants], [5, 6]);
    const markdown = await readFile(join(work, 'rollup.md'), 'utf8');
    assert.match(markdown, /^\| `scan-stale` \| 1 \| northwind \|$/m);
    assert.match(markdown, /^\| `tailspin` \| ❓ missing \|/m);
    const table = await rollup(['--expect', 'contoso,fabrikam,northwind,tailspin']);
    assert.equal(table.code, 0, 'the gate is off');
    assert.match(table.stdout, /^key-unused\s+1\s+fabrikam$/m);
  });

  it('--fail-on drift: only a drifting tenant fails; the plan names the tenant by its id too', async () => {
    const result = await rollup(['--fail-on', 'drift', '--output', 'json']);
    const doc = JSON.parse(result.stdout) as PlansJson;
    assert.equal(result.code, 2);
    const failed = doc.plans?.tenants.filter((t) => t.verdict !== 'passed').map((t) => t.tenant);
    assert.deepEqual(failed?.sort(), ['fabrikam', 'plans/shape.json']);
    const fabrikam = JSON.parse(await readFile(join(work, 'plans', 'fabrikam.json'), 'utf8')) as {
      tenantId: string;
      tenant: string;
    };
    assert.deepEqual([fabrikam.tenant, fabrikam.tenantId], ['fabrikam', ids.get('fabrikam')]);
  });

  it('--fail-on that is not a plan word: one line, exit 1', async () => {
    const result = await rollup(['--fail-on', 'new']);
    assert.equal(result.code, 1);
    assert.match(result.stderr, /--fail-on must be one of drift, problems, any, none/);
  });
});
