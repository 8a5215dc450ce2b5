// The rotation's pure decisions (src/pipeline/rotation/plan.ts).
import { strict as assert } from 'node:assert';
import { describe, it } from 'node:test';
import {
  LAST_WRITE_MARGIN_MS,
  MAX_KEY_NAME,
  UNSTORED_AFTER_MS,
  findKeyInUse,
  fitLineage,
  keyName,
  lineageKeys,
  parseKeyName,
  prefixMatches,
  prefixOf,
  protectedBeforeStore,
  replacements,
  revocable,
  unstoredKeys,
  type KeyInfo,
} from '../../../src/pipeline/rotation/plan.js';

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

function ourKey(id: string, atMs: number, replaces: string, lineage = 'github:o/r/KEY'): KeyInfo {
  return {
    id,
    name: keyName(lineage, atMs, replaces),
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
  const keys = [dash, k1, k2];
  const policy = {
    lineage: 'github:o/r/KEY',
    graceMs: 24 * HOUR,
    revokeReplaced: false,
    protect: new Set<string>(),
  };

  it('a lineage key is replaced when the next one is created; the start key when one names it', () => {
    const found = replacements(keys, policy.lineage).map((r) => [r.key.id, r.replacedAtMs, r.ours]);
    assert.deepEqual(found, [
      ['k1', T0 + 30 * 24 * HOUR, true],
      ['dash', T0, false],
    ]);
  });

  it('deletes ours only after the grace, the start key only with revokeReplaced', () => {
    const at = (nowMs: number, revokeReplaced = false) =>
      revocable(keys, { ...policy, nowMs, revokeReplaced }).map((r) => r.key.id);
    assert.deepEqual(at(T0 + 30 * 24 * HOUR + 23 * HOUR), []);
    assert.deepEqual(at(T0 + 30 * 24 * HOUR + 24 * HOUR), ['k1']);
    assert.deepEqual(at(T0 + 30 * 24 * HOUR + 24 * HOUR, true), ['dash', 'k1']);
    assert.deepEqual(at(T0 + 23 * HOUR, true), []);
  });

  it('never deletes a protected key, nor one created after the key in use before the store', () => {
    const nowMs = T0 + 90 * 24 * HOUR;
    const protect = protectedBeforeStore(keys, k1);
    assert.deepEqual([...protect].sort(), ['k1', 'k2']);
    assert.deepEqual(
      revocable(keys, { ...policy, nowMs, revokeReplaced: true, protect }).map((r) => r.key.id),
      ['dash'],
    );
  });

  it('leaves a start key alone when its prefix is not unique', () => {
    const twin = { ...dash, id: 'dash-twin' };
    assert.deepEqual(
      replacements([dash, twin, k1], policy.lineage).map((r) => r.key.id),
      [],
    );
  });
});

describe('rotation plan: keys never stored', () => {
  const dash = dashboardKey();
  const stored = ourKey('k1', T0, dash.keyPrefix);
  const left = ourKey('k2', T0 + 10 * HOUR, stored.keyPrefix);
  const other = ourKey('k3', T0 + 10 * HOUR, stored.keyPrefix, 'github:o/r/OTHER');
  const keys = [dash, stored, left, other];
  const split = (nowMs: number, lastWriteAgoMs: number, inUse = stored) =>
    unstoredKeys(keys, { lineage: 'github:o/r/KEY', inUse, nowMs, lastWriteAgoMs });
  const unstored = (nowMs: number, lastWriteAgoMs: number, inUse = stored) =>
    split(nowMs, lastWriteAgoMs, inUse).settled.map((k) => k.id);

  it('a lineage key made after the last write (ages compared) is one, once 30 minutes old', () => {
    const nowMs = T0 + 11 * HOUR; // k2 is 1 h old; the store was written when k1 was made
    assert.deepEqual(unstored(nowMs, 11 * HOUR), ['k2']);
    assert.deepEqual(unstored(T0 + 10 * HOUR + UNSTORED_AFTER_MS - 1, 11 * HOUR), []);
    const young = split(T0 + 10 * HOUR + UNSTORED_AFTER_MS - 1, 11 * HOUR);
    assert.deepEqual(
      young.recent.map((k) => k.id),
      ['k2'],
      'younger: a rotation may be storing it',
    );
    assert.deepEqual(unstored(T0 + 10 * HOUR + UNSTORED_AFTER_MS, 11 * HOUR), ['k2']);
  });

  it('never a key made before the last write, within the margin of it, or the key in use', () => {
    const nowMs = T0 + 11 * HOUR;
    assert.deepEqual(unstored(nowMs, HOUR), [], 'k2 was stored: written when it was made');
    assert.deepEqual(unstored(nowMs, HOUR + LAST_WRITE_MARGIN_MS), []);
    assert.deepEqual(unstored(nowMs, HOUR + LAST_WRITE_MARGIN_MS + 1), ['k2']);
    assert.deepEqual(unstored(nowMs, 11 * HOUR, left), [], 'the key the job holds');
    assert.deepEqual(unstored(T0 + 9 * HOUR, Infinity), [], 'a createdAt ahead of the service');
  });
});
