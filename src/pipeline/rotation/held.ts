// The key a store holds, for a store that can read it back (the CLI's --store-read-command). Before
// the create it tells which keys were never stored: the store holds that key, so it was written
// after the key was made, and a lineage key made after it was never written there (unless an
// overlapping rotation overwrote it, which `concurrency` prevents). After the store it proves the
// write took. The value is a secret: masked at once, compared in memory, never shown.

import { oneLine } from '../common/errors.js';
import { findKeyInUse, type KeyInfo } from './plan.js';
import type { KeyStore } from './store.js';

export interface HeldDeps {
  store: KeyStore;
  mask(secret: string): void;
  log(line: string): void;
  signal?: AbortSignal;
}

function detail(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** The listed key the store holds, or why it cannot be told. */
export async function readHeldKey(
  deps: HeldDeps,
  keys: readonly KeyInfo[],
): Promise<{ held: KeyInfo } | { unknown: string }> {
  if (!deps.store.readHeld) return { unknown: 'the store cannot be read' };
  let value: string;
  try {
    value = await deps.store.readHeld(deps.signal);
  } catch (error) {
    return {
      unknown: `could not read the key the ${deps.store.description} holds (${detail(error)})`,
    };
  }
  deps.mask(value);
  const held = findKeyInUse(keys, value);
  return held
    ? { held }
    : {
        unknown: `the key the ${deps.store.description} holds is not one of the tenant's active keys`,
      };
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
