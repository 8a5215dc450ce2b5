// npm run bench:tenants -- --lengths 50,1000,2000 — a many-tenants run's memory against the length
// of its list (issue 46): ONE bundled CLI process (`scan run --tenants`, `--concurrency 50`) per
// length, every tenant its own account of the emulator, scans of 0.4 s failing 5 checks each. Peak
// RSS (VmHWM) is reported as a ratio to the shortest list's, in the same run, beside what V8 did
// with it (lib/heap-trace.mjs, preloaded): the largest size of its new space (the young
// generation) and of its old space, and the most the old space held after a full collection
// (what the run keeps). Then the shortest and the longest list again with the young generation
// capped (`--max-semi-space-size`).
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../test/emulator/emulator.js';
import { spawnCli, type CliResult, type Env } from '../test/cli/helpers.js';
import { describeMachine, machineLine } from './lib/machine.js';

const CONCURRENCY = 50;
const SCAN_MS = 400;
const FAILED = 5;
const SEMI_SPACE_MB = 16;
const HEAP_TRACE = new URL('./lib/heap-trace.mjs', import.meta.url).href;
const MIB = 2 ** 20;

interface Tenant {
  name: string;
  apiKey: string;
}

interface Point {
  label: string;
  tenants: number;
  capped: boolean;
  result: CliResult;
  heap: { newSpace?: number; oldSpace?: number; oldAfterFullGc?: number; fullGcs?: number };
  records: number;
}

function listEnv(tenants: Tenant[], capped: boolean, trace: string): Env {
  const flags = [`--import=${HEAP_TRACE}`];
  if (capped) flags.push(`--max-semi-space-size=${SEMI_SPACE_MB}`);
  const env: Env = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    LANG: 'C.UTF-8',
    NODE_OPTIONS: flags.join(' '),
    BENCH_HEAP_TRACE: trace,
  };
  tenants.forEach((t, i) => (env[`KEY_${i}`] = t.apiKey));
  return env;
}

async function runList(url: string, tenants: Tenant[], capped: boolean): Promise<Point> {
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-bench-lengths-'));
  try {
    const list = tenants.map((t, i) => ({ name: t.name, 'api-url': url, secret: `KEY_${i}` }));
    const file = join(dir, 'tenants.json');
    await writeFile(file, JSON.stringify(list));
    const trace = join(dir, 'heap.json');
    const records = join(dir, 'records');
    const args = ['scan', 'run', '--type', 'compliance', '--tenants', file, '--records', records];
    const result = await spawnCli(
      [...args, '--concurrency', String(CONCURRENCY)],
      listEnv(tenants, capped, trace),
      { safetyKillMs: 1_800_000 },
    ).done;
    const written = (await readdir(records).catch(() => [])).length;
    const heap = JSON.parse(await readFile(trace, 'utf8').catch(() => '{}')) as Point['heap'];
    const label = `${tenants.length.toLocaleString('en')}${capped ? `, \`--max-semi-space-size=${SEMI_SPACE_MB}\`` : ''}`;
    console.error(
      `${label}: ${mib(result.peakRssBytes)} MiB, ${seconds(result.durationMs)} s, exit ${result.code}, ${written} records`,
    );
    if (result.code !== 0) console.error(result.stderr.slice(-2000));
    return { label, tenants: tenants.length, capped, result, heap, records: written };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const mib = (bytes: number | undefined) => ((bytes ?? Number.NaN) / MIB).toFixed(0);
const seconds = (ms: number | undefined) => ((ms ?? Number.NaN) / 1000).toFixed(1);

function table(points: Point[]): string {
  const lines = [
    '| tenants in the list | peak RSS (× the shortest list, same flags) | V8 new space; old space (largest size) | old space after a full GC, most (full GCs) | wall time | records written | exit code |',
    '| --- | --- | --- | --- | --- | --- | --- |',
  ];
  for (const p of points) {
    const base = points.find((q) => q.capped === p.capped) ?? p;
    const ratio = (p.result.peakRssBytes ?? Number.NaN) / (base.result.peakRssBytes ?? Number.NaN);
    lines.push(
      `| ${p.label} | ${mib(p.result.peakRssBytes)} MiB (×${ratio.toFixed(2)}) | ${mib(p.heap.newSpace)} MiB; ${mib(p.heap.oldSpace)} MiB | ${mib(p.heap.oldAfterFullGc)} MiB (${p.heap.fullGcs ?? '?'}) | ${seconds(p.result.durationMs)} s | ${p.records} of ${p.tenants} | ${p.result.code} |`,
    );
  }
  return lines.join('\n');
}

function addTenants(emu: Awaited<ReturnType<typeof startEmulator>>, count: number): Tenant[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `tenant-${String(i + 1).padStart(5, '0')}`;
    const { apiKey } = emu.addTenant({
      name: `${name} Ltd`,
      scanPlan: {
        durationMs: SCAN_MS,
        queuedMs: 100,
        outcome: { kind: 'completed', total: FAILED + 40, failed: FAILED },
      },
    });
    return { name, apiKey };
  });
}

/** Runs the series; returns the block for bench/README.md (head line and table). */
export async function lengthSeries(lengths: number[]): Promise<string> {
  const sorted = [...new Set(lengths)].sort((a, b) => a - b);
  const shortest = sorted[0] ?? 0;
  const longest = sorted.at(-1) ?? 0;
  const machine = machineLine(describeMachine());
  const started = new Date().toISOString();
  const emu = await startEmulator({ seed: 46, clockSpeed: 1, requestLogLimit: 1_000 });
  try {
    const tenants = addTenants(emu, longest);
    const points: Point[] = [];
    for (const length of sorted)
      points.push(await runList(emu.url, tenants.slice(0, length), false));
    for (const length of new Set([shortest, longest]))
      points.push(await runList(emu.url, tenants.slice(0, length), true));
    const head =
      `Run of ${started} (\`npm run bench:tenants -- --lengths ${sorted.join(',')}\`, ` +
      `\`--concurrency ${CONCURRENCY}\`, scans of ${SCAN_MS / 1000} s failing ${FAILED} checks) on ${machine}.`;
    return `${head}\n\n${table(points)}`;
  } finally {
    await emu.close();
  }
}
