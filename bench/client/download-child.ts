// Runs one reports.download in its own process so its peak RSS is the client's alone.
// argv: baseUrl apiKey scanId outPath. Prints one JSON line. With `--idle` it only loads the client
// and exits: the baseline RSS of the same process without a download. Peak RSS is the kernel's
// VmHWM of this process (/proc/self/status), read just before exit.
import { readFileSync } from 'node:fs';
import { createClient } from '../../src/client/index.js';
import { keepHttpParserOnBaselineCompiler } from '../../src/v8-tuning.js';

const peakRssKb = () =>
  Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? NaN);

if (process.argv[2] === '--idle') {
  process.stdout.write(`${JSON.stringify({ vmHwmKb: peakRssKb() })}\n`);
  process.exit(0);
}

// As the Action's and the CLI's entries do (src/v8-tuning.ts); BENCH_V8_DEFAULTS=1 leaves V8 as is.
if (!process.env.BENCH_V8_DEFAULTS) keepHttpParserOnBaselineCompiler();
const [baseUrl, apiKey, scanId, out] = process.argv.slice(2);
const client = createClient({ apiKey: apiKey!, baseUrl: baseUrl!, env: {} });
const started = performance.now();
const result = await client.reports.download(scanId!, out!);
const ms = performance.now() - started;
await client.close();
process.stdout.write(
  `${JSON.stringify({ bytes: result.bytes, sha256: result.sha256, ms, vmHwmKb: peakRssKb() })}\n`,
);
