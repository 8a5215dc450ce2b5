// The trust issue against the bundled CLI: a gate that fails closed (results that are not a list,
// pages that never end, a read that disagrees with the scan's counts) on `scan run --watch` and
// `scan results`, a scan id that is not a plain identifier, output paths that are devices or
// directories refused before any request, and the key a service echoes (in any form) written
// nowhere.
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { HOSTILE_SCAN_ID_PREFIX } from '../emulator/routes/scans.js';
import type { Emulator } from '../emulator/types.js';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import { apiRequests, assertBundleBuilt, cliEnv, lines, runCli, triggerScan } from './helpers.js';

let emu: Emulator;
before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 41, clockSpeed: 100 });
});
after(() => emu.close());
beforeEach(() => {
  emu.clearFaults();
  emu.setVariant({});
  emu.clearRequests();
  emu.setScanPlan({
    durationMs: 500,
    queuedMs: 50,
    outcome: { kind: 'completed', total: 40, failed: 5 },
  });
});

const run = (args: string[]) => runCli(args, cliEnv(emu));
const WATCH = ['scan', 'run', '--type', 'compliance', '--watch', '--fail-on-findings'];

async function finished(): Promise<string> {
  const id = await triggerScan(emu);
  emu.advance(60_000);
  return id;
}

describe('CLI: the gate fails closed', () => {
  it('scan run --watch: results answered with "ok" → exit 1, one Results line', async () => {
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'data', data: 'ok' },
      times: Infinity,
    });
    const result = await run(WATCH);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      lines(result.stderr).at(-1) ?? '',
      /^tenant-scan: error: Results failed: GET \/scans\/[\w-]+\/results: page 1 is not a list of results \(data is a string\)$/,
    );
  });

  it('scan run --watch: pages that never end → exit 1 at the page cap', async () => {
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'endless-cursor' },
      times: Infinity,
    });
    const result = await run(WATCH);
    assert.equal(result.code, 1, result.stderr);
    assert.match(lines(result.stderr).at(-1) ?? '', /more pages followed after 5000; stopped/);
  });

  it('scan results --fail-on-findings: a read short of the counts → exit 1 with both numbers', async () => {
    const id = await finished();
    emu.clearRequests();
    emu.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'drop-failed' },
      times: Infinity,
    });
    const result = await run(['scan', 'results', id, '--fail-on-findings']);
    assert.equal(result.code, 1, result.stderr);
    assert.equal(
      lines(result.stderr).at(-1),
      `tenant-scan: error: Results failed: GET /scans/${id}/results: the scan's counts say 5 failed but the results read shows 0, also when read again; no verdict rests on a read that is not whole`,
    );
    assert.equal(apiRequests(emu, 'GET', /\/results$/).length, 2);
  });

  it('scan results --fail-on-findings: a whole read still exits 2', async () => {
    const id = await finished();
    const result = await run(['scan', 'results', id, '--fail-on-findings']);
    assert.equal(result.code, 2, result.stderr);
  });
});

describe('CLI: ids and output paths', () => {
  it('a scan id that is not a plain identifier: exit 1, the scan cancelled', async () => {
    emu.setScanPlan({
      durationMs: 60_000,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    emu.setVariant({ hostileScanIds: true });
    const result = await run(WATCH);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      lines(result.stderr).at(-1) ?? '',
      /^tenant-scan: error: Trigger failed: the service returned a scan id that is not a plain identifier \(.*\); the scan was cancelled remotely$/,
    );
    const hostile = emu.scans().filter((scan) => scan.id.startsWith(HOSTILE_SCAN_ID_PREFIX));
    assert.deepEqual(
      hostile.map((scan) => scan.status),
      ['cancelled'],
    );
  });

  for (const [flag, path, words] of [
    ['--sarif', '/dev/stdout', 'is not a regular file (a device, a pipe or a socket)'],
    ['--junit', '/tmp', 'is a directory'],
  ] as const) {
    it(`${flag} ${path}: refused before any request`, async () => {
      const result = await run([...WATCH, flag, path]);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        lines(result.stderr)[0] ?? '',
        new RegExp(
          `^tenant-scan: error: Sanity checks failed: ${flag} "${path}" ${words.replace(/[()]/g, '\\$&')}`,
        ),
      );
      assert.equal(emu.requests().length, 0);
    });
  }
});

describe('CLI: the key a service echoes, in any form', () => {
  for (const output of ['json', 'table']) {
    it(`scan run --watch --output ${output}: in no line, record, results file, SARIF, JUnit, CSV or OCSF`, async () => {
      emu.setVariant({ echoKey: true, hostileMarkdown: true });
      const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-echo-'));
      try {
        const files = ['--record', 'record.json', '--results-file', 'results.json'];
        files.push('--csv', 'f.csv', '--ocsf', 'f.jsonl');
        const result = await runCli(
          [...WATCH, '--output', output, ...files, '--sarif', 'r.sarif', '--junit', 'j.xml'],
          cliEnv(emu),
          { cwd: dir },
        );
        assert.equal(result.code, 2, result.stderr);
        assert.match(result.stdout, /\[redacted\]/, 'the service did echo the key');
        const key = emu.apiKey;
        const texts = { stdout: result.stdout, stderr: result.stderr };
        assert.deepEqual(findSecretInTexts(key, texts), []);
        const written = ['f.csv', 'f.jsonl', 'j.xml', 'r.sarif', 'record.json', 'results.json'];
        assert.deepEqual((await readdir(dir)).sort(), written);
        assert.deepEqual(await findSecretInDirectory(key, dir), []);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    });
  }
});
