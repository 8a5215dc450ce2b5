// Making room before the create: the keys the store never held go first (a store that can tell,
// unstored.ts); then, at the service's 10 keys, keys older than the key in use whose grace has
// passed (rules.ts). A key never stored that is younger than 30 minutes, or one that cannot be
// deleted, stops the run: another would make two.

import type { ApiKey } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import type { Run } from './context.js';
import {
  DASHBOARD_HINT,
  RotationError,
  detail,
  isScopeRefusal,
  type RotationStep,
} from './failure.js';
import { MAX_ACTIVE_KEYS, describeKeys, type KeyInfo } from './plan.js';
import { ref, type KeyRef } from './result.js';
import { newerThanInUse, revocable, serviceClock } from './rules.js';
import { findUnstored, recentLine } from './unstored.js';

/** Deletes `doomed` one by one; a 403 for scope stops the run with `refusedLine`. */
export async function deleteKeys(
  run: Run,
  doomed: readonly KeyInfo[],
  step: RotationStep,
  refusedLine = DASHBOARD_HINT,
): Promise<KeyRef[]> {
  const { deps } = run;
  const done: KeyRef[] = [];
  for (const key of doomed) {
    try {
      await deps.client.apiKeys.delete(key.id, { signal: deps.signal });
      deps.log(`Deleted key ${key.keyPrefix} (${key.name})`);
      done.push(ref(key));
      run.deleted.push(ref(key));
    } catch (error) {
      if (isScopeRefusal(error)) throw new RotationError(step, 'user', refusedLine);
      deps.log(`Could not delete key ${key.keyPrefix}: ${oneLine(detail(error))}`);
    }
  }
  return done;
}

/** The line when the cap is full and nothing may go: the keys, and what clears it. */
function capLine(run: Run, keys: readonly KeyInfo[]): string {
  const newer = newerThanInUse(keys, run.settings.lineage, run.inUse);
  const base = `the tenant has ${keys.length} keys (at most ${MAX_ACTIVE_KEYS}) and none may go: ${describeKeys(keys)}`;
  const clear =
    'delete one in the dashboard (Settings, API Keys) or with tenant-scan keys delete <id>';
  if (newer.length === 0) return `${base}; ${clear}; nothing changed`;
  const ids = newer.map((k) => k.id).join(', ');
  return `${base}; ${describeKeys(newer)} were made by this lineage after the key in use ${run.inUse.keyPrefix}, and the ${run.deps.store.description} cannot tell whether it holds one of them (this job may be a re-run of an older one) or none (runs stopped before their store): if it holds ${run.inUse.keyPrefix}, they were never stored — delete them with tenant-scan keys delete <id> (${ids}); else ${clear}; nothing changed`;
}

export interface Room {
  /** The keys it would delete (a dry run), or deleted. */
  plan: KeyInfo[];
  /** The store's version, for the new key's name. */
  version?: string;
}

export async function makeRoom(run: Run, keys: ApiKey[]): Promise<Room> {
  const { deps, settings, inUse } = run;
  const found = await findUnstored(deps, settings.lineage, keys, inUse);
  if ('stop' in found) throw new RotationError('make room', 'failure', found.stop);
  // one key not stored yet: another would make two, and a rotation may be storing it now
  if (found.recent.length > 0)
    throw new RotationError('make room', 'user', recentLine(found.recent, deps.store));
  const unstored = found.settled;
  const unstoredIds = new Set(unstored.map((k) => k.id));
  const replaced =
    keys.length - unstored.length < MAX_ACTIVE_KEYS
      ? []
      : revocable(keys, { ...settings, nowMs: serviceClock(deps.client, keys), inUse })
          .map((r) => r.key)
          .filter((k) => !unstoredIds.has(k.id));
  const plan = [...unstored, ...replaced];
  const version = found.version === undefined ? {} : { version: found.version };
  if (keys.length - plan.length >= MAX_ACTIVE_KEYS)
    throw new RotationError('make room', 'user', capLine(run, keys));
  if (settings.dryRun) return { plan, ...version };
  const gone = new Set((await deleteKeys(run, plan, 'make room')).map((k) => k.id));
  const stuck = unstored.filter((k) => !gone.has(k.id));
  const deletedNote =
    run.deleted.length > 0 ? `; it deleted ${run.deleted.map((k) => k.keyPrefix).join(', ')}` : '';
  if (stuck.length > 0) {
    // another unstored key now would make two: the next run tries again
    throw new RotationError(
      'make room',
      'failure',
      `the key ${describeKeys(stuck)} was never stored and could not be deleted; nothing was created${deletedNote}`,
    );
  }
  if (keys.length - gone.size >= MAX_ACTIVE_KEYS) {
    throw new RotationError(
      'make room',
      'failure',
      `not enough keys could be deleted to stay under ${MAX_ACTIVE_KEYS}; nothing was created${deletedNote}`,
    );
  }
  return { plan, ...version };
}
