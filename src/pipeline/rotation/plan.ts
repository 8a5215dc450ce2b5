// How a key this project made is named and recognised, and which key is the one in use (the rules
// of what may go, and when, are rules.ts's). Times are the service's clock (keys' createdAt and the
// Date of its answers), never the runner's.

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

const NAME_PREFIX = 'tenant-scan';
const ISO = String.raw`\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z`;
const NAME = new RegExp(`^${NAME_PREFIX} (.+?) (${ISO})(?: replaces (\\S+))?(?: after (\\S+))?$`);
/** What a store's version may look like to go in a name: a GitHub secret's updated_at, `none`. */
const VERSION = /^[\w:.+-]{1,40}$/;

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
  /** The store's version (when it was last written) the run that made it saw before its create:
   *  while the store still has that version, the key was never stored. */
  after?: string;
}

/** The lineage as it appears in names: one line, at most MAX_LINEAGE characters. */
export function fitLineage(lineage: string): string {
  const flat = lineage.replace(/\s+/g, ' ').trim();
  if (flat.length <= MAX_LINEAGE) return flat;
  const digest = createHash('sha256').update(flat).digest('hex').slice(0, 8);
  return `${flat.slice(0, MAX_LINEAGE - 9)}#${digest}`;
}

/** `tenant-scan <lineage> <time> replaces <prefix> after <version>`: the next run knows the key,
 *  its predecessor and the store's version before it by it. Within the seed's 255 characters
 *  whatever the lineage (the predecessor goes first, then the version: without it the key is
 *  never taken for one never stored). */
export function keyName(
  lineage: string,
  atMs: number,
  replacesPrefix: string,
  storeVersion?: string,
): string {
  const time = new Date(Math.floor(atMs / 1000) * 1000).toISOString().replace('.000Z', 'Z');
  const base = `${NAME_PREFIX} ${fitLineage(lineage)} ${time}`;
  const withPredecessor = `${base} replaces ${replacesPrefix.replace(/\s+/g, '')}`;
  if (withPredecessor.length > MAX_KEY_NAME) return base;
  const version = storeVersion !== undefined && VERSION.test(storeVersion) ? storeVersion : '';
  const withVersion = `${withPredecessor} after ${version}`;
  return version !== '' && withVersion.length <= MAX_KEY_NAME ? withVersion : withPredecessor;
}

export function parseKeyName(name: string): ParsedName | undefined {
  const found = NAME.exec(name);
  if (!found) return undefined;
  const namedAtMs = Date.parse(found[2] ?? '');
  if (!Number.isFinite(namedAtMs)) return undefined;
  return {
    lineage: found[1] ?? '',
    namedAtMs,
    ...(found[3] ? { replaces: found[3] } : {}),
    ...(found[4] ? { after: found[4] } : {}),
  };
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

export function createdMs(key: KeyInfo): number {
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

/** "name (prefix)" for a line that names keys; never more than `max` of them. */
export function describeKeys(keys: readonly KeyInfo[], max = 10): string {
  const shown = keys.slice(0, max).map((k) => `${JSON.stringify(k.name)} (${k.keyPrefix})`);
  const more = keys.length > max ? ` and ${keys.length - max} more` : '';
  return `${shown.join(', ')}${more}`;
}
