// Multi-tenant runs of the fault campaign (issue 37): 3–6 tenants of one emulator, each its own
// account and key, followed by ONE bundled CLI process (`scan run --tenants`), with faults drawn on
// some tenants only (a rule per tenant's key: a 429 storm, server errors, a reset, a stalled answer,
// a scan that fails or never ends, a key missing or refused) and sometimes a SIGTERM once every
// scan is running. Invariant 12, per tenant: at most one scan of its own; none left running; its
// record matches the emulator's truth for that tenant (its scan, verdict and failed count) or
// holds one classified error line; a tenant without a fault of its own always gets its verdict;
// no tenant's key in the output.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, type CliResult, type TenantRecordJson as RecordJson } from '../cli/helpers.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, FaultRule, ScanPlan, ScanTruth } from '../emulator/types.js';
import type { Violation } from './invariants.js';
import { Prng } from './prng.js';

export const TENANT_FAULTS = [
  'none',
  '429-storm',
  'server-errors',
  'reset',
  'stalled-answer',
  'scan-failed',
  'stuck',
  'missing-key',
  'refused-key',
] as const;
export type TenantFault = (typeof TENANT_FAULTS)[number];

export interface TenantDraw {
  name: string;
  fault: TenantFault;
  failed: number;
}

export interface TenantsScenario {
  seed: number;
  tenants: TenantDraw[];
  concurrency: number;
  sigterm: boolean;
}

/** One run in eight of the campaign is a multi-tenant run (rotation runs are another eighth). */
export function isTenantsSeed(seed: number): boolean {
  return seed % 8 === 2;
}

export function generateTenantsScenario(seed: number): TenantsScenario {
  const prng = new Prng(seed ^ 0x37373737);
  const tenants = Array.from({ length: prng.int(3, 6) }, (_, i): TenantDraw => {
    const fault = prng.chance(0.5) ? 'none' : prng.pick(TENANT_FAULTS.slice(1));
    return { name: `tenant-${i + 1}`, fault, failed: prng.pick([0, 0, 1, 4, 12]) };
  });
  return { seed, tenants, concurrency: prng.pick([1, 2, 50]), sigterm: prng.chance(0.2) };
}

export function describeTenants(s: TenantsScenario): string {
  const faults = s.tenants.map((t) => t.fault).join(', ');
  return `tenants: ${s.tenants.length} at ${s.concurrency} at once [${faults}]${s.sigterm ? ', SIGTERM' : ''}`;
}

function planOf(draw: TenantDraw): ScanPlan {
  const quick = { durationMs: 4_000, queuedMs: 500 };
  if (draw.fault === 'scan-failed') return { ...quick, outcome: { kind: 'failed' } };
  if (draw.fault === 'stuck') return { ...quick, outcome: { kind: 'stuck', atProgress: 40 } };
  return { ...quick, outcome: { kind: 'completed', total: 40, failed: draw.failed } };
}

/** The rules of a tenant's fault, hitting only requests with its key. */
function rulesOf(fault: TenantFault, key: string): FaultRule[] {
  switch (fault) {
    case '429-storm':
      return [{ route: '*', fault: { kind: 'status', status: 429, retryAfter: 1 }, times: 6, key }];
    case 'server-errors':
      return [{ route: 'GET /scans/:id', fault: { kind: 'status', status: 503 }, times: 3, key }];
    case 'reset':
      return [{ route: 'GET /tenants/me', fault: { kind: 'reset', when: 'before' }, key }];
    case 'stalled-answer':
      return [{ route: 'GET /scans/:id', fault: { kind: 'no-answer' }, key }];
    default:
      return [];
  }
}

interface Run {
  emu: Emulator;
  dir: string;
  keys: Record<string, string>;
  tenantIds: Record<string, string>;
}

async function setUp(scenario: TenantsScenario): Promise<Run> {
  const emu = await startEmulator({ seed: scenario.seed, clockSpeed: 40 });
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-fault-tenants-'));
  const keys: Record<string, string> = {};
  const tenantIds: Record<string, string> = {};
  const list = scenario.tenants.map((draw) => {
    const variable = `${draw.name.toUpperCase().replace(/-/g, '_')}_KEY`;
    const created = emu.addTenant({ name: `${draw.name} Ltd`, scanPlan: planOf(draw) });
    tenantIds[draw.name] = created.tenantId;
    if (draw.fault === 'refused-key') keys[variable] = 'ak_live_refusedbytheservice0000';
    else if (draw.fault !== 'missing-key') keys[variable] = created.apiKey;
    for (const rule of rulesOf(draw.fault, created.apiKey)) emu.addFault(rule);
    return { name: draw.name, 'api-url': emu.url, secret: variable };
  });
  await writeFile(join(dir, 'tenants.json'), JSON.stringify(list));
  return { emu, dir, keys, tenantIds };
}

async function runCliOf(scenario: TenantsScenario, run: Run): Promise<CliResult> {
  const args = [
    ...['scan', 'run', '--type', 'compliance', '--tenants', join(run.dir, 'tenants.json')],
    ...['--records', join(run.dir, 'records'), '--concurrency', String(scenario.concurrency)],
    ...['--timeout', '0.15', '--request-timeout', '3'],
  ];
  const env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    TENANT_SCAN_TEST_PACING_MS: '100',
    ...run.keys,
  };
  const cli = spawnCli(args, env);
  if (scenario.sigterm) {
    const started = scenario.tenants.filter(
      (t) => !['missing-key', 'refused-key'].includes(t.fault),
    );
    const running = Promise.all(started.map((t) => cli.waitForStderr(`${t.name}: scan `)));
    // A run whose scans all end first is not cancelled: the race is part of the draw.
    await Promise.race([running.catch(() => undefined), cli.done]);
    cli.child.kill('SIGTERM');
  }
  return cli.done;
}

const CLASSIFIED =
  /^(Sanity checks|Authentication|Trigger|Wait|Results|Verdict|Cancelled)( failed)?: \S/;

/** Invariant 12 for one tenant; returns its problems. */
async function checkTenant(
  draw: TenantDraw,
  scans: ScanTruth[],
  recordPath: string,
  cancelled: boolean,
): Promise<string[]> {
  const problems: string[] = [];
  const at = `${draw.name} (${draw.fault})`;
  if (scans.length > 1) problems.push(`${at}: ${scans.length} scans triggered`);
  const left = scans.filter((s) => s.status === 'queued' || s.status === 'running');
  if (left.length > 0) problems.push(`${at}: scan ${left[0]?.id} left ${left[0]?.status}`);
  const text = await readFile(recordPath, 'utf8').catch(() => undefined);
  if (text === undefined) {
    if (!cancelled) problems.push(`${at}: no record`);
    return problems;
  }
  const record = JSON.parse(text) as RecordJson;
  if (record.label !== draw.name) problems.push(`${at}: record labelled ${record.label}`);
  const truth = scans[0];
  if (record.verdict === null) {
    if (!CLASSIFIED.test(record.error ?? ''))
      problems.push(`${at}: unclassified error ${record.error}`);
    if (draw.fault === 'none' && !cancelled)
      problems.push(`${at}: no verdict without a fault: ${record.error}`);
    return problems;
  }
  if (!truth || record.scan?.id !== truth.id) {
    problems.push(`${at}: record of scan ${record.scan?.id}, the tenant's is ${truth?.id}`);
    return problems;
  }
  if (truth.status === 'completed') {
    const verdict = truth.failed > 0 ? 'failed' : 'passed';
    if (record.verdict !== verdict || record.failed !== truth.failed) {
      problems.push(
        `${at}: record ${record.verdict}/${record.failed}, truth ${verdict}/${truth.failed}`,
      );
    }
  } else if (record.verdict !== 'failed') {
    problems.push(`${at}: verdict ${record.verdict} for a scan ${truth.status}`);
  }
  if (record.tenant !== `${draw.name} Ltd`)
    problems.push(`${at}: record of tenant ${record.tenant}`);
  return problems;
}

export interface TenantsOutcome {
  violations: Violation[];
  tags: string[];
  logs: string;
}

export async function executeTenants(scenario: TenantsScenario): Promise<TenantsOutcome> {
  const run = await setUp(scenario);
  try {
    const result = await runCliOf(scenario, run);
    const cancelled = result.code === 143;
    const problems: string[] = [];
    for (const draw of scenario.tenants) {
      const scans = run.emu.scans(run.tenantIds[draw.name]);
      const path = join(run.dir, 'records', `${draw.name}.json`);
      problems.push(...(await checkTenant(draw, scans, path, cancelled)));
    }
    const output = `${result.stdout}\n${result.stderr}`;
    for (const [variable, key] of Object.entries(run.keys)) {
      if (output.includes(key)) problems.push(`the key of ${variable} is in the output`);
    }
    if (!cancelled && ![0, 1, 2].includes(result.code ?? -1)) {
      problems.push(`exit ${result.code ?? result.signal}`);
    }
    return {
      violations: problems.map((message) => ({ invariant: 12, message })),
      tags: [
        `tenants: ${cancelled ? 'SIGTERM' : `exit ${result.code}`}`,
        ...new Set(scenario.tenants.map((t) => `tenants: fault ${t.fault}`)),
      ],
      logs: `--- scan run --tenants (exit ${result.code ?? result.signal})\n${result.stderr}\n${result.stdout}`,
    };
  } finally {
    await run.emu.close();
    await rm(run.dir, { recursive: true, force: true });
  }
}
