// One reports.download in its own process, so its peak RSS is the client's alone. argv: baseUrl
// apiKey scanId outPath. Prints one JSON line: bytes, sha256, ms (the download call alone) and the
// process's peak RSS (VmHWM, /proc/self/status, read just before exit). The client makes one API
// call first, untimed, as a run does many before its report: its one-time costs (the first
// connection, compiling undici's HTTP parser) are not the download's. With `--idle` it only loads
// the client: the baseline RSS of the same process without a download.
import { readFileSync } from 'node:fs';

type CreateClient = (options: {
  apiKey: string;
  baseUrl: string;
  env: Record<string, string | undefined>;
}) => {
  reports: {
    status(id: string): Promise<unknown>;
    download(id: string, path: string): Promise<{ bytes: number; sha256: string }>;
  };
  close(): Promise<void>;
};

const peakRssKb = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

export async function downloadOnce(createClient: CreateClient): Promise<void> {
  if (process.argv[2] === '--idle') {
    process.stdout.write(`${JSON.stringify({ vmHwmKb: peakRssKb() })}\n`);
    return;
  }
  const [baseUrl, apiKey, scanId, out] = process.argv.slice(2);
  const client = createClient({ apiKey: apiKey!, baseUrl: baseUrl!, env: {} });
  await client.reports.status(scanId!);
  const started = performance.now();
  const result = await client.reports.download(scanId!, out!);
  const ms = performance.now() - started;
  await client.close();
  const line = { bytes: result.bytes, sha256: result.sha256, ms, vmHwmKb: peakRssKb() };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
