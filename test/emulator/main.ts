// `npm run emulator`: start the emulator alone, print its addresses and a ready key, run until Ctrl-C.
import { parseArgs } from 'node:util';
import { startEmulator } from './emulator.js';
import type { EmulatorOptions } from './types.js';

const USAGE = `Usage: npm run emulator -- [--port N] [--seed N] [--clock-speed N] [--warmup-ms N]
                              [--rate-limit none|account|per-key] [--report-size BYTES] [--json]`;

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
  return {
    json: values.json,
    emulator: {
      port: num('port', values.port) ?? 0,
      downloadPort: num('download-port', values['download-port']),
      controlPort: num('control-port', values['control-port']),
      seed: num('seed', values.seed),
      clockSpeed: num('clock-speed', values['clock-speed']),
      warmupMs: num('warmup-ms', values['warmup-ms']),
      reportSizeBytes: num('report-size', values['report-size']),
      ...(rateLimit ? { rateLimit: { kind: rateLimit as 'none' | 'account' | 'per-key' } } : {}),
    },
  };
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
    console.log(`Tenant API emulator ready
  API URL:          ${info.url}
  Download origin:  ${info.downloadOrigin}
  Control origin:   ${info.controlOrigin}
  API key:          ${info.apiKey}

Try:
  curl -s -H "Authorization: Bearer ${info.apiKey}" -H 'content-type: application/json' \\
       -d '{"scanType":"compliance"}' ${info.url}/tenants/me/scans
Press Ctrl-C to stop.`);
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
