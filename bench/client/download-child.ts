// Runs one reports.download in its own process so its peak RSS is the client's alone.
// argv: baseUrl apiKey scanId outPath. Prints one JSON line. With `--idle` it only loads the client
// and exits: the baseline RSS of the same process without a download. Peak RSS is the kernel's
// VmHWM of this process (/proc/self/status), read just before exit.
import { readdirSync, readFileSync } from 'node:fs';
import { createClient } from '../../src/client/index.js';

/** CPU seconds (user + system) of this process's threads, by thread name, from /proc (ticks of
 *  1/100 s): the file writes run on libuv's worker threads, the socket reads and the hash on the
 *  main thread, so the split shows which side a slow run lost its time on. */
function cpuByThread(): Map<string, number> {
  const byName = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    byName.set(name, (byName.get(name) ?? 0) + ticks / 100);
  }
  return byName;
}

const peakRssKb = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

if (process.argv[2] === '--idle') {
  process.stdout.write(`${JSON.stringify({ vmHwmKb: peakRssKb() })}\n`);
  process.exit(0);
}

const [baseUrl, apiKey, scanId, out] = process.argv.slice(2);
const client = createClient({ apiKey: apiKey!, baseUrl: baseUrl!, env: {} });
const cpuBefore = cpuByThread();
const started = performance.now();
const result = await client.reports.download(scanId!, out!);
const ms = performance.now() - started;
const cpuAfter = cpuByThread();
await client.close();
const spent = (name: string) => (cpuAfter.get(name) ?? 0) - (cpuBefore.get(name) ?? 0);
process.stdout.write(
  `${JSON.stringify({
    bytes: result.bytes,
    sha256: result.sha256,
    ms,
    vmHwmKb: peakRssKb(),
    mainThreadCpuS: spent('MainThread'),
    writerThreadsCpuS: spent('libuv-worker'),
  })}\n`,
);
