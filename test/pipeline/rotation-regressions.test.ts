// The rotation's breaks and weak spots of issue 46, one example each over the emulator (the model
// of rotation.property.test.ts holds the rules over sequences; these fail on the code before it).
import { strict as assert } from 'node:assert';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import {
  rotateKey,
  type RotationResult,
  type RotationSettings,
} from '../../src/pipeline/rotation/rotate.js';
import type { KeyStore } from '../../src/pipeline/rotation/store.js';
import { startEmulator } from '../emulator/emulator.js';
import { call } from '../emulator/test-http.js';
import type { Emulator } from '../emulator/types.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A store command's store: its exit status is its word (`drop`: exit 0, nothing stored); `hang`:
 *  it never answers (a run killed while it stores). */
class CommandLikeStore implements KeyStore {
  readonly description = 'store command glab';
  readonly writeProves = false;
  drop = false;
  hang = false;
  writes = 0;
  constructor(public value: string) {}
  async prepare(): Promise<void> {}
  async write(key: string): Promise<void> {
    this.writes++;
    if (this.hang) return new Promise(() => undefined);
    if (!this.drop) this.value = key;
  }
}

/** A store whose write answers only once it holds the key, that cannot tell which keys it never
 *  held; `hang`: it never answers (a run killed while it stores). */
class AnsweringStore implements KeyStore {
  readonly description: string = 'answering store';
  readonly writeProves = true;
  hang = false;
  writes = 0;
  constructor(public value: string) {}
  async prepare(): Promise<void> {}
  async write(key: string): Promise<void> {
    this.writes++;
    if (this.hang) return new Promise(() => undefined);
    this.value = key;
  }
}

/** The same that tells its version, as a GitHub secret's updated_at does. */
class SecretLikeStore extends AnsweringStore {
  override readonly description = 'repository secret KEY of o/r';
  private written = 0;
  override async write(key: string): Promise<void> {
    await super.write(key);
    this.written++;
  }
  async version(): Promise<string> {
    return `v${this.written}`;
  }
}

/** A run killed while its store writes: its new key is left, never stored. */
async function killWhileStoring(
  store: CommandLikeStore | AnsweringStore,
  rotate: () => Promise<unknown>,
): Promise<void> {
  store.hang = true;
  const writes = store.writes;
  let ended = false;
  void rotate()
    .catch(() => undefined)
    .then(() => (ended = true));
  while (store.writes === writes && !ended) await new Promise((r) => setTimeout(r, 5));
  store.hang = false;
  assert.ok(!ended, 'the run reached its store');
}

describe('rotation: the breaks of issue 46', () => {
  let emu: Emulator;
  let start: string;
  const lines: string[] = [];

  before(async () => {
    emu = await startEmulator({ seed: 4648 });
  });
  after(() => emu.close());
  beforeEach(() => {
    start = emu.addTenant({ name: 'Rotating' }).apiKey;
    lines.length = 0;
  });

  function rotate(
    store: KeyStore & { value: string },
    settings: Partial<RotationSettings> = {},
  ): Promise<RotationResult> {
    const open = (apiKey: string) =>
      createClient({ apiKey, baseUrl: emu.url, retry: { maxAttempts: 2, baseDelayMs: 5 } });
    const apiKey = settings.apiKey ?? store.value;
    const client = open(apiKey);
    return rotateKey(
      {
        apiKey,
        lineage: 'gitlab:group/project/KEY',
        graceMs: 24 * HOUR,
        revokeReplaced: false,
        dryRun: false,
        ...settings,
      },
      { client, openClient: open, store, mask: () => undefined, log: (l) => lines.push(l) },
    ).finally(() => client.close());
  }

  async function works(key: string): Promise<boolean> {
    return (await call(emu, 'GET', '/tenants/me/api-keys', { key })).status === 200;
  }

  async function ids(key: string): Promise<string[]> {
    const reply = await call(emu, 'GET', '/tenants/me/api-keys', { key });
    return (reply.body.data as Array<{ id: string }>).map((k) => k.id).sort();
  }

  it('a store command that exits 0 but stores nothing: a day later, --revoke-replaced keeps the key in use and says why', async () => {
    const store = new CommandLikeStore(start);
    store.drop = true;
    const first = await rotate(store, { revokeReplaced: true });
    assert.equal(store.value, start, 'the store still holds the start key');
    emu.advance(25 * HOUR);
    await rotate(store, { revokeReplaced: true });
    assert.ok(await works(store.value), 'the key the store holds works');
    assert.equal(first.stored, 'claimed', 'an exit status of 0 proves nothing');
    assert.ok(
      lines.some((l) =>
        /^The key in use \S+ was followed by .* more than the grace ago: the store command glab did not take that key .*; \S+ is kept$/.test(
          l,
        ),
      ),
      lines.join('\n'),
    );
  });

  it('a key the store held keeps the grace after the store moved on, though a successor never reached it', async () => {
    for (const Store of [CommandLikeStore, AnsweringStore]) {
      const store = new Store(start);
      const held = store.value;
      await killWhileStoring(store, () => rotate(store));
      emu.advance(25 * HOUR);
      await rotate(store, { revokeReplaced: true });
      assert.notEqual(store.value, held, 'stored');
      assert.ok(await works(held), `${store.description}: the key it held until now still works`);
      emu.advance(25 * HOUR);
      await rotate(store, { revokeReplaced: true });
      assert.equal(await works(held), false, `${store.description}: gone after the grace`);
      start = emu.addTenant({ name: 'Rotating' }).apiKey;
    }
  });

  it('nine runs killed after their create fill the cap: the next names the keys and the command that deletes them', async () => {
    const store = new CommandLikeStore(start);
    for (let i = 0; i < 9; i++) {
      await killWhileStoring(store, () => rotate(store));
      emu.advance(HOUR);
    }
    emu.advance(48 * HOUR);
    const left = (await ids(start)).length;
    assert.equal(left, 10);
    const error = await rotate(store).then(
      () => '',
      (e: Error) => e.message,
    );
    assert.match(
      error,
      /^Rotation failed at make room: the tenant has 10 keys \(at most 10\) and none may go: /,
    );
    assert.match(
      error,
      /were made by this lineage after the key in use \S+, and the store command glab cannot tell/,
    );
    assert.match(error, /delete them with tenant-scan keys delete <id> \(([-\w]+, ){8}[-\w]+\)/);
    // following it: the ids it names go, and the next rotation goes through
    const named = /keys delete <id> \(([^)]+)\)/.exec(error)?.[1]?.split(', ') ?? [];
    for (const id of named) await call(emu, 'DELETE', `/tenants/me/api-keys/${id}`, { key: start });
    const next = await rotate(store);
    assert.ok(next.keyId);
    assert.ok(await works(store.value));
  });

  it('nine runs killed after their create with a store that tells: each next run deletes the key the last left, the cap never fills', async () => {
    const store = new SecretLikeStore(start);
    for (let i = 0; i < 9; i++) {
      await killWhileStoring(store, () => rotate(store));
      emu.advance(31 * MINUTE);
    }
    assert.equal((await ids(start)).length, 2, 'the key in use, and the one the last run left');
    assert.equal(lines.filter((l) => /: it was never stored$/.test(l)).length, 8);
  });

  it('grace-hours 0: the key in use goes in the run that stores its successor', async () => {
    const store = new SecretLikeStore(start);
    const result = await rotate(store, { graceMs: 0, revokeReplaced: true });
    assert.equal(await works(start), false, 'deleted in the same run');
    assert.deepEqual(
      result.revoked.map((k) => k.name),
      ['Default key (dashboard)'],
    );
  });
});
