// The rotation's pure decisions: names (src/pipeline/rotation/plan.ts) and what may go when
// (rules.ts). The model-based property (test/pipeline/rotation.property.test.ts) holds the rules
// over sequences; these are the examples each rule was mended by.
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  MAX_KEY_NAME,
  UNSTORED_AFTER_MS,
  findKeyInUse,
  fitLineage,
  keyName,
  lineageKeys,
  parseKeyName,
  prefixMatches,
  prefixOf,
  type KeyInfo,
} from '../../../src/pipeline/rotation/plan.js';
import {
  revocable,
  serviceClock,
  staleInUse,
  unstoredKeys,
  type GracePolicy,
} from '../../../src/pipeline/rotation/rules.js';
import type { TenantClient } from '../../../src/client/index.js';

const HOUR = 3_600_000;
const T0 = Date.parse('2026-03-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function dashboardKey(): KeyInfo {
  return {
    id: 'dash',
    name: 'Default key (dashboard)',
    keyPrefix: 'ak_live_dash...aaaa',
    createdAt: iso(T0 - 100 * HOUR),
  };
}

function ourKey(
  id: string,
  atMs: number,
  replaces: string,
  lineage = 'github:o/r/KEY',
  version?: string,
): KeyInfo {
  return {
    id,
    name: keyName(lineage, atMs, replaces, version),
    keyPrefix: `ak_live_${id.padEnd(4, 'x')}...${id.slice(0, 4).padEnd(4, 'y')}`,
    createdAt: iso(atMs),
  };
}

describe('rotation plan: names', () => {
  it('names a key with its lineage, the time and the key it replaces, and parses it back', () => {
    const name = keyName('github:o/r/KEY', T0 + 1234, 'ak_live_abcd...wxyz');
    assert.equal(
      name,
      'tenant-scan github:o/r/KEY 2026-03-01T00:00:01Z replaces ak_live_abcd...wxyz',
    );
    assert.deepEqual(parseKeyName(name), {
      lineage: 'github:o/r/KEY',
      namedAtMs: T0 + 1000,
      replaces: 'ak_live_abcd...wxyz',
    });
    assert.equal(parseKeyName('Default key (dashboard)'), undefined);
    const versioned = keyName('github:o/r/KEY', T0, 'ak_live_abcd...wxyz', '2026-02-28T23:00:00Z');
    assert.equal(versioned, `${name.replace(':01Z', ':00Z')} after 2026-02-28T23:00:00Z`);
    assert.deepEqual(parseKeyName(versioned), {
      lineage: 'github:o/r/KEY',
      namedAtMs: T0,
      replaces: 'ak_live_abcd...wxyz',
      after: '2026-02-28T23:00:00Z',
    });
  });

  it('stays within 255 characters whatever the lineage, and long lineages stay apart', () => {
    const long = 'x'.repeat(400);
    const name = keyName(long, T0, 'ak_live_abcd...wxyz');
    assert.ok(name.length <= MAX_KEY_NAME, `${name.length}`);
    assert.equal(parseKeyName(name)?.lineage, fitLineage(long));
    assert.notEqual(fitLineage(`${long}a`), fitLineage(`${long}b`));
  });

  it('matches the key in use by its prefix, and only a single match', () => {
    const key = 'ak_live_0123456789abcdef';
    assert.equal(prefixOf(key), 'ak_live_0123...cdef');
    assert.ok(prefixMatches('ak_live_0123...cdef', key));
    assert.ok(prefixMatches('ak_live_0123…cdef', key));
    assert.ok(!prefixMatches('ak_live_0124...cdef', key));
    assert.ok(!prefixMatches('ak_live_0123', key));
    const listed = { ...dashboardKey(), keyPrefix: 'ak_live_0123...cdef' };
    assert.equal(findKeyInUse([listed], key)?.id, 'dash');
    assert.equal(findKeyInUse([listed, { ...listed, id: 'twin' }], key), undefined);
  });

  it('counts a key as ours only when its name time agrees with its createdAt', () => {
    const genuine = ourKey('k1', T0, 'ak_live_dash...aaaa');
    const forged = { ...genuine, id: 'k2', createdAt: iso(T0 + 30 * HOUR) };
    const other = ourKey('k3', T0, 'ak_live_dash...aaaa', 'github:o/r/OTHER');
    assert.deepEqual(
      lineageKeys([forged, genuine, other], 'github:o/r/KEY').map((k) => k.id),
      ['k1'],
    );
  });
});

describe('rotation plan: what may go', () => {
  const dash = dashboardKey();
  const k1 = ourKey('k1', T0, dash.keyPrefix);
  const k2 = ourKey('k2', T0 + 30 * 24 * HOUR, k1.keyPrefix);
  const lineage = 'github:o/r/KEY';
  const policy = (over: Partial<GracePolicy>): GracePolicy => ({
    lineage,
    graceMs: 24 * HOUR,
    revokeReplaced: false,
    nowMs: T0,
    inUse: k1,
    ...over,
  });
  const ids = (keys: readonly KeyInfo[], over: Partial<GracePolicy>) =>
    revocable(keys, policy(over)).map((r) => r.key.id);

  it('a key older than the key in use goes the grace after the key in use was made', () => {
    const keys = [dash, k1, k2];
    const at = T0 + 30 * 24 * HOUR;
    assert.deepEqual(ids(keys, { inUse: k2, nowMs: at + 23 * HOUR }), []);
    assert.deepEqual(ids(keys, { inUse: k2, nowMs: at + 24 * HOUR }), ['k1']);
    assert.deepEqual(ids(keys, { inUse: k2, nowMs: at + 24 * HOUR, revokeReplaced: true }).sort(), [
      'dash',
      'k1',
    ]);
  });

  it('the key in use and newer keys stay until a later key is proven stored', () => {
    const keys = [dash, k1, k2];
    const late = T0 + 90 * 24 * HOUR;
    assert.deepEqual(ids(keys, { inUse: k1, nowMs: late, revokeReplaced: true }), ['dash']);
    const made = ourKey('k3', late, k1.keyPrefix);
    const proven = ids([...keys, made], { inUse: k1, nowMs: late, provenNew: made });
    assert.deepEqual(proven, [], 'proven now: the grace counts from now');
    const later = ids([...keys, made], {
      inUse: k1,
      nowMs: late + 24 * HOUR,
      provenNew: made,
    });
    assert.deepEqual(later.sort(), ['k1', 'k2']);
  });

  it('a successor that never reached the store does not start the grace (the store still held it)', () => {
    // k2 was made by a run killed before its store: k1 stayed in the store until k3 was stored
    const k3 = ourKey('k3', T0 + 60 * 24 * HOUR, k1.keyPrefix);
    const made = Date.parse(k3.createdAt);
    assert.deepEqual(ids([k1, k2, k3], { inUse: k1, nowMs: made, provenNew: k3 }), []);
    const later = ids([k1, k2, k3], { inUse: k1, nowMs: made + 24 * HOUR, provenNew: k3 });
    assert.deepEqual(later.sort(), ['k1', 'k2']);
  });

  it('a later key a job used shows the store moved on: the grace counts from when it was made', () => {
    const used = { ...k2, lastUsedAt: iso(T0 + 31 * 24 * HOUR) };
    const keys = [k1, used];
    // a re-run holds k1; jobs used k2, so the store held it after k1
    assert.deepEqual(ids(keys, { inUse: k1, nowMs: T0 + 31 * 24 * HOUR }), ['k1']);
    // the maker's own read (within the store deadline) is no job's
    const verified = { ...k2, lastUsedAt: iso(T0 + 30 * 24 * HOUR + 60_000) };
    assert.deepEqual(ids([k1, verified], { inUse: k1, nowMs: T0 + 31 * 24 * HOUR }), []);
  });

  it('a key no job used for the grace goes, once the store moved on from it', () => {
    const old = { ...k1, lastUsedAt: iso(T0 + 2 * HOUR) };
    const k3 = ourKey('k3', T0 + 40 * 24 * HOUR, k2.keyPrefix);
    assert.deepEqual(ids([old, k2, k3], { inUse: k3, nowMs: T0 + 40 * 24 * HOUR }), ['k1']);
  });

  it('leaves a start key alone when its prefix is not unique', () => {
    const twin = { ...dash, id: 'dash-twin' };
    assert.deepEqual(
      ids([dash, twin, k1, k2], { inUse: k2, nowMs: T0 + 90 * 24 * HOUR, revokeReplaced: true }),
      ['k1'],
    );
  });

  it('with a grace of 0, the key in use goes in the run whose new key is proven stored', () => {
    const made = ourKey('k3', T0 + 5_500, k1.keyPrefix);
    const client = { serverTime: () => ({ serverMs: T0 + 5_000, observedAtLocalMs: Date.now() }) };
    const nowMs = serviceClock(client as unknown as TenantClient, [k1, made]);
    assert.equal(
      nowMs >= T0 + 5_500,
      true,
      'a whole-second Date is not before a key made in its second',
    );
    assert.deepEqual(ids([k1, made], { inUse: k1, nowMs, graceMs: 0, provenNew: made }), ['k1']);
  });

  it('names the keys made after the key in use more than the grace ago (the store did not take them)', () => {
    assert.deepEqual(
      staleInUse([k1, k2], policy({ inUse: k1, nowMs: T0 + 31 * 24 * HOUR })).map((k) => k.id),
      ['k2'],
    );
    assert.deepEqual(
      staleInUse([k1, k2], policy({ inUse: k1, nowMs: T0 + 30 * 24 * HOUR + HOUR })),
      [],
    );
  });
});

describe('rotation plan: keys never stored', () => {
  const dash = dashboardKey();
  const lineage = 'github:o/r/KEY';
  const stored = ourKey('k1', T0, dash.keyPrefix, lineage, 'v1');
  const left = ourKey('k2', T0 + 10 * HOUR, stored.keyPrefix, lineage, 'v2');
  const other = ourKey('k3', T0 + 10 * HOUR, stored.keyPrefix, 'github:o/r/OTHER', 'v2');
  const keys = [dash, stored, left, other];

  it('a key whose name carries the version the store still has is one, once 30 minutes old', () => {
    const at = (nowMs: number) => unstoredKeys(keys, lineage, stored, { version: 'v2' }, nowMs);
    assert.deepEqual(
      at(T0 + 11 * HOUR).settled.map((k) => k.id),
      ['k2'],
    );
    const young = at(T0 + 10 * HOUR + UNSTORED_AFTER_MS - 1);
    assert.deepEqual(young.settled, []);
    assert.deepEqual(
      young.recent.map((k) => k.id),
      ['k2'],
      'a rotation may be storing it',
    );
    assert.deepEqual(
      unstoredKeys(keys, lineage, stored, { version: 'v3' }, T0 + 11 * HOUR).settled,
      [],
      'written since',
    );
    assert.deepEqual(
      unstoredKeys(keys, lineage, left, { version: 'v2' }, T0 + 11 * HOUR).settled,
      [],
      'the key the job holds',
    );
  });

  it('for a store that reads back the key it holds: the keys made after it', () => {
    const held = (key: KeyInfo) =>
      unstoredKeys(keys, lineage, stored, { held: key }, T0 + 11 * HOUR).settled.map((k) => k.id);
    assert.deepEqual(held(stored), ['k2']);
    assert.deepEqual(held(left), [], 'it holds the newest');
  });
});
