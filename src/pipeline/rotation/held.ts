// The key a store holds, for a store that can read it back (the CLI's --store-read-command). Before
// the create it bounds the store's last write: the store holds that key, so it was written after
// the key was made, and a lineage key made after it that it does not hold was never stored (or was
// overwritten by an overlapping rotation, which `concurrency` prevents). After the store it proves
// the write took. The value is a secret: masked at once, compared in memory, never shown.

import { oneLine } from '../common/errors.js';
import { findKeyInUse, type KeyInfo } from './plan.js';
import type { KeyStore } from './store.js';

export interface HeldDeps {
  store: KeyStore;
  mask(secret: string): void;
  log(line: string): void;
  signal?: AbortSignal;
}

const GRACE_KEPT = 'keys never stored go after the grace';

function detail(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** The listed key the store holds; undefined (with one line) when it cannot be read or is not one
 *  of the tenant's active keys: then nothing is deleted early. */
export async function readHeldKey(
  deps: HeldDeps,
  keys: readonly KeyInfo[],
): Promise<KeyInfo | undefined> {
  if (!deps.store.readHeld) return undefined;
  let value: string;
  try {
    value = await deps.store.readHeld(deps.signal);
  } catch (error) {
    deps.log(
      `Could not read the key the ${deps.store.description} holds (${detail(error)}): ${GRACE_KEPT}`,
    );
    return undefined;
  }
  deps.mask(value);
  const held = findKeyInUse(keys, value);
  if (!held) {
    deps.log(
      `The key the ${deps.store.description} holds is not one of the tenant's active keys: ${GRACE_KEPT}`,
    );
  }
  return held;
}

/** After a write that answered success: whether the store now holds `key` ('other': it holds
 *  another of the tenant's `keys`), or why that cannot be told. Only what is sure is 'other': a
 *  value that is neither (a read printing the key in another form) may be the new key. */
export async function readBack(
  deps: HeldDeps,
  key: string,
  keys: readonly KeyInfo[],
): Promise<'holds' | 'other' | 'unknown' | { failed: string }> {
  if (!deps.store.readHeld) return 'unknown';
  let value: string;
  try {
    value = await deps.store.readHeld(deps.signal);
  } catch (error) {
    return { failed: detail(error) };
  }
  if (value === key) return 'holds';
  deps.mask(value);
  if (findKeyInUse(keys, value)) return 'other';
  return { failed: "it printed neither the new key nor another of the tenant's keys" };
}
