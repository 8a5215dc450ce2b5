// npm run bench:rollup — the roll-up at scale (issue 27): 500 run records of 1,000 failed findings
// each (as `scan run --record` writes them), rolled up by the bundled CLI (`rollup` with --json and
// --markdown), against a baseline in the same run: a process that only reads and parses every
// record. Wall time and peak RSS are measured from outside the process (VmHWM in /proc).
// Targets: ≤ 5 s, ≤ 300 MB peak RSS, the Markdown ≤ 1 MiB with a line saying what was cut.
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NODE_24 } from '../test/helpers/runner.js';
import { watchPeakRss } from '../test/helpers/peak-rss.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { median } from './lib/stats.js';

const RECORDS = Number(process.env.BENCH_ROLLUP_RECORDS ?? 500);
const FINDINGS = 1_000;
const ROUNDS = Number(process.env.BENCH_ROLLUP_ROUNDS ?? 3);
const CLI = fileURLToPath(new URL('../dist/cli/index.js', import.meta.url));
const BASELINE = fileURLToPath(new URL('./lib/parse-records.mjs', import.meta.url));
const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;

/** A record as `scan run --record` writes it; tenant i fails checks of a catalogue of 3,000. */
function recordOf(i: number): unknown {
  const findings = Array.from({ length: FINDINGS }, (_, j) => {
    const check = `CIS-${(i * 7 + j * 3) % 3000}`;
    return {
      id: `${i}-${j}`,
      checkId: check,
      title: `Ensure the control ${check} is configured as the benchmark recommends`,
      severity: SEVERITIES[(i + j) % SEVERITIES.length],
      category: 'Identity',
      result: 'Failed',
      description: `The tenant does not meet this control: ${check}. `.repeat(3),
      remediation: 'Change the setting in the admin centre and re-run the scan to confirm it.',
      reference: `https://docs.example.com/compliance/checks/${check.toLowerCase()}`,
      gating: true,
    };
  });
  return {
    version: 1,
    label: `tenant-${String(i).padStart(3, '0')}`,
    scan: {
      id: `scan-${i}`,
      status: 'completed',
      phase: 'succeeded',
      completedAt: '2026-11-25T03:00:00Z',
    },
    tenant: `Tenant ${i} Ltd`,
    verdict: 'failed',
    error: null,
    total: 2 * FINDINGS,
    failed: FINDINGS,
    new: FINDINGS,
    overdue: null,
    gate: { failOnSeverity: 'info', failOn: 'any', failing: FINDINGS },
    findings,
    fixedFindings: [],
    exitCode: 2,
  };
}

interface Measure {
  ms: number;
  peakRssBytes: number;
  code: number | null;
}

function measure(args: string[], cwd: string): Promise<Measure> {
  const started = performance.now();
  const child = spawn(NODE_24, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  const memory = watchPeakRss(child.pid);
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const peakRssBytes = memory.stop() ?? Number.NaN;
      if (code !== 0 && code !== 2) reject(new Error(`exit ${code}: ${stderr}`));
      resolve({ ms: performance.now() - started, peakRssBytes, code });
    });
  });
}

const machine = describeMachine();
console.log(`machine: ${machineLine(machine)}`);
const dir = await mkdtemp(join(tmpdir(), 'bench-rollup-'));
try {
  await mkdir(join(dir, 'records'));
  const files: string[] = [];
  let bytes = 0;
  for (let i = 0; i < RECORDS; i++) {
    const text = JSON.stringify(recordOf(i), null, 2);
    bytes += text.length;
    files.push(`records/${String(i).padStart(3, '0')}.json`);
    await writeFile(join(dir, files.at(-1)!), text);
  }
  const baseline: Measure[] = [];
  const rollup: Measure[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(await measure([BASELINE, ...files], dir));
    rollup.push(
      await measure(
        [
          CLI,
          'rollup',
          'records/*.json',
          '--json',
          '--markdown',
          'rollup.md',
          '--fail-on-findings',
        ],
        dir,
      ),
    );
  }
  const markdown = await readFile(join(dir, 'rollup.md'), 'utf8');
  const markdownBytes = Buffer.byteLength(markdown);
  const cutLine = /_…and \d+ more (tenants?|failing checks?)[^_]*_/.exec(markdown)?.[0] ?? 'none';
  const ms = median(rollup.map((m) => m.ms));
  const baseMs = median(baseline.map((m) => m.ms));
  const peak = Math.max(...rollup.map((m) => m.peakRssBytes));
  const basePeak = Math.max(...baseline.map((m) => m.peakRssBytes));
  const mb = (b: number) => (b / 1e6).toFixed(0);
  const lines = [
    `Run of ${new Date().toISOString()} (\`npm run bench:rollup\`) on ${machineLine(machine)}.`,
    '',
    `${RECORDS} records of ${FINDINGS} failed findings each (${(bytes / 1e6).toFixed(0)} MB of JSON), ${ROUNDS} rounds alternating.`,
    '',
    '| process | seconds (median) | peak RSS MB (max) |',
    '|---|---|---|',
    `| baseline: read and parse every record, nothing kept | ${(baseMs / 1000).toFixed(2)} | ${mb(basePeak)} |`,
    `| \`tenant-scan rollup\` --json --markdown | ${(ms / 1000).toFixed(2)} | ${mb(peak)} |`,
    '',
    `Roll-up/baseline: time ×${(ms / baseMs).toFixed(2)}, memory ×${(peak / basePeak).toFixed(2)}. ` +
      `Targets: ≤ 5 s (${ms <= 5_000 ? 'met' : 'NOT met'}), ≤ 300 MB (${peak <= 300e6 ? 'met' : 'NOT met'}), ` +
      `Markdown ≤ 1 MiB: ${markdownBytes} bytes (${markdownBytes <= 1_048_576 ? 'met' : 'NOT met'}), cut line: ${cutLine}.`,
  ];
  console.log(lines.join('\n'));
  await replaceBlocks(fileURLToPath(new URL('./README.md', import.meta.url)), {
    rollup: lines.join('\n'),
  });
} finally {
  await rm(dir, { recursive: true, force: true });
}
