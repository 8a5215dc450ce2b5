// Keys the store never held: a store that tells when it was last written (a GitHub secret's
// updated_at), or which key it holds (the CLI's --store-read-command: its createdAt bounds the
// last write, held.ts), lets the next rotation delete the key a run killed before its store left,
// at once rather than after the grace. The ages compared are each read on one clock (plan.ts).

import type { ApiKey, TenantClient } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import { readHeldKey, type HeldDeps } from './held.js';
import { UNSTORED_AFTER_MS, describeKeys, unstoredKeys, type KeyInfo } from './plan.js';
import { serviceNow } from './service-clock.js';
import type { KeyStore, LastWrite } from './store.js';

export interface UnstoredDeps extends HeldDeps {
  client: TenantClient;
  store: KeyStore;
}

const NONE = { settled: [], recent: [] };

type Unstored = { settled: KeyInfo[]; recent: KeyInfo[] };

/** The lineage keys the store does not hold (it tells when it was last written, or which key it
 *  holds), else none: `settled` were never stored, `recent` may be being stored by a rotation
 *  running now. */
export async function findUnstored(
  deps: UnstoredDeps,
  lineage: string,
  keys: ApiKey[],
  inUse: KeyInfo,
): Promise<Unstored> {
  if (!deps.store.lastWritten) return afterHeldKey(deps, lineage, keys, inUse);
  const policy = () => ({ lineage, inUse, nowMs: serviceNow(deps.client) });
  // without the service's Date its keys' ages are unknown: keep the grace
  if (!deps.store.lastWritten || !deps.client.serverTime?.()) return NONE;
  const anyNewer = unstoredKeys(keys, { ...policy(), lastWriteAgoMs: Infinity });
  if (anyNewer.settled.length + anyNewer.recent.length === 0) return NONE;
  let written: LastWrite;
  try {
    written = await deps.store.lastWritten(deps.signal);
  } catch (error) {
    deps.log(
      `Could not read when the ${deps.store.description} was last written (${oneLine(error instanceof Error ? error.message : String(error))}): keys never stored go after the grace`,
    );
    return NONE;
  }
  const lastWriteAgoMs = written.agoMs + (Date.now() - written.observedAtLocalMs);
  const found = unstoredKeys(keys, { ...policy(), lastWriteAgoMs });
  for (const key of found.settled) {
    deps.log(
      `Key ${key.keyPrefix} (${key.name}) was made after the ${deps.store.description} was last written: it was never stored`,
    );
  }
  return found;
}

/** For a store that tells which key it holds: the lineage keys made after that key (the store was
 *  written after it was made), but that key and the key in use. Run before anything is created,
 *  whatever the keys, so a read that does not work is said at once. */
async function afterHeldKey(
  deps: UnstoredDeps,
  lineage: string,
  keys: ApiKey[],
  inUse: KeyInfo,
): Promise<Unstored> {
  const held = await readHeldKey(deps, keys);
  const heldMs = Date.parse(held?.createdAt ?? '');
  // without the service's Date its keys' ages are unknown: keep the grace
  if (!held || !Number.isFinite(heldMs) || !deps.client.serverTime?.()) return NONE;
  const nowMs = serviceNow(deps.client);
  const others = keys.filter((k) => k.id !== held.id);
  const found = unstoredKeys(others, { lineage, inUse, nowMs, lastWriteAgoMs: nowMs - heldMs });
  for (const key of found.settled) {
    deps.log(
      `Key ${key.keyPrefix} (${key.name}) was made after the key the ${deps.store.description} holds (${held.keyPrefix}): it was never stored`,
    );
  }
  return found;
}

/** Why a run stops when a key not stored is younger than UNSTORED_AFTER_MS. */
export function recentLine(recent: readonly KeyInfo[], deps: Pick<UnstoredDeps, 'store'>): string {
  const minutes = UNSTORED_AFTER_MS / 60_000;
  const after = deps.store.lastWritten
    ? `the ${deps.store.description} was last written`
    : `the key the ${deps.store.description} holds`;
  return `the key ${describeKeys(recent)} was made after ${after}, less than ${minutes} minutes ago: another rotation may be storing it, or one was stopped before its store (its key is deleted by the next run once ${minutes} minutes old); run again later; nothing changed`;
}
