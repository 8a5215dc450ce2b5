// Keys the store never held: a store that tells when it was last written (a GitHub secret's
// updated_at) lets the next rotation delete the key a run killed before its store left, at once
// rather than after the grace. The ages compared are each read on one clock (plan.ts).

import type { ApiKey, TenantClient } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import { UNSTORED_AFTER_MS, describeKeys, unstoredKeys, type KeyInfo } from './plan.js';
import { serviceNow } from './service-clock.js';
import type { KeyStore, LastWrite } from './store.js';

export interface UnstoredDeps {
  client: TenantClient;
  store: KeyStore;
  log(line: string): void;
  signal?: AbortSignal;
}

const NONE = { settled: [], recent: [] };

/** The lineage keys the store does not hold (it tells when it was last written), else none:
 *  `settled` were never stored, `recent` may be being stored by a rotation running now. */
export async function findUnstored(
  deps: UnstoredDeps,
  lineage: string,
  keys: ApiKey[],
  inUse: KeyInfo,
): Promise<{ settled: KeyInfo[]; recent: KeyInfo[] }> {
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

/** Why a run stops when a key not stored is younger than UNSTORED_AFTER_MS. */
export function recentLine(recent: readonly KeyInfo[], deps: Pick<UnstoredDeps, 'store'>): string {
  const minutes = UNSTORED_AFTER_MS / 60_000;
  return `the key ${describeKeys(recent)} was made after the ${deps.store.description} was last written, less than ${minutes} minutes ago: another rotation may be storing it, or one was stopped before its store (its key is deleted by the next run once ${minutes} minutes old); run again later; nothing changed`;
}
