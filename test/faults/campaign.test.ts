// The campaign script itself, as CI runs it: a small run says how long it takes, shows progress,
// ends with the plain "N passed, N failed" line and an exit code that agrees with it; bad
// settings are refused before anything runs.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { NODE_24, PROJECT_ROOT } from '../helpers/runner.js';

const CAMPAIGN = fileURLToPath(new URL('./campaign.ts', import.meta.url));

function runCampaign(env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(NODE_24, ['--import', 'tsx', CAMPAIGN], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

function lastLine(text: string): string {
  return text.trimEnd().split('\n').at(-1) ?? '';
}

describe('fault campaign script', () => {
  it('ends with "N passed, N failed" and exits non-zero exactly when a run failed', async () => {
    const { code, out } = await runCampaign({ FAULT_RUNS: '2', FAULT_SEED: '7', FAULT_LOG: '0' });
    const match = /^(\d+) passed, (\d+) failed$/.exec(lastLine(out));
    assert.ok(match, `last line: ${lastLine(out)}\n${out}`);
    assert.equal(Number(match[1]) + Number(match[2]), 2);
    assert.equal(code, Number(match[2]) > 0 ? 1 : 0, out);
    assert.match(out, /coverage \(runs that went through each path\):/);
    assert.match(
      out,
      /^fault campaign: 2 run\(s\) from seed 7, 5 at once \(about 1 min on 2 cores; a progress line every 5 %\)$/m,
    );
    assert.match(
      out,
      /^progress: 1\/2 runs \(50%\), [01] failed, \d+:\d\d elapsed, about \d+:\d\d left$/m,
    );
    for (const failed of out.matchAll(/^FAIL seed=(\d+)/gm)) {
      assert.match(
        out,
        new RegExp(`reproduce: FAULT_SEED=${failed[1]} FAULT_RUNS=1 npm run test:faults`),
      );
    }
  });

  it('refuses a bad FAULT_RUNS or FAULT_SEED with one line and exit 1', async () => {
    const bad: Array<Record<string, string>> = [
      { FAULT_RUNS: 'many' },
      { FAULT_RUNS: '0' },
      { FAULT_SEED: '-3' },
    ];
    for (const env of bad) {
      const { code, out } = await runCampaign(env);
      assert.equal(code, 1, out);
      assert.equal(lastLine(out), '0 passed, 1 failed');
      assert.match(out, /FAULT_(RUNS|SEED) must be/);
    }
  });
});
