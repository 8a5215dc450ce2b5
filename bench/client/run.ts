// npm run bench:client — (a) scans.wait vs a fixed 5 s poll loop, (b) report download vs curl.
// Prints markdown tables and writes bench/results/client.json. BENCH_ONLY=wait|download runs one part.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { replaceBlocks } from '../lib/readme.js';
import {
  BEFORE,
  DOWNLOAD_TARGETS,
  REPORT_BYTES,
  TOOLS,
  benchDownload,
  type DownloadRun,
  type Tool,
} from './download-bench.js';
import { BEFORE_PLANNER_COMMIT, SHAPES, benchWait, type PollerStats } from './wait-bench.js';

const TRIALS = Number(process.env.BENCH_WAIT_TRIALS ?? 20);
const ROUNDS = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 9);
const ONLY = process.env.BENCH_ONLY;
const load = () =>
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} on ${cpus().length} CPUs`;
const med = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** The lines each part printed, kept for its block in bench/README.md. */
const printed: Record<'wait' | 'download', string[]> = { wait: [], download: [] };
let part: keyof typeof printed = 'wait';
const print = (line: string) => {
  console.log(line);
  printed[part].push(line);
};

/** Issue 24's targets, per shape: median delay, worst delay, status reads against the loop's. */
function waitTarget(shape: string): { medianS: number; worstS: number; reads: number } {
  return shape === 'linear'
    ? { medianS: 1.5, worstS: 6, reads: 1 }
    : { medianS: 2.5, worstS: 6, reads: 1.25 };
}

async function waitPart(): Promise<PollerStats[]> {
  const stats = await benchWait(TRIALS);
  const of = (shape: string, poller: string) =>
    stats.find((s) => s.shape === shape && s.poller === poller)!;
  print(
    `\n(a) the end of a scan noticed: ${TRIALS} scans of 40–60 s per progress shape, each followed by today's planner, the planner of ${BEFORE_PLANNER_COMMIT} (before issue 24) and a 5 s loop, all in one run\n`,
  );
  print(
    '| progress shape | planner | end noticed after (median / worst) | a 5 s loop (median) | status reads vs the loop | target met |',
  );
  print('|---|---|---|---|---|---|');
  for (const shape of SHAPES) {
    const loop = of(shape, 'fixed 5 s');
    for (const poller of ['wait before', 'wait'] as const) {
      const s = of(shape, poller);
      const ratio = s.readsMean / loop.readsMean;
      const target = waitTarget(shape);
      const met =
        s.delayMedianS <= target.medianS && s.delayMaxS <= target.worstS && ratio <= target.reads;
      print(
        `| ${shape} | ${poller === 'wait' ? 'today' : `before (${BEFORE_PLANNER_COMMIT})`} | ` +
          `${s.delayMedianS.toFixed(2)} / ${s.delayMaxS.toFixed(2)} s | ${loop.delayMedianS.toFixed(2)} s | ` +
          `×${ratio.toFixed(2)} | ${poller === 'wait' ? (met ? 'yes' : '**NO**') : ''} |`,
      );
    }
  }
  print(
    `\nTargets: median ≤ 2.5 s (≤ 1.5 s on linear), worst ≤ 6 s, status reads ≤ ×1.25 the loop's (≤ ×1 on linear).`,
  );
  return stats;
}

async function downloadPart() {
  part = 'download';
  const { runs, idleRssMib } = await benchDownload(ROUNDS);
  const byTool = (tool: Tool) => runs.filter((d) => d.tool === tool);
  const m = (tool: Tool, pick: (r: DownloadRun) => number) => med(byTool(tool).map(pick));
  print(
    `\n(b) download of ${REPORT_BYTES / 2 ** 20} MiB, ${ROUNDS} rounds, the order rotating (median)\n`,
  );
  print('| tool | MiB/s | seconds | peak RSS MiB | sha256 ok |');
  print('|---|---|---|---|---|');
  for (const tool of TOOLS) {
    print(
      `| ${tool} | ${m(tool, (r) => r.mibPerSecond).toFixed(0)} | ${m(tool, (r) => r.seconds).toFixed(3)} | ` +
        `${m(tool, (r) => r.peakRssMib).toFixed(0)} | ${byTool(tool).every((r) => r.sha256ok)} |`,
    );
  }
  // One run of each tool per round: each ratio compares runs that saw about the same load.
  const ratiosTo = (tool: Tool) =>
    byTool(tool).map((r, i) => r.mibPerSecond / byTool('curl')[i]!.mibPerSecond);
  const clientRatio = med(ratiosTo('client'));
  const clientRss = Math.max(...byTool('client').map((r) => r.peakRssMib));
  const { curlRatio, peakRssMib } = DOWNLOAD_TARGETS;
  print(
    `\nclient/curl throughput, median of per-round ratios: ${clientRatio.toFixed(2)} ` +
      `(target ≥ ${curlRatio}: ${clientRatio >= curlRatio ? 'met' : 'NOT met'}); ` +
      `${BEFORE}/curl: ${med(ratiosTo(BEFORE)).toFixed(2)}`,
  );
  print(
    `client peak RSS, max of ${ROUNDS}: ${clientRss.toFixed(0)} MiB (target ≤ ${peakRssMib}: ` +
      `${clientRss <= peakRssMib ? 'met' : 'NOT met'}); the same process with no download: ` +
      `${idleRssMib.toFixed(0)} MiB`,
  );
  return { downloads: runs, idleRssMib, clientRatio, clientRss };
}

console.log(`start: ${load()}`);
const waitStats = ONLY === 'download' ? [] : await waitPart();
const download = ONLY === 'wait' ? undefined : await downloadPart();
console.log(`end: ${load()}`);
const blocks: Record<string, string> = {};
for (const [name, lines] of Object.entries(printed)) {
  if (lines.length === 0) continue;
  const stamp = `Run of ${new Date().toISOString()} (\`npm run bench:client\`), ${load()}.`;
  blocks[`client-${name}`] = [stamp, ...lines].join('\n');
}
await replaceBlocks(fileURLToPath(new URL('../README.md', import.meta.url)), blocks);

await mkdir(new URL('../results/', import.meta.url), { recursive: true });
await writeFile(
  new URL('../results/client.json', import.meta.url),
  JSON.stringify({ at: new Date().toISOString(), waitStats, ...download }, null, 2),
);
