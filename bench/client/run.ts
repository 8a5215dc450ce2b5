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
import { CLOCK_SPEED, benchWait, type PollerStats } from './wait-bench.js';

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

async function waitPart(): Promise<PollerStats[]> {
  const stats: PollerStats[] = [];
  for (const seconds of [10, 120]) stats.push(...(await benchWait(seconds, TRIALS)));
  print(
    `\n(a) scans.wait vs fixed 5 s loop — ${TRIALS} scans each, durations ±10 %, emulator clock ×${CLOCK_SPEED}\n`,
  );
  print('| scan | poller | requests median (mean) | detection delay median / p90 / max |');
  print('|---|---|---|---|');
  for (const s of stats) {
    print(
      `| ${s.scanSeconds} s | ${s.poller} | ${s.requestsMedian} (${s.requestsMean.toFixed(2)}) | ` +
        `${s.delayMedianS.toFixed(2)} s / ${s.delayP90S.toFixed(2)} s / ${s.delayMaxS.toFixed(2)} s |`,
    );
  }
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
  JSON.stringify(
    { at: new Date().toISOString(), clockSpeed: CLOCK_SPEED, waitStats, ...download },
    null,
    2,
  ),
);
