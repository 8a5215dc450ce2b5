// (b) reports.download of a 50 MiB report, beside curl on the same kind of address and beside the
// client of BEFORE_LIBRARIES_COMMIT (its raw-socket download, batched file writer and V8 flag):
// throughput and peak RSS. The emulator (which generates the bytes) runs in this process; each tool
// runs as its own child process, one of each per round, the order rotating, so each round's runs
// see about the same machine load. Each client child is bundled first with esbuild (a
// devDependency), so it runs as plain JS like dist/ does, without tsx's memory in its RSS.
import { execFile, execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createClient } from '../../src/client/index.js';
import { startEmulator } from '../../test/emulator/emulator.js';
import { PROJECT_ROOT } from '../../test/helpers/runner.js';
import { BEFORE_LIBRARIES_COMMIT } from '../lib/dist-snapshot.js';

const run = promisify(execFile);
export const REPORT_BYTES = 50 * 1024 * 1024;
export const DOWNLOAD_TARGETS = { peakRssMib: 150, curlRatio: 0.5 } as const;
export const BEFORE = `client before (${BEFORE_LIBRARIES_COMMIT})`;
export const TOOLS = ['client', BEFORE, 'curl'] as const;
export type Tool = (typeof TOOLS)[number];

export interface DownloadRun {
  tool: Tool;
  seconds: number;
  mibPerSecond: number;
  peakRssMib: number;
  sha256ok: boolean;
}

const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));
const DOWNLOAD_ONCE = fileURLToPath(new URL('./download-once.ts', import.meta.url));

async function bundle(entry: string, outfile: string): Promise<string> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
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

/** The client of BEFORE_LIBRARIES_COMMIT, from git, with the V8 flag its entries set. */
async function bundleBeforeChild(): Promise<string> {
  const dir = join(RESULTS, `before-${BEFORE_LIBRARIES_COMMIT}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  execFileSync(
    'sh',
    ['-c', `git archive ${BEFORE_LIBRARIES_COMMIT} src | tar -x -C "$1"`, 'sh', dir],
    {
      cwd: PROJECT_ROOT,
    },
  );
  const entry = join(dir, 'child.ts');
  await writeFile(
    entry,
    [
      "import { createClient } from './src/client/index.js';",
      "import { keepHttpParserOnBaselineCompiler } from './src/v8-tuning.js';",
      `import { downloadOnce } from ${JSON.stringify(DOWNLOAD_ONCE)};`,
      'keepHttpParserOnBaselineCompiler();',
      'await downloadOnce(createClient);',
      'process.exit();',
    ].join('\n'),
  );
  return bundle(entry, join(RESULTS, 'download-child-before.mjs'));
}

/** The child's own report: its VmHWM is its peak RSS; `ms` times the download call alone. */
async function clientRun(child: string, args: string[], out: string) {
  const { stdout } = await run(process.execPath, [child, ...args, out], { maxBuffer: 1 << 20 });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as {
    sha256: string;
    ms: number;
    vmHwmKb: number;
  };
}

async function sha256Of(path: string): Promise<string | undefined> {
  return (await run('openssl', ['dgst', '-sha256', '-r', path])).stdout.split(' ')[0];
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
    const children: Record<Exclude<Tool, 'curl'>, string> = {
      client: await bundle(
        fileURLToPath(new URL('./download-child.ts', import.meta.url)),
        join(RESULTS, 'download-child.mjs'),
      ),
      [BEFORE]: await bundleBeforeChild(),
    };
    const { stdout: idle } = await run(process.execPath, [children.client, '--idle']);
    const idleRssMib = (JSON.parse(idle.trim()) as { vmHwmKb: number }).vmHwmKb / 1024;
    const scan = await client.scans.create('compliance');
    for await (const _ of client.scans.wait(scan.id, { minIntervalMs: 50, maxIntervalMs: 200 }))
      void _;
    await client.reports.generate(scan.id);
    emu.advance(3_600_000);
    const expected = emu.reportDigest(scan.id).sha256;
    const measure = async (tool: Tool): Promise<DownloadRun> => {
      const out = join(dir, 'report.pdf');
      let seconds: number;
      let peakRssMib: number;
      if (tool === 'curl') {
        // Asked afresh, so the presigned address never expires mid-bench; curl's own time_total.
        const address = (await client.reports.status(scan.id)).downloadUrl!;
        const format = ['-f', 'MAXRSS=%M'];
        const curl = ['curl', '-sS', '-f', '-o', out, '-w', '%{time_total}', address];
        const { stdout, stderr } = await run('/usr/bin/time', [...format, ...curl]);
        seconds = Number(stdout.trim());
        peakRssMib = Number(/MAXRSS=(\d+)/.exec(stderr)?.[1] ?? NaN) / 1024;
      } else {
        const report = await clientRun(children[tool], [emu.url, emu.apiKey, scan.id], out);
        seconds = report.ms / 1000;
        peakRssMib = report.vmHwmKb / 1024;
      }
      const sha256ok = (await sha256Of(out)) === expected;
      await rm(out, { force: true });
      return {
        tool,
        seconds,
        mibPerSecond: REPORT_BYTES / 2 ** 20 / seconds,
        peakRssMib,
        sha256ok,
      };
    };
    for (let round = 0; round < rounds; round++) {
      const done = new Map<Tool, DownloadRun>();
      for (let i = 0; i < TOOLS.length; i++) {
        const tool = TOOLS[(round + i) % TOOLS.length]!;
        done.set(tool, await measure(tool));
      }
      runs.push(...TOOLS.map((tool) => done.get(tool)!));
    }
    return { runs, idleRssMib };
  } finally {
    await client.close();
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}
