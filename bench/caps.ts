// npm run bench:caps — the Action at the caps of a results read (issue 46, rows 5 and 6): the
// bundled main step, run as the runner runs it, against the emulator serving results at each
// documented cap and the audit's shapes, with the default `results-max-mib` and with it raised so
// the read is whole. Each figure is a ratio against the baseline of the same run: a scan of 40
// results, 5 failed. Peak RSS is the step's own (VmHWM, test/helpers/runner.ts), in MB (10^6
// bytes, the unit of docs/guarantees.md's bound: under 700 MB at the documented caps). The caps
// themselves (the size property's examples, test/action/size.property.test.ts) and the baseline
// run `--reps N` times (default 5), a round each, for the spread a single run hides: the peak
// of the same shape varies by a third from run to run on a shared machine.
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { QUICK_SCAN, startWorld } from '../test/action/world.js';
import type { UnknownsVariant } from '../test/emulator/types.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { median } from './lib/stats.js';

const README = fileURLToPath(new URL('./README.md', import.meta.url));
const MB = 1_000_000;
const { values: args } = parseArgs({ options: { reps: { type: 'string', default: '5' } } });
const REPS = Number(args.reps);
if (!Number.isInteger(REPS) || REPS < 1)
  throw new Error(`--reps takes a whole number of rounds, 1 or more, got "${args.reps}"`);

interface Case {
  name: string;
  failed: number;
  variant?: UnknownsVariant;
  capMib?: number;
  /** A cap of the size property: run every round (the others run once). */
  repeated?: boolean;
  /** Held to the bound although results-max-mib is raised (the answer cap needs 64 to be read). */
  bounded?: boolean;
}

const CASES: Case[] = [
  { name: 'baseline: 40 results, 5 failed', failed: 5, repeated: true },
  {
    name: '250,000 results (the item cap), 50 a page',
    failed: 250_000,
    variant: { resultsPageSize: 50, findingShape: 'sparse' },
    repeated: true,
  },
  {
    name: '100,000 results, 50 a page',
    failed: 100_000,
    variant: { resultsPageSize: 50, findingShape: 'sparse' },
  },
  {
    name: '5,000 pages (the page cap) of one 6 KB result',
    failed: 5_000,
    variant: { resultsPageSize: 1, findingTextBytes: { description: 6_000, title: 200 } },
    repeated: true,
  },
  {
    name: 'one answer of 64 MiB (the answer cap): 640 results of 100 KB, results-max-mib 64',
    failed: 640,
    variant: { findingTextBytes: { description: 100_000 } },
    capMib: 64,
    repeated: true,
    bounded: true,
  },
  {
    name: '240,000 results of 500-byte descriptions',
    failed: 240_000,
    variant: { resultsPageSize: 50, findingTextBytes: { description: 500 } },
  },
  {
    name: 'the same, results-max-mib 512',
    failed: 240_000,
    variant: { resultsPageSize: 50, findingTextBytes: { description: 500 } },
    capMib: 512,
  },
  {
    name: '5,000 results of 100 KB, 10 a page',
    failed: 5_000,
    variant: { resultsPageSize: 10, findingTextBytes: { description: 100_000 } },
  },
  {
    name: 'the same, results-max-mib 1024',
    failed: 5_000,
    variant: { resultsPageSize: 10, findingTextBytes: { description: 100_000 } },
    capMib: 1_024,
  },
  {
    name: '3,000 results of 100 KB, 50 a page, results-max-mib 512',
    failed: 3_000,
    variant: { resultsPageSize: 50, findingTextBytes: { description: 100_000 } },
    capMib: 512,
  },
];

interface Run {
  peakMb: number;
  ms: number;
  outcome: string;
}

/** docs/guarantees.md's bound, at the default results-max-mib (a raised one has none): one for
 *  every shape up to the caps. */
const BOUND_MB = 700;

const bounded = (c: Case) => c.capMib === undefined || c.bounded === true;

async function runCase(world: Awaited<ReturnType<typeof startWorld>>, c: Case): Promise<Run> {
  world.reset({ ...QUICK_SCAN, outcome: { kind: 'completed', total: c.failed, failed: c.failed } });
  if (c.variant) world.emulator.setVariant(c.variant);
  const inputs: Record<string, string> = c.capMib ? { 'results-max-mib': String(c.capMib) } : {};
  const step = await world.main(inputs, { timeoutMs: 600_000 });
  const error = step.stdout.split('\n').filter((line) => line.startsWith('::error'));
  const verdict = step.outputs.verdict;
  const outcome = verdict
    ? `verdict ${verdict}, ${step.outputs.failed} failed`
    : `no verdict: ${(error.at(-1) ?? '').replace(/^::error[^:]*::/, '').replace(/GET \/scans\/[\w-]+\//, 'GET /scans/<id>/')}`;
  const run = { peakMb: (step.peakRssBytes ?? Number.NaN) / MB, ms: step.durationMs, outcome };
  console.log(`${c.name}: ${run.peakMb.toFixed(0)} MB, ${run.ms} ms, ${outcome}`);
  return run;
}

/** Each case's runs: every case in the first round, the repeated ones in every round. */
async function measure(): Promise<Run[][]> {
  const world = await startWorld();
  const runs: Run[][] = CASES.map(() => []);
  try {
    for (let round = 1; round <= REPS; round++) {
      for (const [i, c] of CASES.entries()) {
        if (round === 1 || c.repeated) runs[i]?.push(await runCase(world, c));
      }
    }
  } finally {
    await world.close();
  }
  return runs;
}

const largest = (xs: number[]) => xs.reduce((a, b) => Math.max(a, b), -Infinity);
const mb = (value: number) => `${value.toFixed(0)} MB`;

function row(c: Case, runs: Run[], base: { peakMb: number; ms: number }): string {
  const peak = median(runs.map((r) => r.peakMb));
  const most = largest(runs.map((r) => r.peakMb));
  const ms = median(runs.map((r) => r.ms));
  const rss =
    runs.length > 1
      ? `${mb(peak)}, up to ${mb(most)} (×${(peak / base.peakMb).toFixed(1)})`
      : `${mb(peak)} (×${(peak / base.peakMb).toFixed(1)})`;
  const bound = bounded(c)
    ? `${BOUND_MB} MB: ${most <= BOUND_MB ? 'met' : '**not met**'}`
    : '— (raised)';
  const outcomes = [...new Set(runs.map((r) => r.outcome))].join('; ');
  return `| ${c.name} | ${runs.length} | ${rss} | ${bound} | ${(ms / 1000).toFixed(1)} s (×${(ms / base.ms).toFixed(1)}) | ${outcomes} |`;
}

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const machine = machineLine(describeMachine());
  const runs = await measure();
  const baseRuns = runs[0] ?? [];
  const base = {
    peakMb: median(baseRuns.map((r) => r.peakMb)),
    ms: median(baseRuns.map((r) => r.ms)),
  };
  const lines = [
    '| Shape | Runs | Peak RSS, median (× baseline) | Bound | Step time, median (× baseline) | Outcome |',
    '| --- | --- | --- | --- | --- | --- |',
    ...CASES.map((c, i) => row(c, runs[i] ?? [], base)),
  ];
  const heaviest = CASES.map((c, i) => ({ c, most: largest((runs[i] ?? []).map((r) => r.peakMb)) }))
    .filter(({ c }) => bounded(c))
    .reduce((a, b) => (b.most > a.most ? b : a));
  const summary = `Heaviest of the shapes held to the bound: ${heaviest.c.name}, up to ${mb(heaviest.most)} (bound ${BOUND_MB} MB).`;
  console.log(summary);
  const head = `Run of ${started} (\`npm run bench:caps -- --reps ${REPS}\`) on ${machine}.`;
  await replaceBlocks(README, { caps: `${head}\n\n${lines.join('\n')}\n\n${summary}` });
}

await main();
