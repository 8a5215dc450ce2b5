// Keys the store never held: a store that tells its version (a GitHub secret's updated_at, put in
// every new key's name) or which key it holds (the CLI's --store-read-command, held.ts) lets the
// next rotation delete the key a run killed before its store left, at once rather than after the
// grace. A store that cannot tell keeps the grace (rules.ts). No clock of the store's is compared
// with one of the service's: a version is compared with a version, createdAt with createdAt.

import type { ApiKey, TenantClient } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import { readHeldKey, type HeldDeps } from './held.js';
import { UNSTORED_AFTER_MS, describeKeys, type KeyInfo } from './plan.js';
import { newerThanInUse, serviceClock, unstoredKeys, type NeverStored } from './rules.js';
import type { KeyStore } from './store.js';

export interface UnstoredDeps extends HeldDeps {
  client: TenantClient;
  store: KeyStore;
}

/** The keys never stored, and the store's version for the new key's name; or why the run must
 *  stop before its create (a key it cannot judge would make two unstored keys). */
export type Unstored = (NeverStored & { version?: string }) | { stop: string };

const NONE = { settled: [], recent: [] };

function detail(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

export async function findUnstored(
  deps: UnstoredDeps,
  lineage: string,
  keys: ApiKey[],
  inUse: KeyInfo,
): Promise<Unstored> {
  const nowMs = serviceClock(deps.client, keys);
  const where = deps.store.description;
  if (deps.store.version) {
    let version: string;
    try {
      version = await deps.store.version(deps.signal);
    } catch (error) {
      return {
        stop: `could not read when the ${where} was last written (${detail(error)}): a key a stopped run left could not be told from one stored; nothing changed; the next run tries again`,
      };
    }
    const found = unstoredKeys(keys, lineage, inUse, { version }, nowMs);
    for (const key of found.settled)
      deps.log(
        `Key ${key.keyPrefix} (${key.name}) was made after the ${where} was last written (${version}), and it was not written since: it was never stored`,
      );
    return { ...found, version };
  }
  if (!deps.store.readHeld) return NONE;
  const read = await readHeldKey(deps, keys);
  if ('unknown' in read) {
    const unsure = newerThanInUse(keys, lineage, inUse);
    if (unsure.length === 0) {
      deps.log(
        `${read.unknown[0]?.toUpperCase()}${read.unknown.slice(1)}: no key of this lineage is newer than the key in use, so none can be one never stored`,
      );
      return NONE;
    }
    return {
      stop: `${read.unknown}, so whether it holds ${describeKeys(unsure)} (made by this lineage after the key in use) cannot be told; nothing changed; run again once the store read command prints the key the store holds`,
    };
  }
  const found = unstoredKeys(keys, lineage, inUse, { held: read.held }, nowMs);
  for (const key of found.settled)
    deps.log(
      `Key ${key.keyPrefix} (${key.name}) was made after the key the ${where} holds (${read.held.keyPrefix}): it was never stored`,
    );
  return found;
}

/** Why a run stops when a key not stored is younger than UNSTORED_AFTER_MS. */
export function recentLine(recent: readonly KeyInfo[], store: KeyStore): string {
  const minutes = UNSTORED_AFTER_MS / 60_000;
  const after = store.version
    ? `the ${store.description} was last written`
    : `the key the ${store.description} holds`;
  return `the key ${describeKeys(recent)} was made after ${after}, less than ${minutes} minutes ago: another rotation may be storing it, or one was stopped before its store (its key is deleted by the next run once ${minutes} minutes old); run again later; nothing changed`;
}
