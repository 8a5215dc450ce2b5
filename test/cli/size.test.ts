// The bundled CLI at the caps (issue 46, row 5): 150,000 failed results once threw `Maximum call
// stack size exceeded` (Math.max(...cells)) and printed nothing, even with --output json; so did
// the roll-up of the 113 MB record of that run. Now --output json is whole at 180,000 and at the
// 250,000-result cap, and a record of over 100 MB rolls up.
import assert from 'node:assert/strict';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { assertBundleBuilt, cliEnv, spawnCli } from './helpers.js';

let emu: Emulator;
let work: string;

before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 46, clockSpeed: 100 });
  work = await mkdtemp(join(tmpdir(), 'tenant-scan-size-'));
});
after(async () => {
  await emu.close();
  await rm(work, { recursive: true, force: true });
});

const QUICK = { durationMs: 500, queuedMs: 50 } as const;

function parsed(stdout: string): Record<string, unknown> & { findings?: unknown[] } {
  return JSON.parse(stdout) as Record<string, unknown> & { findings?: unknown[] };
}

describe('CLI at the caps', () => {
  it('180,000 failed results: scan run --output json is whole, and its 100+ MB record rolls up', async () => {
    emu.setScanPlan({ ...QUICK, outcome: { kind: 'completed', total: 180_000, failed: 180_000 } });
    emu.setVariant({ resultsPageSize: 1_000 });
    const record = join(work, 'tenant.json');
    const env = cliEnv(emu);
    const run = await spawnCli(
      [
        'scan',
        'run',
        '--type',
        'compliance',
        '--watch',
        '--record',
        record,
        '--output',
        'json',
      ].concat(['--results-max-mib', '128']),
      env,
    ).done;
    assert.equal(run.code, 0, run.stderr.slice(-2_000));
    assert.equal(parsed(run.stdout).findings?.length, 180_000);
    assert.ok((await stat(record)).size > 100 * 1024 * 1024, 'a record of over 100 MB');

    const rollup = await spawnCli(['rollup', record, '--output', 'json'], env).done;
    assert.equal(rollup.code, 0, rollup.stderr.slice(-2_000));
    const rolled = parsed(rollup.stdout) as { tenants?: Array<{ failed: number }> };
    assert.equal(rolled.tenants?.[0]?.failed, 180_000);
    const table = await spawnCli(['rollup', record], env).done;
    assert.equal(table.code, 0, table.stderr.slice(-2_000));
    assert.match(table.stdout, /180000/);
  });

  it('250,000 failed results (the cap): scan results --output json is whole', async () => {
    emu.setVariant({ resultsPageSize: 1_000, findingShape: 'sparse' });
    const scan = emu.addTenant({
      name: 'Cap Ltd',
      scanPlan: { ...QUICK, outcome: { kind: 'completed', total: 250_000, failed: 250_000 } },
    });
    const env = cliEnv(undefined, { SERVICE_API_KEY: scan.apiKey, SERVICE_API_URL: emu.url });
    const started = await spawnCli(['scan', 'run', '--type', 'compliance', '--json'], env).done;
    assert.equal(started.code, 0, started.stderr);
    const id = (parsed(started.stdout).scan as { id: string }).id;
    await new Promise((resolve) => setTimeout(resolve, 200));
    const results = await spawnCli(['scan', 'results', id, '--output', 'json'], env).done;
    assert.equal(results.code, 0, results.stderr.slice(-2_000));
    assert.equal((JSON.parse(results.stdout) as unknown[]).length, 250_000);
  });
});
