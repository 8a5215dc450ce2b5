// The rotation of the key a CI job holds, over the seed's key routes only: find the key in use,
// make room, create, prove, store, then delete what the grace lets go. Invariant: whatever fails or
// is killed, the store holds a key that works — nothing the store may hold is deleted before the
// new key is proven stored, and a new key the store may hold is never deleted (rules.ts).

import { AuthenticationError } from '../../client/index.js';
import type { ApiKey, CreatedApiKey } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import { unchanged, type RotationDeps, type RotationSettings, type Run } from './context.js';
import { DASHBOARD_HINT, RotationError, detail, isScopeRefusal } from './failure.js';
import { describeKeys, findKeyInUse, keyName, prefixOf, type KeyInfo } from './plan.js';
import { dryRunResult, keptKeys, type KeyRef, type RotationResult } from './result.js';
import { deleteKeys, makeRoom } from './room.js';
import { revocable, serviceClock, staleInUse } from './rules.js';
import { abandon, storeKey, type Stored } from './write.js';

export type { KeyRef, RotationResult } from './result.js';
export type { RotationDeps, RotationSettings } from './context.js';
export { DASHBOARD_HINT, RotationError, type RotationStep } from './failure.js';

async function findInUse(deps: RotationDeps, apiKey: string) {
  let keys: ApiKey[];
  try {
    keys = await deps.client.apiKeys.list({ signal: deps.signal });
  } catch (error) {
    const kind = error instanceof AuthenticationError ? 'user' : 'failure';
    throw new RotationError('find the key in use', kind, `${detail(error)}; nothing changed`);
  }
  const inUse = findKeyInUse(keys, apiKey);
  if (!inUse) {
    throw new RotationError(
      'find the key in use',
      'user',
      `no single key of the list has the prefix ${prefixOf(apiKey)}; nothing changed`,
    );
  }
  return { keys, inUse };
}

/** Deletes the keys named `name` that a create whose answer was lost may have made: the store
 *  never saw them, so nothing can hold them. */
async function removeLostCreates(run: Run, name: string): Promise<void> {
  const { deps } = run;
  try {
    const keys = await deps.client.apiKeys.list({ signal: deps.signal });
    for (const key of keys.filter((k) => k.name === name)) {
      await deps.client.apiKeys.delete(key.id, { signal: deps.signal });
      deps.log(`Deleted key ${key.keyPrefix}, made by a create whose answer was lost`);
    }
  } catch (error) {
    deps.log(`Could not look for a key made by the failed create: ${oneLine(detail(error))}`);
  }
}

async function createKey(run: Run, name: string): Promise<CreatedApiKey> {
  const { deps } = run;
  let created: CreatedApiKey;
  try {
    created = await deps.client.apiKeys.create({ name }, { signal: deps.signal });
  } catch (error) {
    if (isScopeRefusal(error))
      throw new RotationError('create the new key', 'user', `${DASHBOARD_HINT}; ${unchanged(run)}`);
    await removeLostCreates(run, name);
    throw new RotationError('create the new key', 'failure', `${detail(error)}; ${unchanged(run)}`);
  }
  deps.mask(created.key);
  deps.log(`Created key ${created.keyPrefix} (${name})`);
  return created;
}

async function verify(deps: RotationDeps, created: CreatedApiKey, inUse: KeyInfo) {
  const probe = deps.openClient(created.key);
  try {
    const seen = await probe.apiKeys.list({ signal: deps.signal });
    const ids = new Set(seen.map((k) => k.id));
    if (!ids.has(created.id) || !ids.has(inUse.id)) {
      return 'the new key does not answer for the same tenant';
    }
    return undefined;
  } catch (error) {
    return `a read with the new key failed: ${detail(error)}`;
  } finally {
    await probe.close().catch(() => undefined);
  }
}

/** The job holds a key a later key of the lineage replaced more than the grace ago: say so. */
function warnStale(run: Run, keys: readonly KeyInfo[]): void {
  const { deps, settings, inUse } = run;
  const gone = new Set(run.deleted.map((k) => k.id));
  const left = keys.filter((k) => !gone.has(k.id));
  const nowMs = serviceClock(deps.client, left);
  const stale = staleInUse(left, { ...settings, nowMs, inUse });
  if (stale.length === 0) return;
  deps.log(
    `The key in use ${inUse.keyPrefix} was followed by ${describeKeys(stale)} more than the grace ago: the ${deps.store.description} did not take that key (a store that exits 0 without storing?), or this job is a re-run of an older one; ${inUse.keyPrefix} is kept`,
  );
}

export async function rotateKey(
  settings: RotationSettings,
  deps: RotationDeps,
): Promise<RotationResult> {
  const { keys, inUse } = await findInUse(deps, settings.apiKey);
  const run: Run = { deps, settings, inUse, deleted: [] };
  try {
    await deps.store.prepare(deps.signal);
  } catch (error) {
    throw new RotationError('prepare the store', 'user', `${detail(error)}; nothing changed`);
  }
  const room = await makeRoom(run, keys);
  const nowMs = serviceClock(deps.client, keys);
  const name = keyName(settings.lineage, nowMs, inUse.keyPrefix, room.version);
  if (settings.dryRun) {
    const proven = deps.store.writeProves || deps.store.readHeld !== undefined;
    return dryRunResult(settings, keys, inUse, { name, nowMs, proven }, room.plan);
  }
  warnStale(run, keys);

  const askedAt = performance.now();
  const created = await createKey(run, name);
  const failed = await verify(deps, created, inUse);
  if (failed) await abandon(run, 'verify the new key', created, failed);
  const stored = await storeKey(run, created, askedAt, keys);
  const revoked = [...run.deleted, ...(await revokeReplaced(run, created, stored))];
  const gone = new Set(revoked.map((k) => k.id));
  return {
    keyId: created.id,
    keyPrefix: created.keyPrefix,
    keyName: name,
    stored,
    revoked,
    kept: keptKeys(keys, settings.lineage, inUse, gone),
    dryRun: false,
  };
}

/** After the store: every key whose grace has passed, except the new one. */
async function revokeReplaced(run: Run, created: CreatedApiKey, stored: Stored): Promise<KeyRef[]> {
  const { deps, settings, inUse } = run;
  let keys: ApiKey[];
  try {
    keys = await deps.client.apiKeys.list({ signal: deps.signal });
  } catch (error) {
    deps.log(`Could not list the keys to delete replaced ones: ${oneLine(detail(error))}`);
    return [];
  }
  const newKey = keys.find((k) => k.id === created.id);
  const doomed = revocable(keys, {
    ...settings,
    nowMs: serviceClock(deps.client, keys),
    inUse,
    ...(stored === 'proven' && newKey ? { provenNew: newKey } : {}),
  })
    .map((r) => r.key)
    .filter((k) => k.id !== created.id);
  return deleteKeys(
    { ...run, deleted: [] },
    doomed,
    'delete replaced keys',
    `the new key ${created.keyPrefix} ${stored === 'proven' ? 'is stored and works' : `was taken by the ${deps.store.description} (exit 0)`}, but the service refuses deletes by key (403 AUTH_INSUFFICIENT_SCOPE): delete ${describeKeys(doomed)} in the dashboard (Settings, API Keys)`,
  );
}
