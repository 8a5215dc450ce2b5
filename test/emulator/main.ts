// `npm run emulator`: start the emulator alone, print the lines to paste (the CLI's two variables)
// and a command to try, run until Ctrl-C. `--port N` fixes the addresses (API N, download N+1,
// control N+2) so a shell that exported them keeps working across restarts.
import { parseArgs } from 'node:util';
import { startEmulator } from './emulator.js';
import type { EmulatorOptions } from './types.js';

const USAGE = `Usage: npm run emulator -- [--port N] [--seed N] [--clock-speed N] [--warmup-ms N]
                              [--rate-limit none|account|per-key] [--report-size BYTES]
                              [--results stable|every-scan] [--json]`;

function options(): { emulator: EmulatorOptions; json: boolean } {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'download-port': { type: 'string' },
      'control-port': { type: 'string' },
      seed: { type: 'string' },
      'clock-speed': { type: 'string' },
      'warmup-ms': { type: 'string' },
      'rate-limit': { type: 'string' },
      'report-size': { type: 'string' },
      results: { type: 'string' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (name: string, raw: string | undefined): number | undefined => {
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!Number.isFinite(n)) throw new Error(`--${name} must be a number`);
    return n;
  };
  const rateLimit = values['rate-limit'];
  if (rateLimit !== undefined && !['none', 'account', 'per-key'].includes(rateLimit)) {
    throw new Error('--rate-limit must be none, account or per-key');
  }
  const results = values.results;
  if (results !== undefined && results !== 'stable' && results !== 'every-scan') {
    throw new Error('--results must be stable or every-scan');
  }
  const port = num('port', values.port) ?? 0;
  // A fixed API port fixes the other two next to it; 0 lets the system pick each.
  const next = (offset: number) => (port === 0 ? 0 : port + offset);
  return {
    json: values.json,
    emulator: {
      port,
      downloadPort: num('download-port', values['download-port']) ?? next(1),
      controlPort: num('control-port', values['control-port']) ?? next(2),
      results,
      seed: num('seed', values.seed),
      clockSpeed: num('clock-speed', values['clock-speed']),
      warmupMs: num('warmup-ms', values['warmup-ms']),
      reportSizeBytes: num('report-size', values['report-size']),
      ...(rateLimit ? { rateLimit: { kind: rateLimit as 'none' | 'account' | 'per-key' } } : {}),
    },
  };
}

/** What a person pastes: the CLI's two variables, a scan to try, and how to change the tenant. */
function readyText(info: {
  url: string;
  apiKey: string;
  controlOrigin: string;
  downloadOrigin: string;
}): string {
  return `Tenant API emulator ready (results stay the same from scan to scan, as a real tenant's).

Paste into another shell:
  export SERVICE_API_URL=${info.url}
  export SERVICE_API_KEY=${info.apiKey}

Then try the CLI from this checkout (npx runs it on the Node 24 that npm ci installed): a scan,
then one compared with it:
  npx node dist/cli/index.js scan run --type compliance --watch --fail-on-findings
  npx node dist/cli/index.js scan run --type compliance --watch --baseline previous --fail-on new

Change the tenant (its next scans fail other checks):
  curl -s -X POST ${info.controlOrigin}/drift
Download origin ${info.downloadOrigin}, control origin ${info.controlOrigin} (test/emulator/README.md).
Press Ctrl-C to stop.`;
}

async function main(): Promise<void> {
  const { emulator: opts, json } = options();
  const emu = await startEmulator(opts);
  const info = {
    url: emu.url,
    downloadOrigin: emu.downloadOrigin,
    controlOrigin: emu.controlOrigin,
    apiKey: emu.apiKey,
    tenantId: emu.tenantId,
  };
  if (json) {
    console.log(JSON.stringify(info));
  } else {
    console.log(readyText(info));
  }
  const shutdown = (): void => {
    void emu.close().then(() => process.exit(0));
  };
  process.once('SIGINT', shutdown);
  process.once('SIGTERM', shutdown);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  console.error(USAGE);
  process.exit(1);
});
