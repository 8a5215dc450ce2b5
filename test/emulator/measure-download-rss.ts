// Manual measurement (not part of `npm test`): download a 500 MB report from an emulator running
// in its own process and report that process's peak RSS (VmHWM from /proc, Linux).
//   node --import tsx test/emulator/measure-download-rss.ts [bytes]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const SIZE = Number(process.argv[2] ?? 500 * 1024 * 1024);
const LIMIT_MB = 150;
const MAIN = fileURLToPath(new URL('./main.ts', import.meta.url));

function memoryOf(pid: number): { rssMb: number; peakMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? NaN);
  return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
}

async function main(): Promise<void> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', MAIN, '--json', '--report-size', String(SIZE)],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const lines = createInterface({ input: child.stdout });
  const [line] = (await once(lines, 'line')) as [string];
  const info = JSON.parse(line) as { url: string; apiKey: string; controlOrigin: string };
  const auth = { authorization: `Bearer ${info.apiKey}`, 'content-type': 'application/json' };
  try {
    const scan = await (
      await fetch(`${info.url}/tenants/me/scans`, {
        method: 'POST',
        headers: auth,
        body: '{"scanType":"compliance"}',
      })
    ).json();
    const id = (scan as { data: { id: string } }).data.id;
    const advance = () =>
      fetch(`${info.controlOrigin}/clock/advance`, { method: 'POST', body: '{"ms":3600000}' });
    await advance();
    await fetch(`${info.url}/scans/${id}/report/generate`, { method: 'POST', headers: auth });
    await advance();
    const report = (await (
      await fetch(`${info.url}/scans/${id}/report`, { headers: auth })
    ).json()) as { data: { downloadUrl: string } };
    const before = memoryOf(child.pid!);
    console.log(
      `emulator pid ${child.pid}: RSS before download ${before.rssMb.toFixed(1)} MB (peak so far ${before.peakMb.toFixed(1)} MB)`,
    );

    const started = Date.now();
    let sampledPeak = 0;
    const sampler = setInterval(
      () => (sampledPeak = Math.max(sampledPeak, memoryOf(child.pid!).rssMb)),
      50,
    );
    const response = await fetch(report.data.downloadUrl);
    const hash = createHash('sha256');
    let bytes = 0;
    for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
      hash.update(chunk);
      bytes += chunk.length;
    }
    clearInterval(sampler);
    const seconds = (Date.now() - started) / 1000;
    const after = memoryOf(child.pid!);
    const digest = (await (await fetch(`${info.controlOrigin}/reports/${id}/digest`)).json()) as {
      data: { sha256: string };
    };
    const matches = digest.data.sha256 === hash.digest('hex');
    console.log(
      `downloaded ${bytes} bytes in ${seconds.toFixed(1)} s (${(bytes / 1048576 / seconds).toFixed(0)} MB/s), sha256 matches reportDigest: ${matches}`,
    );
    console.log(
      `emulator peak RSS (VmHWM): ${after.peakMb.toFixed(1)} MB; highest sampled RSS during download: ${sampledPeak.toFixed(1)} MB; limit ${LIMIT_MB} MB`,
    );
    process.exitCode = after.peakMb < LIMIT_MB && matches && bytes === SIZE ? 0 : 1;
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
}

await main();
