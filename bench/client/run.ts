// npm run bench:client — (a) scans.wait vs a fixed 5 s poll loop, (b) report download vs curl.
// Prints markdown tables and writes bench/results/client.json. BENCH_ONLY=wait|download runs one part.
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg } from 'node:os';
import {
  benchDownload,
  PIPELINE,
  REPORT_BYTES,
  TOOLS,
  type DownloadRun,
} from './download-bench.js';
import { CLOCK_SPEED, benchWait, type PollerStats } from './wait-bench.js';

const TRIALS = Number(process.env.BENCH_WAIT_TRIALS ?? 20);
const ROUNDS = Number(process.env.BENCH_DOWNLOAD_ROUNDS ?? 11);
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

async function waitPart(): Promise<PollerStats[]> {
  const stats: PollerStats[] = [];
  for (const seconds of [10, 120]) stats.push(...(await benchWait(seconds, TRIALS)));
  console.log(
    `\n(a) scans.wait vs fixed 5 s loop — ${TRIALS} scans each, durations ±10 %, emulator clock ×${CLOCK_SPEED}\n`,
  );
  console.log('| scan | poller | requests median (mean) | detection delay median / p90 / max |');
  console.log('|---|---|---|---|');
  for (const s of stats) {
    console.log(
      `| ${s.scanSeconds} s | ${s.poller} | ${s.requestsMedian} (${s.requestsMean.toFixed(2)}) | ` +
        `${s.delayMedianS.toFixed(2)} s / ${s.delayP90S.toFixed(2)} s / ${s.delayMaxS.toFixed(2)} s |`,
    );
  }
  return stats;
}

async function downloadPart() {
  const { runs, idleRssMib } = await benchDownload(ROUNDS);
  const byTool = (tool: DownloadRun['tool']) => runs.filter((d) => d.tool === tool);
  console.log(
    `\n(b) download of ${REPORT_BYTES / 1024 / 1024} MiB, ${ROUNDS} rounds, the order rotating (median)\n`,
  );
  console.log('| tool | MiB/s | seconds | CPU s (user+sys) | peak RSS MiB | sha256 ok |');
  console.log('|---|---|---|---|---|---|');
  for (const tool of TOOLS) {
    const mine = byTool(tool);
    const m = (pick: (r: DownloadRun) => number) => med(mine.map(pick));
    console.log(
      `| ${tool} | ${m((r) => r.mibPerSecond).toFixed(0)} | ${m((r) => r.seconds).toFixed(2)} | ` +
        `${m((r) => r.cpuSeconds).toFixed(2)} | ${m((r) => r.peakRssMib).toFixed(0)} | ${mine.every((r) => r.sha256ok)} |`,
    );
  }
  // One run of each tool per round, so each round's runs saw about the same machine load.
  const ratiosTo = (other: DownloadRun['tool']) =>
    byTool('client').map((c, i) => c.mibPerSecond / byTool(other)[i]!.mibPerSecond);
  const pairRatios = ratiosTo('curl');
  console.log(`\nclient/curl throughput: median of per-round ratios ${med(pairRatios).toFixed(2)}`);
  // The order rotates over TOOLS (see benchDownload): the client runs first in every third round.
  const clientFirst = pairRatios.filter((_, i) => i % TOOLS.length === 0);
  const others = pairRatios.filter((_, i) => i % TOOLS.length !== 0);
  console.log(
    `  rounds with the client first ${med(clientFirst).toFixed(2)}, the others ${med(others).toFixed(2)}`,
  );
  const pipelineRatios = ratiosTo(PIPELINE);
  console.log(
    `client/(${PIPELINE}: the same download, written and hashed in one pass) throughput: ` +
      `median of per-round ratios ${med(pipelineRatios).toFixed(2)}`,
  );
  // curl's file and its digest, as a script gets them: the download, then hashing the file.
  const scriptRatios = byTool('client').map((c, i) => {
    const k = byTool('curl')[i]!;
    return (k.seconds + k.digestSeconds) / c.seconds;
  });
  console.log(
    `client/(curl, then openssl dgst -sha256 of its file) throughput: median of per-round ratios ` +
      `${med(scriptRatios).toFixed(2)} (hashing median ${med(byTool('curl').map((k) => k.digestSeconds)).toFixed(2)} s)`,
  );
  // The machine's own bound: the client's download needs its CPU plus the emulator's on the same
  // CPUs, and its main thread's CPU in a row; it can take no less than the larger of the two.
  const cpuCount = availableParallelism();
  const bounds = byTool('client').flatMap((c, i) => {
    if (!c.threads) return [];
    const work = c.threads.mainCpuS + c.threads.writersCpuS + c.serverCpuSeconds;
    const fastest = Math.max(c.threads.mainCpuS, work / cpuCount);
    return [{ work, fastest, ratio: byTool('curl')[i]!.seconds / fastest }];
  });
  console.log(
    `CPU bound on ${cpuCount} CPUs, median: the download's CPU with the emulator's ` +
      `${med(bounds.map((b) => b.work)).toFixed(2)} s, so no faster than ` +
      `${med(bounds.map((b) => b.fastest)).toFixed(2)} s: at most ` +
      `${med(bounds.map((b) => b.ratio)).toFixed(2)}× curl (emulator during curl: ` +
      `${med(byTool('curl').map((k) => k.serverCpuSeconds)).toFixed(2)} s)`,
  );
  const clientThreads = byTool('client').flatMap((c) => (c.threads ? [c.threads] : []));
  console.log(
    `client download CPU by thread, median: main thread (socket reads, sha256) ` +
      `${med(clientThreads.map((t) => t.mainCpuS)).toFixed(2)} s, file writes (libuv workers) ` +
      `${med(clientThreads.map((t) => t.writersCpuS)).toFixed(2)} s`,
  );
  console.log(
    `client process with the client loaded and no download: peak RSS ${idleRssMib.toFixed(0)} MiB`,
  );
  for (const d of runs) {
    console.log(
      `  ${d.tool}: ${d.mibPerSecond.toFixed(0)} MiB/s, CPU ${d.cpuSeconds.toFixed(2)} s` +
        (d.threads
          ? ` (download: main thread ${d.threads.mainCpuS.toFixed(2)} s, file writes ${d.threads.writersCpuS.toFixed(2)} s)`
          : '') +
        `, emulator ${d.serverCpuSeconds.toFixed(2)} s, ` +
        `${d.peakRssMib.toFixed(0)} MiB, sha256 ok ${d.sha256ok}`,
    );
  }
  return { downloads: runs, idleRssMib, pairRatios, scriptRatios, pipelineRatios, bounds };
}

console.log(`start: ${load()}`);
const waitStats = ONLY === 'download' ? [] : await waitPart();
const download = ONLY === 'wait' ? undefined : await downloadPart();
console.log(`end: ${load()}`);

await mkdir(new URL('../results/', import.meta.url), { recursive: true });
await writeFile(
  new URL('../results/client.json', import.meta.url),
  JSON.stringify(
    { at: new Date().toISOString(), clockSpeed: CLOCK_SPEED, waitStats, ...download },
    null,
    2,
  ),
);
