// scan run --tenants: many tenants followed by one bundled CLI process against the emulator, each
// with its own key (from the variable its entry names), scan, record and error; one line per
// tenant state change; the roll-up at the end; SIGTERM cancelling every scan the run triggered.

import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, ScanPlan } from '../emulator/types.js';
import {
  assertBundleBuilt,
  cliEnv,
  lines,
  runCli,
  spawnCli,
  type Env,
  type TenantRecordJson as RecordJson,
} from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 37, clockSpeed: 20 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-tenants-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const CLEAN: ScanPlan = { outcome: { kind: 'completed', total: 40, failed: 0 } };
const FINDINGS: ScanPlan = { outcome: { kind: 'completed', total: 40, failed: 3 } };
const STUCK: ScanPlan = { outcome: { kind: 'stuck', atProgress: 30 } };

interface Fleet {
  file: string;
  records: string;
  env: Env;
  tenantIds: Record<string, string>;
}

let fleets = 0;
/** Tenants of the emulator, each with its own key in its own variable, and the list naming them. */
async function fleetOf(
  plans: Record<string, ScanPlan | 'missing-key' | 'refused-key'>,
): Promise<Fleet> {
  const dir = join(work, `fleet-${++fleets}`);
  const env: Env = {};
  const tenantIds: Record<string, string> = {};
  const list = Object.entries(plans).map(([name, plan]) => {
    const secret = `${name.toUpperCase()}_API_KEY`;
    if (plan === 'refused-key') env[secret] = 'ak_live_revokedkeyofnobody000';
    else if (plan !== 'missing-key') {
      const tenant = emu.addTenant({ name: `${name} Ltd`, scanPlan: plan });
      env[secret] = tenant.apiKey;
      tenantIds[name] = tenant.tenantId;
    }
    return { name, 'api-url': emu.url, secret };
  });
  const file = `${dir}.json`;
  await writeFile(file, JSON.stringify(list));
  return { file, records: dir, env: cliEnv(undefined, env), tenantIds };
}

function tenantsRun(fleet: Fleet, ...extra: string[]): string[] {
  return [
    'scan',
    'run',
    '--type',
    'compliance',
    '--tenants',
    fleet.file,
    '--records',
    fleet.records,
    ...extra,
  ];
}

async function recordOf(fleet: Fleet, name: string): Promise<RecordJson> {
  return JSON.parse(await readFile(join(fleet.records, `${name}.json`), 'utf8')) as RecordJson;
}

function linesOf(stderr: string, name: string): string[] {
  return lines(stderr).filter((line) => line.startsWith(`${name}: `));
}

describe('scan run --tenants', () => {
  it('scans each tenant with its own key; a missing or refused key is one failed row, the others unaffected', async () => {
    const fleet = await fleetOf({
      contoso: CLEAN,
      fabrikam: FINDINGS,
      northwind: 'missing-key',
      tailspin: 'refused-key',
    });
    const result = await runCli(tenantsRun(fleet, '--fail-on-findings', '--json'), fleet.env);
    assert.equal(result.code, 1, `a tenant without a verdict exits 1\n${result.stderr}`);

    for (const [name, failed] of [
      ['contoso', 0],
      ['fabrikam', 3],
    ] as const) {
      const record = await recordOf(fleet, name);
      const truth = emu.scans(fleet.tenantIds[name]);
      assert.equal(truth.length, 1, `${name}: one scan of its own`);
      assert.equal(record.scan?.id, truth[0]?.id, `${name}: its own scan`);
      assert.deepEqual(
        [record.label, record.tenant, record.verdict, record.failed],
        [name, `${name} Ltd`, failed === 0 ? 'passed' : 'failed', failed],
      );
      assert.equal(truth[0]?.failed, failed);
    }
    const missing = await recordOf(fleet, 'northwind');
    assert.equal(missing.verdict, null);
    assert.match(
      missing.error ?? '',
      /^Sanity checks failed: no API key — set NORTHWIND_API_KEY \(from a CI secret\)$/,
    );
    const refused = await recordOf(fleet, 'tailspin');
    assert.match(refused.error ?? '', /^Authentication failed: the API key was refused/);
    assert.ok(!result.stderr.includes('ak_live_revoked'), 'the refused key is never printed');

    assert.match(
      linesOf(result.stderr, 'northwind').join('\n'),
      /^northwind: error: Sanity checks failed: no API key — set NORTHWIND_API_KEY \(from a CI secret\) \[1\/4\]$/m,
    );
    assert.match(
      linesOf(result.stderr, 'contoso').at(-1) ?? '',
      /^contoso: passed \(0 failed findings\) \[\d\/4\]$/,
    );
    assert.match(
      linesOf(result.stderr, 'fabrikam').at(-1) ?? '',
      /^fabrikam: failed \(3 failed findings\) \[\d\/4\]$/,
    );
    // One line per state change (triggered, queued, running, completed, the verdict), not per poll;
    // a loaded machine may poll past `running`, so a state may be missing, never repeated.
    const contoso = linesOf(result.stderr, 'contoso');
    assert.equal(new Set(contoso).size, contoso.length, result.stderr);
    assert.ok(contoso.length >= 4 && contoso.length <= 5, result.stderr);

    const rollup = JSON.parse(result.stdout) as {
      verdict: string;
      tenants: Array<{ tenant: string; verdict: string; problem: string | null }>;
      exitCode: number;
    };
    assert.equal(rollup.exitCode, 1);
    assert.deepEqual(rollup.tenants.map((row) => [row.tenant, row.verdict]).sort(), [
      ['contoso', 'passed'],
      ['fabrikam', 'failed'],
      ['northwind', 'error'],
      ['tailspin', 'error'],
    ]);
  });

  it('the roll-up decides the exit code: 2 when findings fail it with the gate on, 0 within --max-failed-tenants', async () => {
    const fleet = await fleetOf({ alpha: CLEAN, beta: FINDINGS });
    const gated = await runCli(tenantsRun(fleet, '--fail-on-findings'), fleet.env);
    assert.equal(gated.code, 2, gated.stderr);
    assert.match(gated.stderr, /^Findings gate: 1 of 2 tenants failed/m);
    assert.match(gated.stdout, /^beta +failed +3 /m);
    const tolerant = await runCli(tenantsRun(fleet, '--max-failed-tenants', '1'), fleet.env);
    assert.equal(tolerant.code, 0, tolerant.stderr);
    assert.deepEqual((await readdir(fleet.records)).sort(), ['alpha.json', 'beta.json']);
  });

  it('at most --concurrency tenants at once; a hung tenant ends at its own timeout without holding the others', async () => {
    const fleet = await fleetOf({
      hung: STUCK,
      one: CLEAN,
      two: CLEAN,
      three: CLEAN,
    });
    const result = await runCli(
      tenantsRun(fleet, '--concurrency', '2', '--timeout', '0.1'),
      fleet.env,
    );
    assert.equal(result.code, 1, result.stderr);
    const ends = lines(result.stderr).filter((line) => / \[\d\/4\]$/.test(line));
    assert.equal(
      ends.at(-1)?.split(':')[0],
      'hung',
      `the hung tenant ends last:\n${ends.join('\n')}`,
    );
    assert.match(ends.at(-1) ?? '', /did not finish within 0\.1 minutes/);
    const hung = emu.scans(fleet.tenantIds.hung);
    assert.equal(hung[0]?.status, 'cancelled', 'its own timeout cancelled its scan');
    // The pool never had more than two scans of this fleet alive at once.
    const spans = Object.values(fleet.tenantIds)
      .flatMap((id) => emu.scans(id))
      .map((scan) => ({
        from: Date.parse(scan.createdAt),
        to: Date.parse(scan.completedAt ?? scan.cancelledAt ?? '9999-01-01'),
      }));
    for (const span of spans) {
      const alive = spans.filter((other) => other.from <= span.from && other.to > span.from);
      assert.ok(alive.length <= 2, `${alive.length} scans alive at once`);
    }
  });

  it('a tenant whose service never answers timed out: its line says so, never "Authentication failed"', async () => {
    const fleet = await fleetOf({ silent: CLEAN, other: CLEAN });
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'no-answer' },
      times: Infinity,
      key: fleet.env.SILENT_API_KEY,
    });
    const result = await runCli(tenantsRun(fleet, '--request-timeout', '1'), fleet.env);
    emu.clearFaults();
    assert.equal(result.code, 1, result.stderr);
    const line =
      'Authentication timed out: GET /tenants/me: no answer within 1 s (the request timeout), after 2 attempts; if the service needs longer, raise --request-timeout or SERVICE_REQUEST_TIMEOUT';
    assert.equal((await recordOf(fleet, 'silent')).error, line);
    assert.match(linesOf(result.stderr, 'silent').at(-1) ?? '', /Authentication timed out: /);
    assert.doesNotMatch(result.stderr, /Authentication failed/);
    assert.equal((await recordOf(fleet, 'other')).verdict, 'passed');
  });

  it('SIGTERM cancels every scan the run triggered, then exits 143', async () => {
    const fleet = await fleetOf({ red: STUCK, green: STUCK, blue: STUCK });
    const cli = spawnCli(tenantsRun(fleet), fleet.env);
    for (const name of ['red', 'green', 'blue']) await cli.waitForStderr(`${name}: scan `);
    for (const name of ['red', 'green', 'blue']) {
      await cli.waitForStderr(`${name}: scan ${emu.scans(fleet.tenantIds[name])[0]?.id} running`);
    }
    cli.child.kill('SIGTERM');
    const result = await cli.done;
    assert.equal(result.code, 143, result.stderr);
    for (const name of ['red', 'green', 'blue']) {
      const scans = emu.scans(fleet.tenantIds[name]);
      assert.deepEqual(
        scans.map((scan) => scan.status),
        ['cancelled'],
        `${name}'s scan was cancelled`,
      );
    }
  });

  it('a list that holds a key, or a bad entry, is refused before any request', async () => {
    emu.clearRequests();
    const file = join(work, 'bad.json');
    await writeFile(
      file,
      JSON.stringify([
        { name: 'contoso', 'api-url': emu.url, secret: 'ak_live_pastedkeyvalue123' },
        { name: 'bad name', secret: 'X' },
      ]),
    );
    const result = await runCli(
      ['scan', 'run', '--type', 'compliance', '--tenants', file, '--records', join(work, 'r')],
      cliEnv(undefined),
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /entry 1 \(contoso\): secret must name the variable that holds the key, not the key itself/,
    );
    assert.match(result.stderr, /entry 2: name must be/);
    assert.ok(!result.stderr.includes('ak_live_pastedkeyvalue123'), 'the key is never echoed');
    assert.equal(emu.requests().length, 0, 'nothing sent');
  });

  it('a waiver too far ahead names --waivers-max-days, the flag that moves the limit; nothing sent', async () => {
    const fleet = await fleetOf({ solo: CLEAN });
    const waivers = join(work, 'far-waivers.yml');
    await writeFile(
      waivers,
      'waivers:\n  - check: CIS-1.1.1\n    reason: accepted\n    expires: 9999-12-31\n',
    );
    emu.clearRequests();
    const result = await runCli(tenantsRun(fleet, '--waivers', waivers), fleet.env);
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /more than 365 days ahead \(--waivers-max-days\): set a date/);
    assert.equal(emu.requests().length, 0);
  });

  it('options of one tenant are refused with --tenants, and --records is required', async () => {
    const fleet = await fleetOf({ solo: CLEAN });
    const junit = await runCli(tenantsRun(fleet, '--junit', 'x.xml'), fleet.env);
    assert.equal(junit.code, 1);
    assert.match(junit.stderr, /--junit cannot be used with --tenants/);
    const noRecords = await runCli(
      ['scan', 'run', '--type', 'compliance', '--tenants', fleet.file],
      fleet.env,
    );
    assert.match(noRecords.stderr, /--tenants needs --records <dir>/);
    const stray = await runCli(
      ['scan', 'run', '--type', 'compliance', '--concurrency', '3'],
      cliEnv(emu),
    );
    assert.match(stray.stderr, /--concurrency needs --tenants/);
  });
});
