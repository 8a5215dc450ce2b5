// The rotation's pure decisions: how a key this project made is named and recognised, which key is
// the one in use, when a key counts as replaced, and which keys may be deleted at a given moment.
// Times are the service's clock (keys' createdAt and the Date of its answers), never the runner's.

import { createHash } from 'node:crypto';

/** The seed's cap on a key's name, and on a tenant's active keys. */
export const MAX_KEY_NAME = 255;
export const MAX_ACTIVE_KEYS = 10;
/** A lineage longer than this is shortened (with a digest, so two long lineages stay apart). */
export const MAX_LINEAGE = 160;
/** How far the time in a key's name may be from its createdAt for the key to count as ours. */
export const NAME_TIME_TOLERANCE_MS = 60 * 60_000;
/** A rotation writes its new key within this long of asking for it, or deletes it (rotate.ts). */
export const STORE_DEADLINE_MS = 15 * 60_000;
/** A key younger than this may still be written by a rotation running now (overlapping runs
 *  without `concurrency`): the deadline, and as long again for a write the store received late
 *  and a read of the store's metadata that has not seen a write yet. */
export const UNSTORED_AFTER_MS = 2 * STORE_DEADLINE_MS;
/** How much younger than the store's last write a key must be to count as never stored. Each age
 *  is read on one clock (the store's, the service's), so a skew between them does not matter; this
 *  covers whole-second Date headers and the time the answers took. */
export const LAST_WRITE_MARGIN_MS = 2 * 60_000;

const NAME_PREFIX = 'tenant-scan';
const ISO = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;
const NAME = new RegExp(`^${NAME_PREFIX} (.+) (${ISO})(?: replaces (\\S+))?$`);

/** What the rotation needs of a listed key (the client's ApiKey has more). */
export interface KeyInfo {
  id: string;
  name: string;
  keyPrefix: string;
  createdAt: string;
  lastUsedAt?: string | null;
}

export interface ParsedName {
  lineage: string;
  namedAtMs: number;
  /** The keyPrefix of the key it replaced, when the name says it. */
  replaces?: string;
}

/** The lineage as it appears in names: one line, at most MAX_LINEAGE characters. */
export function fitLineage(lineage: string): string {
  const flat = lineage.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_LINEAGE) return flat;
  const digest = createHash('sha256').update(flat).digest('hex').slice(0, 8);
  return `${flat.slice(0, MAX_LINEAGE - 9)}#${digest}`;
}

/** `tenant-scan <lineage> <time> replaces <prefix>`: the next run knows the key and its
 *  predecessor by it. Within the seed's 255 characters whatever the lineage. */
export function keyName(lineage: string, atMs: number, replacesPrefix: string): string {
  const time = new Date(Math.floor(atMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const base = `${NAME_PREFIX} ${fitLineage(lineage)} ${time}`;
  const withPredecessor = `${base} replaces ${replacesPrefix.replace(/\s+/g, '')}`;
  return withPredecessor.length <= MAX_KEY_NAME ? withPredecessor : base;
}

export function parseKeyName(name: string): ParsedName | undefined {
  const found = NAME.exec(name);
  if (!found) return undefined;
  const namedAtMs = Date.parse(found[2] ?? '');
  if (!Number.isFinite(namedAtMs)) return undefined;
  return { lineage: found[1] ?? '', namedAtMs, ...(found[3] ? { replaces: found[3] } : {}) };
}

/** Whether a listed keyPrefix (`first12...last4`, or with an ellipsis character) fits this key. */
export function prefixMatches(keyPrefix: string, key: string): boolean {
  const found = /^(.+?)(?:\.\.\.|…)(.+)$/.exec(keyPrefix.trim());
  if (!found) return false;
  const [, head = '', tail = ''] = found;
  return head.length >= 8 && tail.length >= 2 && key.startsWith(head) && key.endsWith(tail);
}

/** The seed's keyPrefix of a full key: the first 12 characters, three dots, the last 4. */
export function prefixOf(key: string): string {
  return `${key.slice(0, 12)}...${key.slice(-4)}`;
}

function createdMs(key: KeyInfo): number {
  const ms = Date.parse(key.createdAt);
  return Number.isFinite(ms) ? ms : Number.NaN;
}

/** Keys of this lineage that we can show are ours: the name parses, names this lineage, and its
 *  time agrees with the service's createdAt. Oldest first. */
export function lineageKeys(keys: readonly KeyInfo[], lineage: string): KeyInfo[] {
  const wanted = fitLineage(lineage);
  return keys
    .filter((key) => {
      const parsed = parseKeyName(key.name);
      const created = createdMs(key);
      return (
        parsed?.lineage === wanted &&
        Number.isFinite(created) &&
        Math.abs(parsed.namedAtMs - created) <= NAME_TIME_TOLERANCE_MS
      );
    })
    .sort((a, b) => createdMs(a) - createdMs(b) || a.id.localeCompare(b.id));
}

/** The listed key that is `apiKey`; undefined when none or more than one fit. */
export function findKeyInUse(keys: readonly KeyInfo[], apiKey: string): KeyInfo | undefined {
  const fits = keys.filter((key) => prefixMatches(key.keyPrefix, apiKey));
  return fits.length === 1 ? fits[0] : undefined;
}

export interface Replacement {
  key: KeyInfo;
  /** When its successor was created (service clock, ms). */
  replacedAtMs: number;
  /** Made by this lineage (else the key it started from, e.g. the dashboard's). */
  ours: boolean;
}

/** Every key of the list that has been replaced: each lineage key by the next one; a key outside
 *  the lineage only when exactly one listed key has its prefix and a lineage key names it. */
export function replacements(keys: readonly KeyInfo[], lineage: string): Replacement[] {
  const ours = lineageKeys(keys, lineage);
  const found: Replacement[] = [];
  ours.forEach((key, i) => {
    const next = ours[i + 1];
    if (next) found.push({ key, replacedAtMs: createdMs(next), ours: true });
  });
  const ourIds = new Set(ours.map((k) => k.id));
  for (const other of keys.filter((k) => !ourIds.has(k.id))) {
    const sameprefix = keys.filter((k) => k.keyPrefix === other.keyPrefix);
    const successors = ours.filter((k) => parseKeyName(k.name)?.replaces === other.keyPrefix);
    if (sameprefix.length !== 1 || successors.length === 0) continue;
    const first = successors.reduce((earliest, k) => Math.min(earliest, createdMs(k)), Infinity);
    found.push({ key: other, replacedAtMs: first, ours: false });
  }
  return found;
}

export interface RevocationPolicy {
  lineage: string;
  graceMs: number;
  revokeReplaced: boolean;
  /** The service's clock now, ms. */
  nowMs: number;
  /** Never deleted whatever their age (the key in use before the store, the new key after). */
  protect: ReadonlySet<string>;
}

/** The keys that may go now: replaced more than the grace ago, ours or (with revokeReplaced) the
 *  key the lineage started from; never a protected one. Oldest replacement first. */
export function revocable(keys: readonly KeyInfo[], policy: RevocationPolicy): Replacement[] {
  return replacements(keys, policy.lineage)
    .filter((r) => r.ours || policy.revokeReplaced)
    .filter((r) => !policy.protect.has(r.key.id))
    .filter((r) => r.replacedAtMs + policy.graceMs <= policy.nowMs)
    .sort((a, b) => a.replacedAtMs - b.replacedAtMs);
}

/** Keys that must not go before the new key is stored: the key in use and every key created after
 *  it (a newer key may be the one the store holds when this run is a re-run of an older job). */
export function protectedBeforeStore(keys: readonly KeyInfo[], inUse: KeyInfo): Set<string> {
  const from = createdMs(inUse);
  return new Set(keys.filter((k) => k.id === inUse.id || !(createdMs(k) < from)).map((k) => k.id));
}

export interface UnstoredPolicy {
  lineage: string;
  /** The key the job holds: never counted as unstored. */
  inUse: KeyInfo;
  /** The service's clock now, ms. */
  nowMs: number;
  /** How long ago the store was last written, measured on the store's clock. */
  lastWriteAgoMs: number;
}

/** Lineage keys made after the store was last written, so not stored: a rotation writes its key
 *  after creating it. Younger than the last write by the margin; never the key in use. `settled`:
 *  no rotation running now may still write them (UNSTORED_AFTER_MS old), so never stored; `recent`:
 *  a rotation may be writing one now, or was stopped moments ago. Oldest first. */
export function unstoredKeys(
  keys: readonly KeyInfo[],
  policy: UnstoredPolicy,
): { settled: KeyInfo[]; recent: KeyInfo[] } {
  const notStored = lineageKeys(keys, policy.lineage).filter((key) => {
    const ageMs = policy.nowMs - createdMs(key);
    return key.id !== policy.inUse.id && ageMs + LAST_WRITE_MARGIN_MS < policy.lastWriteAgoMs;
  });
  const settled = (key: KeyInfo) => policy.nowMs - createdMs(key) >= UNSTORED_AFTER_MS;
  return {
    settled: notStored.filter(settled),
    recent: notStored.filter((key) => !settled(key)),
  };
}

/** "name (prefix)" for a line that names keys; never more than `max` of them. */
export function describeKeys(keys: readonly KeyInfo[], max = 10): string {
  const shown = keys.slice(0, max).map((k) => `${JSON.stringify(k.name)} (${k.keyPrefix})`);
  const more = keys.length > max ? ` and ${keys.length - max} more` : '';
  return `${shown.join(', ')}${more}`;
}
