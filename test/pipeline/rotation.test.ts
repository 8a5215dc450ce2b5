// The rotation over the emulator's key routes with an in-memory store: after every way it can fail,
// the store holds a key that works (src/pipeline/rotation/rotate.ts).
import { strict as assert } from 'node:assert';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import {
  RotationError,
  rotateKey,
  type RotationResult,
  type RotationSettings,
} from '../../src/pipeline/rotation/rotate.js';
import { StoreError, type KeyStore } from '../../src/pipeline/rotation/store.js';
import { startEmulator } from '../emulator/emulator.js';
import { call } from '../emulator/test-http.js';
import type { Emulator } from '../emulator/types.js';

const HOUR = 3_600_000;
const MINUTE = 60_000;

/** A store in memory that can refuse, lose its answer after writing, or never answer. */
class MemoryStore implements KeyStore {
  readonly description = 'memory store';
  /** It answers only once it holds the key. */
  writeProves = true;
  writes = 0;
  mode: 'ok' | 'refuse' | 'lost' | 'hang' | 'unprepared' = 'ok';
  constructor(public value: string) {}
  async prepare(): Promise<void> {
    if (this.mode === 'unprepared') throw new StoreError('no permission to write secrets');
  }
  async write(key: string): Promise<void> {
    this.writes++;
    if (this.mode === 'refuse') throw new StoreError('the store refused');
    if (this.mode === 'hang') return new Promise(() => undefined);
    this.value = key;
    if (this.mode === 'lost') throw new StoreError('answer lost', { mayHaveStored: true });
  }
}

/** A store that tells its version, as a GitHub secret's updated_at does: a new one each write. */
class VersionedStore extends MemoryStore {
  unreadable = false;
  private written = 0;
  override async write(key: string): Promise<void> {
    await super.write(key);
    if (this.value === key) this.written++;
  }
  async version(): Promise<string> {
    if (this.unreadable) throw new StoreError('HTTP 403: Resource not accessible by integration');
    return `v${this.written}`;
  }
}

/** A store that reads back the key it holds, as the CLI's --store-read-command does; `drop`: a
 *  write that answers success but stores nothing. */
class HeldStore extends MemoryStore {
  override writeProves = false;
  drop = false;
  /** How the read prints the key it holds. */
  printed = (value: string) => value;
  override async write(key: string): Promise<void> {
    if (this.drop) this.writes++;
    else await super.write(key);
  }
  async readHeld(): Promise<string> {
    return this.printed(this.value);
  }
}

async function works(emu: Emulator, key: string): Promise<boolean> {
  return (await call(emu, 'GET', '/tenants/me/api-keys', { key })).status === 200;
}

describe('rotation over the emulator', () => {
  let emu: Emulator;
  let store: MemoryStore;
  const masked: string[] = [];
  const lines: string[] = [];

  before(async () => {
    emu = await startEmulator({ seed: 35 });
  });
  after(() => emu.close());
  beforeEach(async () => {
    emu.clearFaults();
    // a fresh tenant per test: its dashboard key is the one the store starts with
    const tenant = emu.addTenant({ name: 'Rotating' });
    store = new MemoryStore(tenant.apiKey);
    masked.length = 0;
    lines.length = 0;
  });

  function rotate(
    settings: Partial<RotationSettings> = {},
    extra: { storeDeadlineMs?: number } = {},
  ): Promise<RotationResult> {
    const open = (apiKey: string) =>
      createClient({ apiKey, baseUrl: emu.url, retry: { maxAttempts: 2, baseDelayMs: 5 } });
    const client = open(settings.apiKey ?? store.value);
    return rotateKey(
      {
        apiKey: store.value,
        lineage: 'test:memory',
        graceMs: 24 * HOUR,
        revokeReplaced: false,
        dryRun: false,
        ...settings,
      },
      {
        client,
        openClient: open,
        store,
        mask: (secret) => masked.push(secret),
        log: (line) => lines.push(line),
        ...extra,
      },
    ).finally(() => client.close());
  }

  /** The tenant's keys as id and name (lastUsedAt moves with every read). */
  async function keysOf(key: string) {
    const keys = (await call(emu, 'GET', '/tenants/me/api-keys', { key })).body.data as Array<{
      id: string;
      name: string;
    }>;
    return keys.map(({ id, name }) => ({ id, name }));
  }

  it('stores a working key of the same tenant; the old one works until the grace has passed', async () => {
    const start = store.value;
    const first = await rotate({ revokeReplaced: true });
    assert.notEqual(store.value, start);
    assert.deepEqual(masked, [store.value]);
    assert.ok(await works(emu, store.value));
    assert.ok((await keysOf(store.value)).some((k) => k.id === first.keyId));
    assert.ok(await works(emu, start), 'the replaced key works during the grace');
    assert.equal(first.revoked.length, 0);
    assert.ok(lines.every((l) => !l.includes(store.value)));

    emu.advance(23 * HOUR);
    const second = await rotate({ revokeReplaced: true });
    assert.equal(second.revoked.length, 0, 'the grace has not passed');
    assert.ok(await works(emu, start));

    emu.advance(2 * HOUR);
    const third = await rotate({ revokeReplaced: true });
    assert.equal(await works(emu, start), false, 'the start key went after the grace');
    assert.equal(third.revoked.length, 1, 'only the start key: the first key was replaced 2 h ago');
    assert.ok(await works(emu, (await keysOf(store.value)).length === 3 ? store.value : ''));
    emu.advance(25 * HOUR);
    const fourth = await rotate({ revokeReplaced: true });
    assert.ok(
      fourth.revoked.some((k) => k.id === first.keyId),
      'the first key went after its grace',
    );
    assert.ok(await works(emu, store.value));
  });

  it('keeps the dashboard key without revoke-replaced, whatever its age', async () => {
    const start = store.value;
    await rotate();
    emu.advance(48 * HOUR);
    const next = await rotate();
    assert.ok(await works(emu, start));
    assert.equal(next.revoked.length, 0);
  });

  it('at 10 keys of which none may go, creates nothing and names the keys', async () => {
    for (let i = 0; i < 9; i++) {
      await call(emu, 'POST', '/tenants/me/api-keys', {
        key: store.value,
        body: { name: `team ${i}` },
      });
    }
    const before = await keysOf(store.value);
    assert.equal(before.length, 10);
    await assert.rejects(rotate(), (error: unknown) => {
      assert.ok(error instanceof RotationError);
      assert.equal(error.step, 'make room');
      assert.match(error.message, /10 keys .* none may go: .*"team 0"/);
      assert.match(error.message, /nothing changed/);
      return true;
    });
    assert.deepEqual(await keysOf(store.value), before);
  });

  it('at 10 keys, deletes the lineage keys whose grace has passed, then rotates', async () => {
    await rotate();
    emu.advance(25 * HOUR);
    await rotate();
    emu.advance(25 * HOUR);
    const keyBefore = store.value;
    const filler = 10 - (await keysOf(store.value)).length;
    for (let i = 0; i < filler; i++) {
      await call(emu, 'POST', '/tenants/me/api-keys', {
        key: store.value,
        body: { name: `f${i}` },
      });
    }
    const result = await rotate();
    assert.ok(result.revoked.length >= 1);
    assert.notEqual(store.value, keyBefore);
    assert.ok(await works(emu, store.value));
    assert.ok(await works(emu, keyBefore));
  });

  it('a refused store deletes the new key; the old one stays stored and nothing changed', async () => {
    const start = store.value;
    const before = await keysOf(start);
    store.mode = 'refuse';
    await assert.rejects(
      rotate(),
      /Rotation failed at store the new key: the store refused; nothing changed/,
    );
    assert.equal(store.value, start);
    assert.ok(await works(emu, start));
    assert.deepEqual(await keysOf(start), before);
  });

  it('a store that may have written keeps both keys working', async () => {
    const start = store.value;
    store.mode = 'lost';
    await assert.rejects(rotate(), /may hold the new key .* both are kept/);
    assert.notEqual(store.value, start);
    assert.ok(await works(emu, store.value));
    assert.ok(await works(emu, start));
  });

  it('a verify read that fails deletes the new key and stores nothing', async () => {
    const start = store.value;
    const before = await keysOf(start);
    emu.addFault({
      route: 'GET /tenants/me/api-keys',
      after: 1,
      fault: { kind: 'status', status: 500 },
    });
    await assert.rejects(rotate(), /at verify the new key: a read with the new key failed/);
    assert.equal(store.writes, 0);
    assert.deepEqual(await keysOf(start), before);
  });

  it('a create answered 500 after acting leaves no key behind', async () => {
    const start = store.value;
    const before = await keysOf(start);
    emu.addFault({
      route: 'POST /tenants/me/api-keys',
      fault: { kind: 'status', status: 500, afterHandler: true },
    });
    await assert.rejects(rotate(), /at create the new key: .*nothing changed/);
    assert.deepEqual(await keysOf(start), before);
    assert.equal(store.value, start);
  });

  it('403 AUTH_INSUFFICIENT_SCOPE on the create says to rotate in the dashboard', async () => {
    const before = await keysOf(store.value);
    emu.addFault({
      route: 'POST /tenants/me/api-keys',
      fault: { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
    });
    await assert.rejects(rotate(), /rotate the key in the dashboard \(Settings, API Keys\)/);
    assert.deepEqual(await keysOf(store.value), before);
  });

  it('a store that cannot be written is found out before anything is created', async () => {
    const before = await keysOf(store.value);
    store.mode = 'unprepared';
    await assert.rejects(
      rotate(),
      /at prepare the store: no permission to write secrets; nothing changed/,
    );
    assert.deepEqual(await keysOf(store.value), before);
  });

  it('a dry run says what it would do and changes nothing', async () => {
    const before = await keysOf(store.value);
    const plan = await rotate({ dryRun: true });
    assert.equal(plan.dryRun, true);
    assert.match(plan.keyName, /^tenant-scan test:memory \S+ replaces ak_live_/);
    assert.equal(plan.keyId, undefined);
    assert.deepEqual(await keysOf(store.value), before);
    assert.equal(store.writes, 0);
    await rotate();
    emu.advance(25 * HOUR);
    const next = await rotate({ dryRun: true, revokeReplaced: true, graceMs: 0 });
    assert.deepEqual(
      next.wouldRevoke?.map((k) => k.name.split(' ')[0]),
      ['Default', 'tenant-scan'],
      'the start key, then the key in use once the new one would be stored',
    );
  });

  it('a delete refused with 403 after the store says the new key is stored', async () => {
    await rotate();
    emu.advance(2000); // past the Date header's second, which is the service clock we see
    emu.addFault({
      route: 'DELETE /tenants/me/api-keys/:keyId',
      fault: { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
    });
    await assert.rejects(
      rotate({ graceMs: 0, revokeReplaced: true }),
      /at delete replaced keys: the new key \S+ is stored and works, but the service refuses deletes by key .* in the dashboard/,
    );
    assert.ok(await works(emu, store.value));
  });

  it('a store that cannot tell when it was written: a killed run’s key goes once replaced and past the grace', async () => {
    const start = store.value;
    store.mode = 'hang';
    const abandoned = rotate();
    abandoned.catch(() => undefined);
    while (store.writes === 0) await new Promise((r) => setTimeout(r, 5));
    assert.equal(store.value, start);
    assert.ok(await works(emu, start));
    const leftover = (await keysOf(start)).find((k) => !k.name.startsWith('Default'));
    assert.ok(leftover);
    store.mode = 'ok';
    await rotate();
    assert.ok(
      (await keysOf(store.value)).some((k) => k.id === leftover.id),
      'within its grace',
    );
    emu.advance(25 * HOUR);
    const later = await rotate();
    assert.ok(later.revoked.some((k) => k.id === leftover.id));
    assert.ok(await works(emu, store.value));
  });

  /** A run stopped between its create and its store (the store never answers): its key stays. */
  async function leaveUnstoredKey() {
    const before = new Set((await keysOf(store.value)).map((k) => k.id));
    const writes = store.writes;
    store.mode = 'hang';
    rotate().catch(() => undefined);
    while (store.writes === writes) await new Promise((r) => setTimeout(r, 5));
    store.mode = 'ok';
    const left = (await keysOf(store.value)).filter((k) => !before.has(k.id));
    assert.equal(left.length, 1);
    return left[0] ?? { id: '', name: '' };
  }

  /** A versioned store written an hour before a run stopped before its store, `laterMs` ago. */
  async function leftoverOfVersionedStore(laterMs: number) {
    store = new VersionedStore(store.value);
    emu.advance(HOUR);
    const leftover = await leaveUnstoredKey();
    emu.advance(laterMs);
    return { leftover, before: await keysOf(store.value) };
  }

  it('the next run deletes a key the store never held, before its create', async () => {
    store = new VersionedStore(store.value);
    await rotate();
    const held = store.value;
    emu.advance(HOUR);
    const leftover = await leaveUnstoredKey();
    assert.match(leftover.name, / after v1$/, 'the version the store had before its create');
    emu.advance(31 * MINUTE);
    lines.length = 0;
    const next = await rotate();
    assert.deepEqual(
      next.revoked.map((k) => k.id),
      [leftover.id],
    );
    const deleted = lines.findIndex((l) => /^Deleted key/.test(l) && l.includes(leftover.name));
    assert.ok(deleted >= 0 && deleted < lines.findIndex((l) => /^Created key/.test(l)));
    assert.ok(!(await keysOf(store.value)).some((k) => k.id === leftover.id));
    assert.ok(await works(emu, store.value));
    assert.ok(await works(emu, held), 'the key the store held stays within its grace');
  });

  it('never deletes early a key the store holds or held (a re-run of an older job)', async () => {
    store = new VersionedStore(store.value);
    await rotate();
    const older = store.value;
    emu.advance(HOUR);
    const second = await rotate();
    emu.advance(HOUR);
    const rerun = await rotate({ apiKey: older });
    assert.deepEqual(rerun.revoked, []);
    assert.ok((await keysOf(store.value)).some((k) => k.id === second.keyId));
    assert.ok(await works(emu, store.value));
  });

  it('a key not stored, younger than 30 minutes (a rotation may be storing it): stops, nothing changed', async () => {
    const { leftover, before } = await leftoverOfVersionedStore(20 * MINUTE);
    await assert.rejects(
      rotate(),
      /at make room: the key "[^"]+" \(\S+\) was made after the memory store was last written, less than 30 minutes ago: another rotation may be storing it, .*; run again later; nothing changed$/,
    );
    assert.deepEqual(await keysOf(store.value), before);
    assert.ok(before.some((k) => k.id === leftover.id));
  });

  it('at 10 keys, one never stored: deletes it, then creates, stores and succeeds', async () => {
    store = new VersionedStore(store.value);
    for (let i = 0; i < 8; i++) {
      await call(emu, 'POST', '/tenants/me/api-keys', {
        key: store.value,
        body: { name: `team ${i}` },
      });
    }
    emu.advance(HOUR);
    const leftover = await leaveUnstoredKey();
    assert.equal((await keysOf(store.value)).length, 10);
    emu.advance(31 * MINUTE);
    const start = store.value;
    const result = await rotate();
    assert.deepEqual(
      result.revoked.map((k) => k.id),
      [leftover.id],
    );
    assert.notEqual(store.value, start);
    assert.ok(await works(emu, store.value));
    assert.equal((await keysOf(store.value)).length, 10);
  });

  it('a key never stored that cannot be deleted: nothing is created (never two unstored keys)', async () => {
    const { leftover, before } = await leftoverOfVersionedStore(31 * MINUTE);
    emu.addFault({
      route: 'DELETE /tenants/me/api-keys/:keyId',
      times: Infinity,
      fault: { kind: 'status', status: 500 },
    });
    await assert.rejects(
      rotate(),
      /at make room: the key "[^"]+" \(\S+\) was never stored and could not be deleted; nothing was created/,
    );
    emu.clearFaults();
    assert.deepEqual(await keysOf(store.value), before);
    assert.ok(before.some((k) => k.id === leftover.id));
  });

  it('a store whose version cannot be read: nothing is created (a key left could not be told)', async () => {
    const versioned = new VersionedStore(store.value);
    store = versioned;
    emu.advance(HOUR);
    const leftover = await leaveUnstoredKey();
    emu.advance(31 * MINUTE);
    versioned.unreadable = true;
    const before = await keysOf(store.value);
    await assert.rejects(
      rotate(),
      /^RotationError: Rotation failed at make room: could not read when the memory store was last written \(HTTP 403: .*\): a key a stopped run left could not be told from one stored; nothing changed; the next run tries again$/,
    );
    assert.deepEqual(await keysOf(store.value), before);
    assert.ok(before.some((k) => k.id === leftover.id));
  });

  it('a store that reads back its key: a key made after it goes before the create, one made before keeps the grace', async () => {
    emu.advance(HOUR);
    const older = await leaveUnstoredKey();
    emu.advance(HOUR);
    await rotate(); // a store that cannot tell: `older` stays, the store holds a key made after it
    store = new HeldStore(store.value);
    const held = store.value;
    emu.advance(HOUR);
    const newer = await leaveUnstoredKey();
    emu.advance(31 * MINUTE);
    masked.length = 0;
    const result = await rotate();
    assert.deepEqual(
      result.revoked.map((k) => k.id),
      [newer.id],
    );
    assert.ok(
      (await keysOf(store.value)).some((k) => k.id === older.id),
      'older: the grace',
    );
    assert.ok(masked.includes(held), 'the key read from the store is masked');
    assert.ok(
      lines.some((l) =>
        /^Key \S+ \(.*\) was made after the key the memory store holds \(\S+\): it was never stored$/.test(
          l,
        ),
      ),
    );
  });

  it('a store that answers a write but reads back another key: the new key is deleted', async () => {
    const held = new HeldStore(store.value);
    store = held;
    held.drop = true;
    const start = store.value;
    const before = await keysOf(start);
    await assert.rejects(
      rotate(),
      /at store the new key: the memory store succeeded but the store does not hold the new key; nothing changed: the stored key \S+ still works$/,
    );
    assert.equal(held.writes, 1);
    assert.deepEqual(await keysOf(start), before);
  });

  it('a read-back that prints neither the new key nor another of the tenant: both keys are kept', async () => {
    const held = new HeldStore(store.value);
    store = held;
    const start = store.value;
    emu.advance(HOUR);
    held.printed = (value) => (value === start ? value : `key=${value.toUpperCase()}`);
    await assert.rejects(
      rotate(),
      /at store the new key: the memory store succeeded but the store could not be read back \(it printed neither the new key nor another of the tenant's keys\): it may hold the new key \S+ or the old \S+: both are kept and work$/,
    );
    assert.notEqual(store.value, start);
    assert.ok(await works(emu, store.value), 'the key the store holds works');
    assert.ok(await works(emu, start));
  });

  it('a new key not ready to store by the deadline is deleted, and nothing changed', async () => {
    const start = store.value;
    const before = await keysOf(start);
    await assert.rejects(
      rotate({}, { storeDeadlineMs: 1 }),
      /at store the new key: the new key was not ready to store within 1 ms of its create; nothing changed/,
    );
    assert.equal(store.writes, 0);
    assert.equal(store.value, start);
    assert.deepEqual(await keysOf(start), before);
  });
});
