// The bundled CLI against a broken or hostile service: an answer that never ends, one that
// trickles, no answer at all, and text full of terminal escape sequences. Each command ends with one
// line naming the route and the limit, within its deadline, with bounded memory (measured on the
// process), and nothing the service sent drives the terminal; --output json keeps the data exact.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { HOSTILE_TEXT } from '../emulator/findings.js';
import type { Emulator } from '../emulator/types.js';
import { apiRequests, assertBundleBuilt, cliEnv, lines, spawnCli, triggerScan } from './helpers.js';

const MEMORY_BOUND_BYTES = 300 * 1024 * 1024;
/** Anything a terminal would act on: C0 but tab/newline, ESC, DEL, C1, bidi and zero-width marks. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

let emu: Emulator;
before(async () => {
  assertBundleBuilt();
  emu = await startEmulator({ seed: 31, clockSpeed: 50 });
});
after(() => emu.close());
beforeEach(() => {
  emu.clearFaults();
  emu.setVariant({});
  emu.clearRequests();
});

const run = (args: string[], extra: Record<string, string> = {}) =>
  spawnCli(args, cliEnv(emu, extra)).done;

describe('CLI against a broken or hostile service', () => {
  it('an answer that never ends: stops at the 64 MiB cap, one line, memory bounded', async () => {
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'endless-body' }, times: Infinity });
    const result = await run(['tenant', 'me']);
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(lines(result.stderr), [
      'tenant-scan: error: GET /tenants/me: the answer exceeded 64 MiB; stopped reading',
    ]);
    assert.equal(result.stdout, '');
    assert.equal(apiRequests(emu, 'GET', /^\/tenants\/me$/).length, 1, 'not retried');
    assert.ok(result.peakRssBytes !== undefined, 'no /proc to measure memory on');
    assert.ok(
      result.peakRssBytes < MEMORY_BOUND_BYTES,
      `peak RSS ${Math.round(result.peakRssBytes / 2 ** 20)} MiB`,
    );
  });

  it('an answer that trickles forever: ends at the request timeout, naming the route and the limit', async () => {
    emu.addFault({
      route: 'GET /tenants/me',
      fault: { kind: 'trickle', intervalMs: 100 },
      times: Infinity,
    });
    const result = await run(['tenant', 'me', '--request-timeout', '1']);
    assert.equal(result.code, 1, result.stderr);
    assert.deepEqual(lines(result.stderr).slice(-1), [
      'tenant-scan: error: GET /tenants/me: no complete answer within 1 s (the request timeout), after 2 attempts; if the service needs longer, raise --request-timeout or SERVICE_REQUEST_TIMEOUT',
    ]);
    assert.equal(apiRequests(emu, 'GET', /^\/tenants\/me$/).length, 2, 'a read is tried once more');
    assert.ok(result.durationMs! < 8_000, `took ${result.durationMs} ms`);
  });

  it('SERVICE_REQUEST_TIMEOUT bounds a download that trickles; no file is left', async () => {
    const scanId = await triggerScan(emu);
    emu.advance(3_600_000);
    emu.addFault({
      route: 'GET /download/:token',
      fault: { kind: 'trickle', intervalMs: 50 },
      times: Infinity,
    });
    const { mkdtemp, readdir, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'cli-hostile-'));
    try {
      await run(['report', 'generate', scanId]);
      emu.advance(60_000);
      const result = await run(['report', 'download', scanId, '-o', join(dir, 'r.pdf')], {
        SERVICE_REQUEST_TIMEOUT: '0.5',
      });
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        lines(result.stderr).at(-1) ?? '',
        /^tenant-scan: error: Report download from http:\/\/127\.0\.0\.1:\d+\/download\/[^ ]+: no complete answer within 0\.5 s \(the request timeout\); if the service needs longer, raise --request-timeout or SERVICE_REQUEST_TIMEOUT$/,
      );
      assert.deepEqual(await readdir(dir), []);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('no answer at all: the silence timeout (never above the request timeout) ends it', async () => {
    emu.addFault({ route: 'GET /tenants/me/scans', fault: { kind: 'no-answer' }, times: Infinity });
    const result = await run(['scan', 'list', '--request-timeout', '0.3']);
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      lines(result.stderr).at(-1) ?? '',
      /^tenant-scan: error: GET \/tenants\/me\/scans: /,
    );
    assert.ok(result.durationMs! < 20_000, `took ${result.durationMs} ms`);
  });

  it('escape sequences from the service never reach the terminal; JSON keeps them exact', async () => {
    emu.setVariant({ hostileText: true });
    const scanId = await triggerScan(emu);
    emu.advance(3_600_000);
    for (const args of [
      ['tenant', 'me'],
      ['scan', 'results', scanId],
    ]) {
      const table = await run(args);
      assert.equal(table.code, 0, table.stderr);
      assert.doesNotMatch(table.stdout + table.stderr, CONTROLS, args.join(' '));
      assert.match(table.stdout, /Contoso Ltd|Ensure/, 'the text itself is still shown');
      assert.doesNotMatch(table.stdout, /all clear/, "an escape sequence's payload is not text");
    }
    const json = await run(['scan', 'results', scanId, '--output', 'json']);
    const findings = JSON.parse(json.stdout) as Array<{ title: string }>;
    assert.ok(findings.some((f) => f.title.startsWith(HOSTILE_TEXT.before)));
  });

  it('a bad request timeout is one "Sanity checks failed" line, and no request is sent', async () => {
    for (const [args, env] of [
      [['tenant', 'me', '--request-timeout', 'soon'], {}],
      [['tenant', 'me', '--request-timeout', '0'], {}],
      [['tenant', 'me'], { SERVICE_REQUEST_TIMEOUT: '-5' }],
      [['scan', 'run', '--type', 'compliance', '--watch'], { SERVICE_REQUEST_TIMEOUT: '4000' }],
    ] as Array<[string[], Record<string, string>]>) {
      emu.clearRequests();
      const result = await run(args, env);
      assert.equal(result.code, 1, result.stderr);
      assert.match(
        result.stderr,
        /^tenant-scan: error: Sanity checks failed: (--request-timeout|SERVICE_REQUEST_TIMEOUT) must be a number of seconds above 0 and at most 3600, got "[^"]*"\n$/,
      );
      assert.equal(emu.requests().filter((r) => r.origin !== 'control').length, 0);
    }
  });
});
