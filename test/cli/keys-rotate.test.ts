// tenant-scan keys rotate (dist/cli) against the emulator, with a store command stand-in on PATH:
// the stored key always works, whatever fails or is killed, and the key is printed nowhere.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
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
import { call } from '../emulator/test-http.js';
import type { Emulator, Fault } from '../emulator/types.js';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import {
  CLI,
  ROOT,
  assertBundleBuilt,
  cliEnv,
  runCli,
  spawnCli,
  type CliResult,
} from './helpers.js';

const STANDIN = fileURLToPath(new URL('../fixtures/store-command/standin.mjs', import.meta.url));
const HOUR = 3_600_000;
const MINUTE = 60_000;

interface StoreState {
  calls: Array<{ argv: string[]; value: string; hasApiKey: boolean }>;
}

describe('tenant-scan keys rotate', () => {
  let emu: Emulator;
  let dir: string;
  let bin: string;

  before(async () => {
    assertBundleBuilt();
    emu = await startEmulator({ seed: 3535 });
    dir = mkdtempSync(join(tmpdir(), 'keys-rotate-'));
    bin = join(dir, 'bin');
    rmSync(bin, { recursive: true, force: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(bin));
    for (const tool of ['glab', 'vault']) copyFileSync(STANDIN, join(bin, tool));
    await import('node:fs/promises').then((fs) =>
      Promise.all(['glab', 'vault'].map((t) => fs.chmod(join(bin, t), 0o755))),
    );
  });
  after(async () => {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** A tenant of its own, and a store (a state dir of the stand-in) that holds its first key. */
  function fresh() {
    const tenant = emu.addTenant({ name: 'Rotating' });
    const state = mkdtempSync(join(dir, 'store-'));
    const stored = (): string => {
      try {
        const { calls } = JSON.parse(readFileSync(join(state, 'glab.json'), 'utf8')) as StoreState;
        return calls.at(-1)?.value ?? tenant.apiKey;
      } catch {
        return tenant.apiKey;
      }
    };
    // the stand-in's knobs go to a file in its directory, its HOME: a store command gets little
    // of the CLI's environment
    const env = (extra: Record<string, string> = {}) => {
      const knob = ([name]: [string, string]) => name.startsWith('STORE_STANDIN_');
      const entries = Object.entries(extra);
      writeFileSync(
        join(state, 'knobs.json'),
        JSON.stringify(Object.fromEntries(entries.filter(knob))),
      );
      return cliEnv(undefined, {
        SERVICE_API_URL: emu.url,
        SERVICE_API_KEY: stored(),
        PATH: `${bin}:${process.env.PATH}`,
        HOME: state,
        STORE_STANDIN_DIR: state,
        ...Object.fromEntries(entries.filter((e) => !knob(e))),
      });
    };
    return { tenant, state, stored, env };
  }

  const STORE = ['--store-command', 'glab variable update TENANT_SCAN_API_KEY --masked'];
  const READ = ['--store-read-command', 'glab variable get TENANT_SCAN_API_KEY'];
  /** The stand-in's directory, passed on when its HOME is another. */
  const STANDIN_DIR = ['--store-env', 'STORE_STANDIN_DIR'];

  /** A fresh store that holds the tenant's first key, so that a read command can print it. */
  function seeded(tools = ['glab']) {
    const store = fresh();
    const calls = [{ argv: ['seed'], value: store.tenant.apiKey, hasApiKey: false }];
    for (const tool of tools)
      writeFileSync(join(store.state, `${tool}.json`), JSON.stringify({ calls }));
    return store;
  }

  async function listed(key: string): Promise<Array<{ id: string; keyPrefix: string }>> {
    const reply = await call(emu, 'GET', '/tenants/me/api-keys', { key });
    assert.equal(reply.status, 200, 'the stored key works');
    return reply.body.data;
  }

  async function keyIds(key: string): Promise<string[]> {
    return (await listed(key)).map((k) => k.id).sort();
  }

  function assertNoKey(key: string, result: CliResult): void {
    assert.deepEqual(findSecretInTexts(key, { stdout: result.stdout, stderr: result.stderr }), []);
  }

  it('hands the new key to the command on stdin only, and prints it nowhere', async () => {
    const store = fresh();
    const home = mkdtempSync(join(dir, 'home-'));
    const result = await runCli(
      ['keys', 'rotate', ...STORE, '--store-env', 'STORE_STANDIN_DIR', '--output', 'json'],
      store.env({ HOME: home, TMPDIR: home }),
      { cwd: home },
    );
    assert.equal(result.code, 0, result.stderr);
    const state = JSON.parse(readFileSync(join(store.state, 'glab.json'), 'utf8')) as StoreState;
    assert.deepEqual(state.calls[0]?.argv, [
      'variable',
      'update',
      'TENANT_SCAN_API_KEY',
      '--masked',
    ]);
    assert.equal(state.calls[0]?.hasApiKey, false, 'the old key is not passed to the command');
    const newKey = store.stored();
    assert.match(newKey, /^ak_live_/);
    const document = JSON.parse(result.stdout);
    assert.deepEqual(Object.keys(document).sort(), [
      'kept',
      'keyId',
      'keyName',
      'keyPrefix',
      'revoked',
      'stored',
    ]);
    assert.equal(
      document.stored,
      'claimed',
      'a store command without a read command proves nothing',
    );
    assert.equal(document.keyPrefix, `${newKey.slice(0, 12)}...${newKey.slice(-4)}`);
    assert.ok((await keyIds(newKey)).includes(document.keyId), 'same tenant');
    assert.ok((await keyIds(store.tenant.apiKey)).length === 2, 'the old key works in its grace');
    assertNoKey(newKey, result);
    assert.deepEqual(
      await findSecretInDirectory(newKey, home),
      [],
      'no file in its cwd, HOME or TMPDIR',
    );
  });

  it('a store command that fails: the new key is deleted, its output shown without the key', async () => {
    const store = fresh();
    const before = await keyIds(store.tenant.apiKey);
    const result = await runCli(
      ['keys', 'rotate', ...STORE],
      store.env({ STORE_STANDIN_EXIT: '3', STORE_STANDIN_ECHO: '1' }),
    );
    assert.equal(result.code, 1);
    assert.match(
      result.stderr,
      /tenant-scan: error: Rotation failed at store the new key: the store command exited with status 3; nothing changed/,
    );
    assert.match(result.stderr, /store command: glab: got (?!ak_live_)\S+/, 'shown, redacted');
    assert.equal(result.stderr.match(/ak_live_\w{20,}/), null, 'no full key on stderr');
    assert.equal(store.stored(), store.tenant.apiKey);
    assert.deepEqual(await keyIds(store.tenant.apiKey), before);
  });

  it('a dry run says what it would create and changes nothing', async () => {
    const store = fresh();
    const before = await keyIds(store.tenant.apiKey);
    const result = await runCli(['keys', 'rotate', ...STORE, '--dry-run'], store.env());
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /^Would create tenant-scan command:glab:\w+ \S+ replaces ak_live_/);
    assert.deepEqual(await keyIds(store.tenant.apiKey), before);
    assert.equal(store.stored(), store.tenant.apiKey);
  });

  it('bad options: one line, exit 1, nothing sent', async () => {
    const store = fresh();
    emu.clearRequests();
    for (const [args, line] of [
      [['--store-command', 'glab x | tee f'], /run without a shell, so "\|" means nothing/],
      [[...STORE, '--grace-hours', 'soon'], /--grace-hours must be a whole number from 0 to 8760/],
      [[], /--store-command/],
      [[...STORE, '--store-read-command', 'glab get >f'], /--store-read-command is run without/],
      [
        [...STORE, '--store-read-command', ' '],
        /--store-read-command is empty: give the command that prints the key the store holds/,
      ],
    ] as const) {
      const result = await runCli(['keys', 'rotate', ...args], store.env());
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, line);
    }
    assert.equal(emu.requests().filter((r) => r.origin === 'api').length, 0);
  });

  it('the GitLab and Vault examples of docs/rotation.md run as copied', async () => {
    const doc = readFileSync(join(ROOT, 'docs', 'rotation.md'), 'utf8');
    const block = /```sh\n(# GitLab[\s\S]*?)```/.exec(doc)?.[1] ?? '';
    const examples = block.split(/\n(?=# )/).filter((e) => e.includes('keys rotate'));
    assert.equal(examples.length, 2, block);
    writeFileSync(
      join(bin, 'tenant-scan'),
      `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`,
      {
        mode: 0o755,
      },
    );
    for (const [example, tool] of [
      [examples[0] ?? '', 'glab'],
      [examples[1] ?? '', 'vault'],
    ] as const) {
      const store = seeded([tool]);
      const result = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const child = spawn('/bin/sh', ['-c', example], { env: store.env() as NodeJS.ProcessEnv });
        let stderr = '';
        child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
        child.on('close', (code) => resolve({ code, stderr }));
      });
      assert.equal(result.code, 0, `${tool}: ${result.stderr}`);
      const state = JSON.parse(
        readFileSync(join(store.state, `${tool}.json`), 'utf8'),
      ) as StoreState;
      const value = state.calls.at(-1)?.value ?? '';
      assert.notEqual(value, store.tenant.apiKey, `${tool} holds the new key`);
      assert.ok((await keyIds(value)).length === 2, `${tool} holds a working key of the tenant`);
      assert.ok(
        tool === 'vault'
          ? state.calls.at(-1)?.argv.join(' ') === 'kv put secret/ci/tenant-scan key=-'
          : state.calls.at(-1)?.argv.join(' ') === 'variable update TENANT_SCAN_API_KEY --masked',
      );
      const reads = readFileSync(join(store.state, `${tool}.reads`), 'utf8');
      assert.equal(reads, '2', `${tool}: read before the create and after the store`);
    }
  });

  /** SIGKILL the CLI while a request of the given step is held, then check the store's key. */
  async function killDuring(
    store: ReturnType<typeof fresh>,
    route: string,
    fault: Fault | null,
    after = 0,
    extra: string[] = [],
  ) {
    emu.clearFaults();
    emu.clearRequests();
    if (fault) emu.addFault({ route, fault, after });
    const hanging = join(store.state, 'glab.hang-child');
    rmSync(hanging, { force: true });
    const hang: Record<string, string> = fault ? {} : { STORE_STANDIN_HANG: '1' };
    const running = spawnCli(
      ['keys', 'rotate', ...STORE, ...extra, '--grace-hours', '0'],
      store.env(hang),
    );
    const [method, path] = route.split(' ');
    const held = () =>
      fault
        ? emu
            .requests()
            .some(
              (r) =>
                r.fault === 'delay' &&
                r.method === method &&
                r.path.startsWith(path?.replace(/:keyId$/, '') ?? ''),
            )
        : // the store command has the key and hangs: a kill any earlier leaves it to start late
          // (the handover has the whole key) and store under the next test's knobs
          existsSync(hanging);
    const deadline = Date.now() + 15_000;
    while (!held() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.ok(held(), `${route}: the run never reached the step to kill it in`);
    running.child.kill('SIGKILL');
    await running.done;
    if (!fault) killStoreCommand(store);
    emu.clearFaults();
    writeFileSync(join(store.state, 'knobs.json'), '{}'); // the killed store command's knobs end
  }

  /** The hanging store command a SIGKILL of the CLI left behind, and its helper (its group). */
  function killStoreCommand(store: ReturnType<typeof fresh>): void {
    const pid = Number(readFileSync(join(store.state, 'glab.pid'), 'utf8'));
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }

  it('a kill at any step leaves a working key in the store and at most one unstored key', async () => {
    const store = fresh();
    const delay: Fault = { kind: 'delay', ms: 1500 };
    const steps: Array<[string, Fault | null, number]> = [
      ['GET /tenants/me/api-keys', delay, 0], // find the key in use
      ['POST /tenants/me/api-keys', delay, 0], // create (acts after the kill's moment)
      ['GET /tenants/me/api-keys', delay, 1], // verify
      ['store', null, 0], // the store command hangs
      ['DELETE /tenants/me/api-keys/:keyId', delay, 0], // delete after the store
    ];
    for (const [route, fault, skip] of steps) {
      const before = new Set(await keyIds(store.stored()));
      await killDuring(store, route, fault, skip);
      const stored = store.stored();
      const after = await listed(stored); // asserts the stored key works
      const unstored = after.filter(
        (k) => !before.has(k.id) && k.keyPrefix !== `${stored.slice(0, 12)}...${stored.slice(-4)}`,
      );
      assert.ok(unstored.length <= 1, `${route}: ${unstored.length} unstored keys`);
      emu.advance(2 * HOUR);
      const recovered = await runCli(
        ['keys', 'rotate', ...STORE, '--grace-hours', '1'],
        store.env(),
      );
      assert.equal(recovered.code, 0, `${route}: ${recovered.stderr}`);
    }
    emu.advance(2 * HOUR);
    const last = await runCli(
      ['keys', 'rotate', ...STORE, '--grace-hours', '1', '--output', 'json'],
      store.env(),
    );
    assert.equal(last.code, 0, last.stderr);
    const left = await keyIds(store.stored());
    assert.ok(left.length <= 3, `the leftovers went after their grace: ${left.length} keys`);
  });

  /** A run killed after its create, before its store (the store command hangs): the key it left,
   *  made an hour after the key the store holds. */
  async function leftover(store: ReturnType<typeof fresh>) {
    emu.advance(HOUR);
    const before = new Set(await keyIds(store.stored()));
    await killDuring(store, 'store', null, 0, READ);
    const left = (await listed(store.stored())).filter((k) => !before.has(k.id));
    assert.equal(left.length, 1, 'the killed run left its key');
    rmSync(join(store.state, 'glab.reads'), { force: true });
    return left[0] as { id: string; keyPrefix: string };
  }

  function assertNoKeys(store: ReturnType<typeof fresh>, ...results: CliResult[]): void {
    for (const result of results) {
      for (const key of [store.stored(), store.tenant.apiKey]) assertNoKey(key, result);
      assert.equal(result.stderr.match(/ak_live_\w{20,}/), null, 'no full key on stderr');
    }
  }

  it('with a read command, a key a killed run never stored goes with the next run, before its create', async () => {
    const store = seeded();
    const home = mkdtempSync(join(dir, 'home-'));
    const env = store.env({ HOME: home, TMPDIR: home });
    const left = await leftover(store);
    const withLeft = await keyIds(store.stored());
    emu.advance(10 * MINUTE);
    emu.clearRequests();
    const early = await runCli(['keys', 'rotate', ...STORE, ...READ, ...STANDIN_DIR], env, {
      cwd: home,
    });
    assert.equal(early.code, 1, early.stderr);
    assert.match(
      early.stderr,
      /Rotation failed at make room: the key "tenant-scan command:glab:\w+ \S+ replaces \S+" \(ak_live_\S+\) was made after the key the store command glab holds, less than 30 minutes ago: .*nothing changed/,
    );
    assert.equal(emu.requests().filter((r) => r.method === 'POST').length, 0, 'nothing created');
    assert.deepEqual(await keyIds(store.stored()), withLeft);

    emu.advance(21 * MINUTE);
    const dry = await runCli(
      ['keys', 'rotate', ...STORE, ...READ, ...STANDIN_DIR, '--dry-run'],
      env,
      {
        cwd: home,
      },
    );
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(
      dry.stdout,
      new RegExp(`^Would delete ${left.keyPrefix.replace(/\./g, '\\.')} `, 'm'),
    );
    assert.deepEqual(await keyIds(store.stored()), withLeft, 'a dry run changes nothing');

    emu.clearRequests();
    const args = [...STORE, ...READ, ...STANDIN_DIR, '--output', 'json'];
    const result = await runCli(['keys', 'rotate', ...args], env, { cwd: home });
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /Key ak_live_\S+ \(.*\) was made after the key the store command glab holds \(ak_live_\S+\): it was never stored/,
    );
    const api = emu.requests().filter((r) => r.origin === 'api');
    const deleted = api.findIndex((r) => r.method === 'DELETE' && r.path.endsWith(left.id));
    const created = api.findIndex((r) => r.method === 'POST');
    assert.ok(deleted >= 0 && deleted < created, 'deleted before the create');
    assert.deepEqual(
      JSON.parse(result.stdout).revoked.map((k: { id: string }) => k.id),
      [left.id],
    );
    const after = await keyIds(store.stored());
    assert.equal(after.length, 2, 'the first key (in its grace) and the new one');
    assert.ok(!after.includes(left.id));
    assertNoKeys(store, early, dry, result);
    for (const key of [store.stored(), store.tenant.apiKey]) {
      assert.deepEqual(await findSecretInDirectory(key, home), [], 'no file holds a key');
    }
  });

  it('a read that fails, prints nothing or an unknown key, with a key made after the key in use: one line, nothing created', async () => {
    for (const [mode, line] of [
      [
        'fail',
        /could not read the key the store command glab holds \(the store read command exited with status 2: glab: cannot read it \((ak_live_)?\[redacted\]\)\), so whether it holds/,
      ],
      ['empty', /\(the store read command printed nothing\), so whether it holds/],
      ['two-lines', /\(the store read command printed more than one line\), so whether it holds/],
      ['huge', /\(the store read command printed more than 4096 bytes\), so whether it holds/],
      [
        'unknown',
        /the key the store command glab holds is not one of the tenant's active keys, so/,
      ],
    ] as const) {
      const store = seeded();
      const left = await leftover(store);
      emu.advance(31 * MINUTE);
      const before = await keyIds(store.stored());
      const bad = { STORE_STANDIN_READ: mode, STORE_STANDIN_BAD_READS: '1' };
      const result = await runCli(['keys', 'rotate', ...STORE, ...READ], store.env(bad));
      assert.equal(result.code, 1, `${mode}: ${result.stderr}`);
      assert.match(result.stderr, /tenant-scan: error: Rotation failed at make room: /, mode);
      assert.match(result.stderr, line, mode);
      assert.match(result.stderr, /cannot be told; nothing changed; run again once/, mode);
      assert.deepEqual(await keyIds(store.stored()), before, `${mode}: nothing changed`);
      assert.ok(before.includes(left.id));
      assertNoKeys(store, result);
    }
  });

  it('a read that fails when no key is newer than the key in use: one line, the rotation goes on', async () => {
    const store = seeded();
    const bad = { STORE_STANDIN_READ: 'fail', STORE_STANDIN_BAD_READS: '1' };
    const result = await runCli(['keys', 'rotate', ...STORE, ...READ], store.env(bad));
    assert.equal(result.code, 0, result.stderr);
    assert.match(
      result.stderr,
      /Could not read the key the store command glab holds \(.*\): no key of this lineage is newer than the key in use, so none can be one never stored/,
    );
    assert.match(result.stdout, /^Rotated: new key \S+ \(\S+\) stored by glab \(read back\)$/m);
    assertNoKeys(store, result);
  });

  it('a store command that exits 0 but does not store: the new key is deleted, the old one stays', async () => {
    const store = seeded();
    const before = await keyIds(store.tenant.apiKey);
    const result = await runCli(
      ['keys', 'rotate', ...STORE, ...READ],
      store.env({ STORE_STANDIN_DROP: '1' }),
    );
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /tenant-scan: error: Rotation failed at store the new key: the store command glab succeeded but the store does not hold the new key; nothing changed: the stored key ak_live_\S+ still works/,
    );
    assert.equal(store.stored(), store.tenant.apiKey);
    assert.deepEqual(await keyIds(store.tenant.apiKey), before);
    assertNoKeys(store, result);
  });

  it('a read-back that fails after the store: both keys are kept and work, one line', async () => {
    const store = seeded();
    const bad = { STORE_STANDIN_READ: 'fail', STORE_STANDIN_BAD_READS: '2' };
    const result = await runCli(['keys', 'rotate', ...STORE, ...READ], store.env(bad));
    assert.equal(result.code, 1, result.stderr);
    assert.match(
      result.stderr,
      /Rotation failed at store the new key: the store command glab succeeded but the store could not be read back \(the store read command exited with status 2: .*\): it may hold the new key ak_live_\S+ or the old ak_live_\S+: both are kept and work/,
    );
    assert.notEqual(store.stored(), store.tenant.apiKey, 'the store took the new key');
    assert.equal((await keyIds(store.stored())).length, 2, 'both keys work');
    assert.equal((await keyIds(store.tenant.apiKey)).length, 2);
    assertNoKeys(store, result);
  });
});
