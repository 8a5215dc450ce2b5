// Which keys a rotation may delete, and when. A key is deleted only when the store cannot hold it
// and no job can still count on it:
// - never stored: a key of the lineage the store never held (for a store that can tell:
//   `unstoredKeys`) goes at once, before the create, once no rotation running now can store it;
// - any other: once the store is shown to have moved on from it — a later key it held was made
//   (the key in use, which the job got from the store; the new key once proven stored by a GitHub
//   secret's answer or a read-back, never by a store command's exit status alone; a key of the
//   lineage a job used) — the grace after that, or the grace after a job last used it, whichever
//   is first. So the key in use, and keys newer than it (a re-run of an older job holds an older
//   key than the store), stay until a later key is shown stored;
// - people's keys never; the key the lineage started from only with revoke-replaced.
// Times are the service's clock (createdAt, lastUsedAt, the Date of its answers).

import type { ApiKey, TenantClient } from '../../client/index.js';
import {
  STORE_DEADLINE_MS,
  UNSTORED_AFTER_MS,
  createdMs,
  lineageKeys,
  parseKeyName,
  type KeyInfo,
} from './plan.js';
import { serviceNow } from './service-clock.js';

export interface GracePolicy {
  lineage: string;
  graceMs: number;
  revokeReplaced: boolean;
  /** The service's clock now, ms. */
  nowMs: number;
  /** The key the job holds. */
  inUse: KeyInfo;
  /** The run's new key, once the store is proven to hold it (after the store). */
  provenNew?: KeyInfo;
}

export interface Departure {
  key: KeyInfo;
  /** When the store moved on from it, as far as this run can prove (service clock, ms). */
  leftAtMs: number;
  /** Made by this lineage (else the key it started from, e.g. the dashboard's). */
  ours: boolean;
}

/** The service's clock now: its last Date header moved on by the time since, but never before a
 *  time the service has shown (a Date is whole seconds; a key made in this second is made). */
export function serviceClock(client: TenantClient, keys: readonly KeyInfo[]): number {
  const shown = keys.reduce((latest, k) => Math.max(latest, createdMs(k) || 0), 0);
  return Math.max(client.serverTime?.() ? serviceNow(client) : 0, shown);
}

/** The key the lineage started from: outside it, the only listed key with its prefix, and named
 *  by a key of the lineage as the key it replaced. */
function startKeys(keys: readonly KeyInfo[], ours: readonly KeyInfo[]): KeyInfo[] {
  const ourIds = new Set(ours.map((k) => k.id));
  return keys.filter(
    (other) =>
      !ourIds.has(other.id) &&
      keys.filter((k) => k.keyPrefix === other.keyPrefix).length === 1 &&
      ours.some((k) => parseKeyName(k.name)?.replaces === other.keyPrefix),
  );
}

/** When a job last used the key: a use after its own rotation was over (the one that made it
 *  reads with it, within the store deadline); undefined when none shows. */
function lastJobUseMs(key: KeyInfo): number | undefined {
  const used = Date.parse(key.lastUsedAt ?? '');
  return Number.isFinite(used) && used > createdMs(key) + STORE_DEADLINE_MS ? used : undefined;
}

/** When the store moved on from `key`, as far as this run can prove: once a later key the store
 *  is shown to have held was made (the key in use, which the job got from the store; the new key
 *  once proven stored; a key of the lineage a job used), when the first of them was made or when a
 *  job last used `key`, whichever is first. Undefined: the store may hold it still. */
function leftStoreAt(
  key: KeyInfo,
  policy: GracePolicy,
  ours: readonly KeyInfo[],
): number | undefined {
  const { inUse, provenNew } = policy;
  const held = (k: KeyInfo) =>
    k.id === inUse.id || k.id === provenNew?.id || lastJobUseMs(k) !== undefined;
  const later = [...ours, inUse, ...(provenNew ? [provenNew] : [])].filter(
    (k) => createdMs(k) > createdMs(key) && held(k),
  );
  if (later.length === 0) return undefined;
  const moved = later.reduce((first, k) => Math.min(first, createdMs(k)), Number.POSITIVE_INFINITY);
  return Math.min(moved, lastJobUseMs(key) ?? Number.POSITIVE_INFINITY);
}

/** The keys that may go now (the grace has passed since the store moved on from them): ours, and
 *  with revokeReplaced the start key; never the new key. Earliest departure first. */
export function revocable(keys: readonly KeyInfo[], policy: GracePolicy): Departure[] {
  const ours = lineageKeys(keys, policy.lineage);
  const start = policy.revokeReplaced ? startKeys(keys, ours) : [];
  const found: Departure[] = [];
  for (const [key, isOurs] of [
    ...ours.map((k) => [k, true] as const),
    ...start.map((k) => [k, false] as const),
  ]) {
    if (key.id === policy.provenNew?.id) continue;
    const leftAtMs = leftStoreAt(key, policy, ours);
    if (leftAtMs !== undefined && leftAtMs + policy.graceMs <= policy.nowMs)
      found.push({ key, leftAtMs, ours: isOurs });
  }
  return found.sort((a, b) => a.leftAtMs - b.leftAtMs);
}

/** Keys of the lineage made after the key in use: a store that cannot tell may hold one of them
 *  (a re-run of an older job) or none (runs stopped before their store). Oldest first. */
export function newerThanInUse(
  keys: readonly KeyInfo[],
  lineage: string,
  inUse: KeyInfo,
): KeyInfo[] {
  return lineageKeys(keys, lineage).filter(
    (k) => k.id !== inUse.id && !(createdMs(k) <= createdMs(inUse)),
  );
}

/** Keys of the lineage made after the key in use more than the grace ago: the job still holds a
 *  key the store should have moved on from — the store did not take their write, or this run is a
 *  re-run of an older job. */
export function staleInUse(keys: readonly KeyInfo[], policy: GracePolicy): KeyInfo[] {
  return newerThanInUse(keys, policy.lineage, policy.inUse).filter(
    (k) => createdMs(k) + policy.graceMs <= policy.nowMs,
  );
}

export interface NeverStored {
  /** Old enough that no rotation running now may still store them: never stored. */
  settled: KeyInfo[];
  /** A rotation may be storing one now, or one was stopped moments ago. */
  recent: KeyInfo[];
}

/** What tells that a key was never stored: the store's version now (a key whose name carries the
 *  same version was made after that write and no write followed), or the key it holds (a key made
 *  after it was never written there: the store holds an older one). */
export type StoreTruth = { version: string } | { held: KeyInfo };

/** The lineage's keys the store never held (never the key in use), split by age. */
export function unstoredKeys(
  keys: readonly ApiKey[] | readonly KeyInfo[],
  lineage: string,
  inUse: KeyInfo,
  truth: StoreTruth,
  nowMs: number,
): NeverStored {
  const never = lineageKeys(keys, lineage).filter((key) => {
    if (key.id === inUse.id) return false;
    if ('version' in truth) return parseKeyName(key.name)?.after === truth.version;
    return key.id !== truth.held.id && createdMs(key) > createdMs(truth.held);
  });
  const settled = (key: KeyInfo) => nowMs - createdMs(key) >= UNSTORED_AFTER_MS;
  return { settled: never.filter(settled), recent: never.filter((k) => !settled(k)) };
}
