// npm run bench:caps — the Action at the caps of a results read (issue 46, rows 5 and 6): the
// bundled main step, run as the runner runs it, against the emulator serving results at each
// documented cap and the audit's shapes, with the default `results-max-mib` and with it raised so
// the read is whole. Each figure is a ratio against the baseline of the same run: a scan of 40
// results, 5 failed. Peak RSS is the step's own (VmHWM, test/helpers/runner.ts); the bound is
// docs/guarantees.md's (under 500 MB at the documented caps).
import { fileURLToPath } from 'node:url';
import { QUICK_SCAN, startWorld } from '../test/action/world.js';
import type { UnknownsVariant } from '../test/emulator/types.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';

const README = fileURLToPath(new URL('./README.md', import.meta.url));
const MB = 1024 * 1024;

interface Case {
  name: string;
  failed: number;
  variant?: UnknownsVariant;
  capMib?: number;
}

const CASES: Case[] = [
  { name: 'baseline: 40 results, 5 failed', failed: 5 },
  {
    name: '250,000 results (the item cap), 50 a page',
    failed: 250_000,
    variant: { resultsPageSize: 50, findingShape: 'sparse' },
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

interface Measured {
  name: string;
  peakMb: number;
  ms: number;
  outcome: string;
}

/** docs/guarantees.md's bound, at the default results-max-mib (a raised one has none): one for
 *  every shape up to the caps. */
const BOUND_MB = 500;

async function main(): Promise<void> {
  const started = new Date().toISOString();
  const machine = machineLine(describeMachine());
  const world = await startWorld();
  const measured: Array<Measured & { bound: number | undefined }> = [];
  try {
    for (const c of CASES) {
      world.reset({
        ...QUICK_SCAN,
        outcome: { kind: 'completed', total: c.failed, failed: c.failed },
      });
      if (c.variant) world.emulator.setVariant(c.variant);
      const inputs: Record<string, string> = c.capMib
        ? { 'results-max-mib': String(c.capMib) }
        : {};
      const step = await world.main(inputs, { timeoutMs: 600_000 });
      const error = step.stdout.split('\n').filter((line) => line.startsWith('::error'));
      const verdict = step.outputs.verdict;
      const outcome = verdict
        ? `verdict ${verdict}, ${step.outputs.failed} failed`
        : `no verdict: ${(error.at(-1) ?? '').replace(/^::error[^:]*::/, '').replace(/GET \/scans\/[\w-]+\//, 'GET /scans/<id>/')}`;
      const row = {
        name: c.name,
        peakMb: (step.peakRssBytes ?? Number.NaN) / MB,
        ms: step.durationMs,
        outcome,
        bound: c.capMib === undefined ? BOUND_MB : undefined,
      };
      measured.push(row);
      console.log(`${row.name}: ${row.peakMb.toFixed(0)} MB, ${row.ms} ms, ${outcome}`);
    }
  } finally {
    await world.close();
  }
  const [base] = measured;
  if (!base) return;
  const lines = [
    '| Shape | Peak RSS (× baseline) | Bound | Step time (× baseline) | Outcome |',
    '| --- | --- | --- | --- | --- |',
  ];
  for (const m of measured) {
    const bound =
      m.bound === undefined
        ? '— (raised)'
        : `${m.bound} MB: ${m.peakMb <= m.bound ? 'met' : '**not met**'}`;
    lines.push(
      `| ${m.name} | ${m.peakMb.toFixed(0)} MB (×${(m.peakMb / base.peakMb).toFixed(1)}) | ${bound} | ${(m.ms / 1000).toFixed(1)} s (×${(m.ms / base.ms).toFixed(1)}) | ${m.outcome} |`,
    );
  }
  const table = lines.join('\n');
  await replaceBlocks(README, {
    caps: `Run of ${started} (\`npm run bench:caps\`) on ${machine}.\n\n${table}`,
  });
}

await main();
