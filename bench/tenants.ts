// npm run bench:tenants — many tenants per job (issue 37): N tenants followed by ONE bundled CLI
// process (`scan run --tenants`) against the baseline of the same run: N single-tenant runs of the
// bundled CLI (`scan run --watch --record`) started side by side. Each tenant is its own account of
// the emulator (own key, own scans), its scans of varied length (half to all of BENCH_SCAN_SECONDS,
// real seconds: the emulator's clock runs at wall speed) failing 1,000 checks each. The CLI polls
// at its real pace (no test pacing). Measured from outside: wall time, peak RSS (VmHWM), the
// emulator's requests per tenant, and every record compared field by field.
// Targets: wall ≤ 1.1 × the longest single run, peak RSS ≤ 400 MB, requests per tenant ≤ 1.1 ×
// a single run's, every record identical (verdict, counts, findings).
// `-- --lengths 50,1000,2000` measures instead one process's memory against its list's length
// (bench/tenants-lengths.ts).
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startEmulator } from '../test/emulator/emulator.js';
import type { Emulator } from '../test/emulator/types.js';
import { spawnCli, type CliResult, type Env } from '../test/cli/helpers.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { lengthSeries } from './tenants-lengths.js';

const TENANTS = Number(process.env.BENCH_TENANTS ?? 50);
const SCAN_SECONDS = Number(process.env.BENCH_SCAN_SECONDS ?? 30);
const FAILED = 1_000;
const README = fileURLToPath(new URL('./README.md', import.meta.url));
const TARGETS = { wallRatio: 1.1, peakRssMb: 400, requestsRatio: 1.1 };

interface Tenant {
  name: string;
  tenantId: string;
  apiKey: string;
}

interface RecordJson {
  verdict: string | null;
  total: number | null;
  failed: number;
  error: string | null;
  findings: Array<{ checkId: string; title: string; severity: string; result: string }>;
}

function baseEnv(extra: Env): Env {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: 'C.UTF-8', ...extra };
}

function addTenants(emu: Emulator): Tenant[] {
  return Array.from({ length: TENANTS }, (_, i) => {
    const share = TENANTS === 1 ? 1 : 0.5 + (0.5 * i) / (TENANTS - 1);
    const name = `tenant-${String(i + 1).padStart(3, '0')}`;
    const created = emu.addTenant({
      name: `${name} Ltd`,
      scanPlan: {
        durationMs: Math.round(SCAN_SECONDS * 1000 * share),
        queuedMs: 1_000,
        outcome: { kind: 'completed', total: FAILED + 200, failed: FAILED },
      },
    });
    return { name, ...created };
  });
}

/** Requests per tenant since `from` (emulator log index), by the tenant that authenticated them. */
function requestsByTenant(emu: Emulator, from: number): Map<string, number> {
  const counts = new Map<string, number>();
  for (const request of emu.requests().slice(from)) {
    if (request.origin !== 'api' || !request.tenantId) continue;
    counts.set(request.tenantId, (counts.get(request.tenantId) ?? 0) + 1);
  }
  return counts;
}

async function singles(emu: Emulator, tenants: Tenant[], dir: string): Promise<CliResult[]> {
  return Promise.all(
    tenants.map(
      (tenant) =>
        spawnCli(
          [
            ...['scan', 'run', '--type', 'compliance', '--watch'],
            ...['--record', join(dir, `${tenant.name}.json`), '--tenant-label', tenant.name],
          ],
          baseEnv({ SERVICE_API_KEY: tenant.apiKey, SERVICE_API_URL: emu.url }),
        ).done,
    ),
  );
}

async function fleet(emu: Emulator, tenants: Tenant[], dir: string): Promise<CliResult> {
  const list = tenants.map((t, i) => ({ name: t.name, 'api-url': emu.url, secret: `KEY_${i}` }));
  const file = join(dir, 'tenants.json');
  await writeFile(file, JSON.stringify(list));
  const keys = Object.fromEntries(tenants.map((t, i) => [`KEY_${i}`, t.apiKey]));
  return spawnCli(
    ['scan', 'run', '--type', 'compliance', '--tenants', file, '--records', join(dir, 'records')],
    baseEnv(keys),
  ).done;
}

const readRecord = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as RecordJson;

/** What must agree between a tenant's two runs (finding ids are per scan: not compared). */
function essence(record: RecordJson): unknown {
  return {
    verdict: record.verdict,
    total: record.total,
    failed: record.failed,
    error: record.error,
    findings: record.findings.map((f) => [f.checkId, f.title, f.severity, f.result]),
  };
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const emu = await startEmulator({ seed: 37, clockSpeed: 1, requestLogLimit: 500_000 });
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-bench-tenants-'));
  try {
    const tenants = addTenants(emu);
    console.error(`baseline: ${TENANTS} single-tenant runs side by side …`);
    const before = emu.requests().length;
    const single = await singles(emu, tenants, dir);
    const singleRequests = requestsByTenant(emu, before);
    console.error(`one process, ${TENANTS} tenants …`);
    const middle = emu.requests().length;
    const many = await fleet(emu, tenants, dir);
    const manyRequests = requestsByTenant(emu, middle);

    let identical = 0;
    const differing: string[] = [];
    for (const tenant of tenants) {
      const a = await readRecord(join(dir, `${tenant.name}.json`));
      const b = await readRecord(join(dir, 'records', `${tenant.name}.json`));
      if (JSON.stringify(essence(a)) === JSON.stringify(essence(b)) && a.findings.length === FAILED)
        identical++;
      else differing.push(tenant.name);
    }
    const longest = Math.max(...single.map((r) => r.durationMs ?? 0));
    const singleRss = single.map((r) => r.peakRssBytes ?? 0);
    const ratios = tenants.map(
      (t) => (manyRequests.get(t.tenantId) ?? 0) / (singleRequests.get(t.tenantId) ?? 1),
    );
    const sum = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
    const wallRatio = (many.durationMs ?? 0) / longest;
    const peakMb = (many.peakRssBytes ?? 0) / 2 ** 20;
    const requestsRatio = sum(manyRequests) / sum(singleRequests);
    const worstRatio = Math.max(...ratios);
    const rows: Array<[string, string, string, string]> = [
      [
        'wall time: one process vs the longest single run',
        `${((many.durationMs ?? 0) / 1000).toFixed(1)} s vs ${(longest / 1000).toFixed(1)} s: ×${wallRatio.toFixed(3)}`,
        `≤ ×${TARGETS.wallRatio}`,
        wallRatio <= TARGETS.wallRatio ? 'yes' : '**no**',
      ],
      [
        `peak RSS: one process (${TENANTS} × ${FAILED} findings) vs the singles' sum (largest)`,
        `${peakMb.toFixed(0)} MiB vs ${(singleRss.reduce((a, b) => a + b, 0) / 2 ** 20).toFixed(0)} MiB (${(Math.max(...singleRss) / 2 ** 20).toFixed(0)} MiB)`,
        `≤ ${TARGETS.peakRssMb} MB`,
        peakMb * 1.048576 <= TARGETS.peakRssMb ? 'yes' : '**no**',
      ],
      [
        'requests per tenant: one process vs single runs (all; worst tenant)',
        `${(sum(manyRequests) / TENANTS).toFixed(1)} vs ${(sum(singleRequests) / TENANTS).toFixed(1)}: ×${requestsRatio.toFixed(3)}; worst ×${worstRatio.toFixed(3)}`,
        `≤ ×${TARGETS.requestsRatio}`,
        requestsRatio <= TARGETS.requestsRatio ? 'yes' : '**no**',
      ],
      [
        'records identical to the single run (verdict, counts, findings)',
        `${identical} of ${TENANTS}${differing.length ? ` (differ: ${differing.slice(0, 5).join(', ')})` : ''}`,
        'all',
        identical === TENANTS ? 'yes' : '**no**',
      ],
      [
        'wall time: one process vs its longest scan (the least any run takes)',
        `${((many.durationMs ?? 0) / 1000).toFixed(1)} s vs ${SCAN_SECONDS} s: ×${((many.durationMs ?? 0) / 1000 / SCAN_SECONDS).toFixed(2)}`,
        'reported',
        '',
      ],
      [
        'exit codes (one process; singles)',
        `${many.code}; ${[...new Set(single.map((r) => r.code))].join(', ')}`,
        'reported',
        '',
      ],
    ];
    const table = [
      '| Measure | Value | Target | Met |',
      '| --- | --- | --- | --- |',
      ...rows.map((row) => `| ${row.join(' | ')} |`),
    ].join('\n');
    const head = `Run of ${new Date().toISOString()} (\`npm run bench:tenants\`, ${TENANTS} tenants, scans of ${SCAN_SECONDS / 2}–${SCAN_SECONDS} s) on ${machineLine(machine)}.`;
    console.log(`${head}\n\n${table}`);
    if (process.env.BENCH_WRITE !== '0') {
      await replaceBlocks(README, { 'summary-tenants': `${head}\n\n${table}` });
    }
    if (many.code === null || differing.length > 0) console.error(many.stderr.slice(-4000));
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const { values: args } = parseArgs({ options: { lengths: { type: 'string' } } });

async function lengths(list: string): Promise<void> {
  const values = list.split(',').map(Number);
  if (values.length < 2 || values.some((n) => !Number.isInteger(n) || n < 1))
    throw new Error(`--lengths takes two or more whole numbers of tenants, got "${list}"`);
  const block = await lengthSeries(values);
  console.log(block);
  if (process.env.BENCH_WRITE !== '0') await replaceBlocks(README, { 'tenants-lengths': block });
}

await (args.lengths === undefined ? main() : lengths(args.lengths));
