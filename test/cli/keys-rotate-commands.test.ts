// The store commands of `tenant-scan keys rotate` (dist/cli) as processes: done when they exit,
// whatever a child they leave holds; killed as a group when the CLI is stopped; given a minimal
// environment that holds no key under any name (src/cli/store-process.ts).
import { strict as assert } from 'node:assert';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { assertBundleBuilt, cliEnv, runCli, spawnCli } from './helpers.js';
import { alive } from '../helpers/process-alive.js';
import { HANDOVER_SOURCE } from '../../src/cli/store-handover.js';

const STANDIN = fileURLToPath(new URL('../fixtures/store-command/standin.mjs', import.meta.url));
const STORE = ['--store-command', 'glab variable update TENANT_SCAN_API_KEY --masked'];
const READ = ['--store-read-command', 'glab variable get TENANT_SCAN_API_KEY'];

interface Call {
  value: string;
  parent?: string[];
  envNames: string[];
  keyInEnv: boolean;
}

describe('keys rotate: the store commands as processes', () => {
  let emu: Emulator;
  let dir: string;
  let bin: string;

  before(async () => {
    assertBundleBuilt();
    emu = await startEmulator({ seed: 4647 });
    dir = mkdtempSync(join(tmpdir(), 'store-process-'));
    bin = join(dir, 'bin');
    mkdirSync(bin);
    copyFileSync(STANDIN, join(bin, 'glab'));
    chmodSync(join(bin, 'glab'), 0o755);
  });
  after(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tenant, and the stand-in's directory (its HOME) holding the tenant's key, with `knobs`. */
  function store(knobs: Record<string, string> = {}) {
    const tenant = emu.addTenant({ name: 'Rotating' });
    const home = mkdtempSync(join(dir, 'home-'));
    const calls = [{ argv: ['seed'], value: tenant.apiKey }];
    writeFileSync(join(home, 'glab.json'), JSON.stringify({ calls }));
    writeFileSync(join(home, 'knobs.json'), JSON.stringify(knobs));
    const last = () =>
      (JSON.parse(readFileSync(join(home, 'glab.json'), 'utf8')) as { calls: Call[] }).calls.at(-1);
    const env = (extra: Record<string, string> = {}) =>
      cliEnv(undefined, {
        SERVICE_API_URL: emu.url,
        SERVICE_API_KEY: tenant.apiKey,
        PATH: `${bin}:${process.env.PATH}`,
        HOME: home,
        ...extra,
      });
    return { tenant, home, last, env };
  }

  it('a store command that exits at once but leaves a child holding its output: done in seconds', async () => {
    const s = store({ STORE_STANDIN_CHILD: '1' });
    const started = Date.now();
    const result = await runCli(['keys', 'rotate', ...STORE], s.env());
    const took = Date.now() - started;
    const holder = Number(readFileSync(join(s.home, 'glab.child'), 'utf8'));
    try {
      assert.equal(result.code, 0, result.stderr);
      assert.ok(took < 20_000, `${took} ms: the CLI waited for the child (60 s)`);
      assert.ok(alive(holder), 'the child it left was not the CLI’s to kill');
      assert.notEqual(s.last()?.value, s.tenant.apiKey, 'stored');
    } finally {
      if (alive(holder)) process.kill(holder, 'SIGKILL');
    }
  });

  it('the same with a read command, before the create and after the store', async () => {
    const s = store({ STORE_STANDIN_CHILD: '1', STORE_STANDIN_READ_CHILD: '1' });
    const started = Date.now();
    const result = await runCli(['keys', 'rotate', ...STORE, ...READ], s.env());
    const took = Date.now() - started;
    for (const file of ['glab.child', 'glab.read-child']) {
      const pid = Number(readFileSync(join(s.home, file), 'utf8'));
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    }
    assert.ok(took < 20_000, `${took} ms: the CLI waited for a child (60 s each)`);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /stored by glab \(read back\)/);
  });

  it('a CLI stopped while its store command hangs kills the command’s whole group', async () => {
    const s = store({ STORE_STANDIN_HANG: '1' });
    const running = spawnCli(['keys', 'rotate', ...STORE], s.env());
    await running.waitForStderr('Created key');
    const helperFile = join(s.home, 'glab.hang-child');
    for (let i = 0; i < 400 && !existsSync(helperFile); i++)
      await new Promise((r) => setTimeout(r, 25));
    const pid = Number(readFileSync(join(s.home, 'glab.pid'), 'utf8'));
    assert.ok(pid > 0 && alive(pid), 'the store command runs');
    running.child.kill('SIGTERM');
    const result = await running.done;
    assert.equal(result.code, 143, result.stderr);
    const helper = Number(readFileSync(helperFile, 'utf8'));
    for (let i = 0; i < 40 && (alive(pid) || alive(helper)); i++)
      await new Promise((r) => setTimeout(r, 25));
    const left = [pid, helper].filter(alive);
    for (const p of left) process.kill(p, 'SIGKILL');
    assert.equal(alive(pid), false, 'the store command was killed');
    assert.deepEqual(left, [], 'the store command and the child it started were killed');
  });

  it('a handover killed alone takes its store command and the command’s child with it: nothing outlives the rotation', async (t) => {
    if (!existsSync('/proc/self/stat')) return t.skip('the handover is found from /proc');
    const s = store({ STORE_STANDIN_HANG: '1' });
    const running = spawnCli(['keys', 'rotate', ...STORE], s.env());
    const helperFile = join(s.home, 'glab.hang-child');
    for (let i = 0; i < 400 && !existsSync(helperFile); i++)
      await new Promise((r) => setTimeout(r, 25));
    const pid = Number(readFileSync(join(s.home, 'glab.pid'), 'utf8'));
    const helper = Number(readFileSync(helperFile, 'utf8'));
    // the stand-in's parent is the handover (stat: pid (comm) state ppid …)
    const handover = Number(/\) \S+ (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1]);
    process.kill(handover, 'SIGKILL');
    const result = await running.done;
    for (let i = 0; i < 40 && (alive(pid) || alive(helper)); i++)
      await new Promise((r) => setTimeout(r, 25));
    const left = [pid, helper].filter(alive);
    for (const p of left) process.kill(p, 'SIGKILL');
    assert.equal(result.code, 1, result.stderr);
    assert.match(result.stderr, /the store command was stopped \(SIGKILL\).*both are kept/);
    assert.deepEqual(left, [], 'the store command and its child outlived the rotation');
  });

  it('a store command is started by the handover, which has the whole key first (a kill of the CLI while starting it cannot leave it reading nothing)', async (t) => {
    if (!existsSync('/proc/self/cmdline')) return t.skip('the parent is read from /proc');
    const s = store();
    const result = await runCli(['keys', 'rotate', ...STORE], s.env());
    assert.equal(result.code, 0, result.stderr);
    const parent = s.last()?.parent ?? [];
    assert.deepEqual(parent.slice(1, 4), ['-e', HANDOVER_SOURCE, '--']);
    assert.deepEqual(parent.slice(4), [
      'glab',
      'variable',
      'update',
      'TENANT_SCAN_API_KEY',
      '--masked',
    ]);
  });

  it('what --store-env gives the store command (NODE_OPTIONS here) reaches it, not the handover that starts it', async () => {
    const s = store();
    const preload = join(s.home, 'preload.cjs');
    const seen = join(s.home, 'preloaded');
    writeFileSync(
      preload,
      `require('node:fs').appendFileSync(${JSON.stringify(seen)}, (process.execArgv.includes('-e') ? 'handover' : process.argv[1]) + '\\n');`,
    );
    const env = s.env({ NODE_OPTIONS: `--require ${preload}` });
    const result = await runCli(['keys', 'rotate', ...STORE, '--store-env', 'NODE_OPTIONS'], env);
    assert.equal(result.code, 0, result.stderr);
    const started = readFileSync(seen, 'utf8').trim().split('\n');
    assert.ok(
      started.some((p) => p.endsWith('/bin/glab')),
      started.join(', '),
    );
    assert.equal(started.includes('handover'), false, 'the handover ran with NODE_OPTIONS');
  });

  it('a store command gets PATH, HOME and what --store-env names, never a key under any name', async () => {
    const s = store();
    const key = s.tenant.apiKey;
    const extra = {
      TENANT_SCAN_API_KEY: key,
      CI_TOKEN_COPY: `token=${key.slice(8)}`,
      GITLAB_TOKEN: 'glpat-not-a-tenant-key',
      UNRELATED: 'x',
    };
    const args = ['keys', 'rotate', ...STORE, '--store-env', 'GITLAB_TOKEN'];
    const result = await runCli(args, s.env(extra));
    assert.equal(result.code, 0, result.stderr);
    const call = s.last();
    assert.equal(call?.keyInEnv, false, 'no value holds a key');
    assert.deepEqual(
      call?.envNames.filter((n) => !['PATH', 'HOME', 'LANG'].includes(n)),
      ['GITLAB_TOKEN'],
    );

    emu.clearRequests();
    for (const name of ['TENANT_SCAN_API_KEY', 'CI_TOKEN_COPY']) {
      const refused = await runCli(['keys', 'rotate', ...STORE, '--store-env', name], s.env(extra));
      assert.equal(refused.code, 1);
      assert.match(
        refused.stderr,
        new RegExp(`--store-env ${name} holds an API key: a store command never gets one`),
      );
    }
    assert.equal(emu.requests().filter((r) => r.origin === 'api').length, 0, 'nothing sent');
  });
});
