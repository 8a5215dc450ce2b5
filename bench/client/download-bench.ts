// (b) reports.download of a 500 MiB report against curl on the same kind of address: throughput,
// CPU time and peak RSS. The emulator (which generates the bytes) runs in this process; the client
// and curl each run as their own child process, alternately (the order flips every round), so each
// pair sees about the same machine load. The client's peak RSS is its own VmHWM. The client child
// is bundled first with esbuild (a devDependency), so it runs as plain JS like dist/ does, without
// tsx's memory in its RSS.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '../../src/client/index.js';
import { startEmulator } from '../../test/emulator/emulator.js';

const run = promisify(execFile);
export const REPORT_BYTES = 500 * 1024 * 1024;

/** curl alone; the same download hashed in the same pass by a shell pipeline (what a script does to
 *  get the file and its digest at once: the work the client does). */
export const PIPELINE = 'curl | tee | openssl';
export const TOOLS = ['client', 'curl', PIPELINE] as const;

export interface DownloadRun {
  tool: (typeof TOOLS)[number];
  seconds: number;
  mibPerSecond: number;
  /** User + system CPU seconds of the process: independent of how busy the machine is. */
  cpuSeconds: number;
  /** CPU seconds this process (the emulator serving the bytes) spent during the run, on the same
   *  CPUs: what the machine had left for the tool is (CPUs × seconds) minus this. */
  serverCpuSeconds: number;
  /** The client's download alone, by thread: socket reads and sha256 / file writes. */
  threads?: { mainCpuS: number; writersCpuS: number };
  peakRssMib: number;
  sha256ok: boolean;
  /** Wall seconds of `openssl dgst -sha256` reading the tool's file back (from the page cache). */
  digestSeconds: number;
}

/** What download-child.ts prints: its own VmHWM, and for a download the bytes, sha256 and time. */
interface ChildReport {
  vmHwmKb?: number;
  sha256?: string;
  ms: number;
  mainThreadCpuS?: number;
  writerThreadsCpuS?: number;
}

interface Measured {
  stdout: string;
  maxRssKb: number;
  cpuSeconds: number;
  serverCpuSeconds: number;
}

const cpuMicros = ({ user, system }: NodeJS.CpuUsage) => user + system;

async function measured(cmd: string, args: string[]): Promise<Measured> {
  const format = ['-f', 'MAXRSS=%M CPU=%U+%S'];
  const server = process.cpuUsage();
  const { stdout, stderr } = await run('/usr/bin/time', [...format, cmd, ...args], {
    maxBuffer: 1 << 20,
  });
  const cpu = /CPU=([\d.]+)\+([\d.]+)/.exec(stderr);
  return {
    stdout,
    maxRssKb: Number(/MAXRSS=(\d+)/.exec(stderr)?.[1] ?? NaN),
    cpuSeconds: Number(cpu?.[1] ?? NaN) + Number(cpu?.[2] ?? NaN),
    serverCpuSeconds: cpuMicros(process.cpuUsage(server)) / 1e6,
  };
}

async function bundleChild(): Promise<string> {
  const { build } = await import('esbuild');
  const outfile = fileURLToPath(new URL('../results/download-child.mjs', import.meta.url));
  await build({
    entryPoints: [fileURLToPath(new URL('./download-child.ts', import.meta.url))],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node24',
    packages: 'external',
    outfile,
    logLevel: 'warning',
  });
  return outfile;
}

function toRun(
  tool: DownloadRun['tool'],
  seconds: number,
  m: Measured,
  onDisk: OnDisk,
  expectedSha256: string,
  /** Digests the tool reported itself, besides the one of its file on disk. */
  ...reported: (string | undefined)[]
): DownloadRun {
  return {
    tool,
    seconds,
    mibPerSecond: REPORT_BYTES / 1024 / 1024 / seconds,
    cpuSeconds: m.cpuSeconds,
    serverCpuSeconds: m.serverCpuSeconds,
    peakRssMib: m.maxRssKb / 1024,
    sha256ok: [onDisk.sha256, ...reported].every((digest) => digest === expectedSha256),
    digestSeconds: onDisk.seconds,
  };
}

interface OnDisk {
  sha256: string | undefined;
  seconds: number;
}

/**
 * Both tools' files get the same treatment after their run (read back and hashed, then removed),
 * so neither run inherits more page-cache or writeback work from the run before it. The read-back
 * is timed: curl's download plus it is what a script needs for the file and its digest, which the
 * client returns from the download itself. OpenSSL hashes with the CPU's SHA instructions here
 * (~1.9 GB/s); coreutils' sha256sum 9.1 does not (~0.3 GB/s) and would flatter the client.
 */
async function fileDigestThenRemove(path: string): Promise<OnDisk> {
  const started = performance.now();
  const sha256 = (await run('openssl', ['dgst', '-sha256', '-r', path])).stdout.split(' ')[0];
  const seconds = (performance.now() - started) / 1000;
  await rm(path, { force: true });
  return { sha256, seconds };
}

export async function benchDownload(
  rounds: number,
): Promise<{ runs: DownloadRun[]; idleRssMib: number }> {
  const emu = await startEmulator({
    reportSizeBytes: REPORT_BYTES,
    clockSpeed: 100,
    downloadTtlMs: 3_600_000,
  });
  const client = createClient({ apiKey: emu.apiKey, baseUrl: emu.url, env: {} });
  const dir = await mkdtemp(join(tmpdir(), 'bench-dl-'));
  const runs: DownloadRun[] = [];
  try {
    const child = await bundleChild();
    const idle = await measured(process.execPath, [child, '--idle']);
    const idleHwm = (JSON.parse(idle.stdout.trim()) as ChildReport).vmHwmKb;
    const scan = await client.scans.create('compliance');
    for await (const _ of client.scans.wait(scan.id, { minIntervalMs: 50, maxIntervalMs: 200 }))
      void _;
    await client.reports.generate(scan.id);
    emu.advance(3_600_000);
    const expected = emu.reportDigest(scan.id);
    const clientRun = async (): Promise<DownloadRun> => {
      const out = join(dir, 'client.pdf');
      const c = await measured(process.execPath, [child, emu.url, emu.apiKey, scan.id, out]);
      const onDisk = await fileDigestThenRemove(out);
      const parsed = JSON.parse(c.stdout.trim().split('\n').at(-1)!) as ChildReport;
      const peak = { ...c, maxRssKb: parsed.vmHwmKb ?? c.maxRssKb };
      const threads = {
        mainCpuS: parsed.mainThreadCpuS ?? NaN,
        writersCpuS: parsed.writerThreadsCpuS ?? NaN,
      };
      const measuredRun = toRun(
        'client',
        parsed.ms / 1000,
        peak,
        onDisk,
        expected.sha256,
        parsed.sha256,
      );
      return { ...measuredRun, threads };
    };
    /** Asked before every external tool's run, so the presigned address never expires mid-bench. */
    const freshDownloadUrl = async () => (await client.reports.status(scan.id)).downloadUrl!;
    const curlRun = async (): Promise<DownloadRun> => {
      const curlOut = join(dir, 'curl.pdf');
      const k = await measured('curl', [
        '-sS',
        '-f',
        '-o',
        curlOut,
        '-w',
        '%{time_total}',
        await freshDownloadUrl(),
      ]);
      const onDisk = await fileDigestThenRemove(curlOut);
      return toRun('curl', Number(k.stdout.trim()), k, onDisk, expected.sha256);
    };
    const pipelineRun = async (): Promise<DownloadRun> => {
      const out = join(dir, 'pipeline.pdf');
      const started = performance.now();
      const p = await measured('bash', [
        '-o',
        'pipefail',
        '-c',
        'curl -sS -f "$1" | tee "$2" | openssl dgst -sha256 -r',
        'bash',
        await freshDownloadUrl(),
        out,
      ]);
      // Wall time from the spawn: includes starting the three processes (a few ms), which curl's
      // own time_total does not.
      const seconds = (performance.now() - started) / 1000;
      const onDisk = await fileDigestThenRemove(out);
      return toRun(PIPELINE, seconds, p, onDisk, expected.sha256, p.stdout.split(' ')[0]);
    };
    const byTool = { client: clientRun, curl: curlRun, [PIPELINE]: pipelineRun };
    // The order rotates every round so that no tool always runs after the same one; the runs are
    // kept in TOOLS order, one of each per round.
    for (let round = 0; round < rounds; round++) {
      const done = new Map<DownloadRun['tool'], DownloadRun>();
      for (let i = 0; i < TOOLS.length; i++) {
        const tool = TOOLS[(round + i) % TOOLS.length]!;
        done.set(tool, await byTool[tool]());
      }
      runs.push(...TOOLS.map((tool) => done.get(tool)!));
    }
    return { runs, idleRssMib: (idleHwm ?? idle.maxRssKb) / 1024 };
  } finally {
    await client.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}
