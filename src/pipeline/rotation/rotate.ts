// The rotation of the key a CI job holds, over the seed's key routes only: find the key in use,
// make room, create, prove, store, then delete what the grace lets go. Invariant: whatever fails or
// is killed, the store holds a key that works — nothing the store may hold is deleted before the
// new key is stored, and a new key the store may hold is never deleted.

import { AuthenticationError, PermissionError, TenantApiError } from '../../client/index.js';
import type { ApiKey, CreatedApiKey, TenantClient } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import {
  MAX_ACTIVE_KEYS,
  STORE_DEADLINE_MS,
  describeKeys,
  findKeyInUse,
  keyName,
  prefixOf,
  protectedBeforeStore,
  revocable,
  type KeyInfo,
} from './plan.js';
import { dryRunResult, keptKeys, ref, type KeyRef, type RotationResult } from './result.js';
import { serviceNow } from './service-clock.js';
import { StoreError, type KeyStore } from './store.js';
import { readBack } from './held.js';
import { findUnstored, recentLine } from './unstored.js';

export type { KeyRef, RotationResult } from './result.js';

export type RotationStep =
  | 'find the key in use'
  | 'prepare the store'
  | 'make room'
  | 'create the new key'
  | 'verify the new key'
  | 'store the new key'
  | 'delete replaced keys';

export const DASHBOARD_HINT =
  'this service does not let a key manage keys (403 AUTH_INSUFFICIENT_SCOPE): rotate the key in the dashboard (Settings, API Keys)';

/** One line: which step failed, and what state the keys and the store are in. */
export class RotationError extends Error {
  readonly step: RotationStep;
  readonly kind: 'user' | 'failure';
  constructor(step: RotationStep, kind: 'user' | 'failure', detail: string) {
    super(`Rotation failed at ${step}: ${oneLine(detail).replace(/\.$/, '')}`);
    this.name = 'RotationError';
    this.step = step;
    this.kind = kind;
  }
}

export interface RotationSettings {
  /** The key the job holds (what the store holds now). */
  apiKey: string;
  lineage: string;
  graceMs: number;
  revokeReplaced: boolean;
  dryRun: boolean;
}

export interface RotationDeps {
  client: TenantClient;
  /** A client that presents another key, same address and settings. */
  openClient(apiKey: string): TenantClient;
  store: KeyStore;
  /** Called with the new key the moment it exists (mask it in logs, redact it in errors). */
  mask(secret: string): void;
  /** Progress lines (never the key). */
  log(line: string): void;
  signal?: AbortSignal;
  /** Tests only: a shorter STORE_DEADLINE_MS (a shorter one is safe, a longer one is not). */
  storeDeadlineMs?: number;
}

const NOTHING_CHANGED = (inUse: KeyInfo) =>
  `nothing changed: the stored key ${inUse.keyPrefix} still works`;

function isScopeRefusal(error: unknown): boolean {
  return (
    error instanceof PermissionError ||
    (error instanceof TenantApiError && error.code === 'AUTH_INSUFFICIENT_SCOPE')
  );
}

function detail(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

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

async function deleteKeys(
  deps: RotationDeps,
  doomed: readonly KeyInfo[],
  step: RotationStep,
  refusedLine = DASHBOARD_HINT,
): Promise<KeyRef[]> {
  const done: KeyRef[] = [];
  for (const key of doomed) {
    try {
      await deps.client.apiKeys.delete(key.id, { signal: deps.signal });
      deps.log(`Deleted key ${key.keyPrefix} (${key.name})`);
      done.push(ref(key));
    } catch (error) {
      if (isScopeRefusal(error)) throw new RotationError(step, 'user', refusedLine);
      deps.log(`Could not delete key ${key.keyPrefix}: ${oneLine(detail(error))}`);
    }
  }
  return done;
}

/** Deletes the keys the store never held and, at the cap, the keys that may go and were made
 *  before the key in use. */
async function makeRoom(
  deps: RotationDeps,
  settings: RotationSettings,
  keys: ApiKey[],
  inUse: KeyInfo,
): Promise<{ deleted: KeyRef[]; plan: KeyInfo[] }> {
  const { settled: unstored, recent } = await findUnstored(deps, settings.lineage, keys, inUse);
  // one key not stored yet: another would make two, and a rotation may be storing it now
  if (recent.length > 0) throw new RotationError('make room', 'user', recentLine(recent, deps));
  const unstoredIds = new Set(unstored.map((k) => k.id));
  const replaced =
    keys.length - unstored.length < MAX_ACTIVE_KEYS
      ? []
      : revocable(keys, {
          ...settings,
          nowMs: serviceNow(deps.client),
          protect: protectedBeforeStore(keys, inUse),
        }).filter((r) => !unstoredIds.has(r.key.id));
  const plan = [...unstored, ...replaced.map((r) => r.key)];
  if (keys.length - plan.length >= MAX_ACTIVE_KEYS) {
    throw new RotationError(
      'make room',
      'user',
      `the tenant has ${keys.length} keys (at most ${MAX_ACTIVE_KEYS}) and none may go: ${describeKeys(keys)}; delete one in the dashboard (Settings, API Keys) or with tenant-scan keys delete <id>; nothing changed`,
    );
  }
  if (settings.dryRun) return { deleted: [], plan };
  const deleted = await deleteKeys(deps, plan, 'make room');
  const gone = new Set(deleted.map((k) => k.id));
  const stuck = unstored.filter((k) => !gone.has(k.id));
  if (stuck.length > 0) {
    // another unstored key now would make two: the next run tries again
    throw new RotationError(
      'make room',
      'failure',
      `the key ${describeKeys(stuck)} was never stored and could not be deleted; nothing was created`,
    );
  }
  if (keys.length - deleted.length >= MAX_ACTIVE_KEYS) {
    throw new RotationError(
      'make room',
      'failure',
      `no key could be deleted to stay under ${MAX_ACTIVE_KEYS}; nothing was created`,
    );
  }
  return { deleted, plan };
}

/** Deletes the keys named `name` that a create whose answer was lost may have made: the store
 *  never saw them, so nothing can hold them. */
async function removeLostCreates(deps: RotationDeps, name: string): Promise<void> {
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

async function createKey(deps: RotationDeps, name: string, inUse: KeyInfo) {
  let created: CreatedApiKey;
  try {
    created = await deps.client.apiKeys.create({ name }, { signal: deps.signal });
  } catch (error) {
    if (isScopeRefusal(error))
      throw new RotationError('create the new key', 'user', DASHBOARD_HINT);
    await removeLostCreates(deps, name);
    throw new RotationError(
      'create the new key',
      'failure',
      `${detail(error)}; ${NOTHING_CHANGED(inUse)}`,
    );
  }
  deps.mask(created.key);
  deps.log(`Created key ${created.keyPrefix} (${name})`);
  return created;
}

/** A failure after the create and before the store: the new key goes, the old one stays. */
async function abandon(
  deps: RotationDeps,
  step: RotationStep,
  created: CreatedApiKey,
  inUse: KeyInfo,
  why: string,
): Promise<never> {
  try {
    await deps.client.apiKeys.delete(created.id, { signal: deps.signal });
  } catch (error) {
    throw new RotationError(
      step,
      'failure',
      `${why}; the new key ${created.keyPrefix} could not be deleted (${oneLine(detail(error))}): it was never stored and the next rotation deletes it${deps.store.lastWritten || deps.store.readHeld ? '' : ' after the grace'}; the stored key ${inUse.keyPrefix} still works`,
    );
  }
  throw new RotationError(step, 'failure', `${why}; ${NOTHING_CHANGED(inUse)}`);
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

/** Writes the new key before the deadline counted from when it was asked for, or abandons it: a
 *  later rotation counts a key that old and not stored as never stored (plan.ts). */
async function store(
  deps: RotationDeps,
  created: CreatedApiKey,
  inUse: KeyInfo,
  askedAt: number,
  keys: readonly KeyInfo[],
) {
  const deadlineMs = Math.min(deps.storeDeadlineMs ?? STORE_DEADLINE_MS, STORE_DEADLINE_MS);
  const leftMs = deadlineMs - (performance.now() - askedAt);
  if (leftMs <= 0) {
    const within =
      deadlineMs % 60_000 === 0 ? `${deadlineMs / 60_000} minutes` : `${deadlineMs} ms`;
    const why = `the new key was not ready to store within ${within} of its create`;
    await abandon(deps, 'store the new key', created, inUse, why);
  }
  const deadline = AbortSignal.timeout(Math.ceil(leftMs));
  try {
    const signal = deps.signal ? AbortSignal.any([deps.signal, deadline]) : deadline;
    await deps.store.write(created.key, signal);
  } catch (error) {
    if (error instanceof StoreError && error.mayHaveStored) {
      throw new RotationError(
        'store the new key',
        'failure',
        `${detail(error)}; the ${deps.store.description} may hold the new key ${created.keyPrefix} or the old ${inUse.keyPrefix}: both are kept and work`,
      );
    }
    await abandon(deps, 'store the new key', created, inUse, detail(error));
  }
  await checkStored(deps, created, inUse, keys);
  deps.log(`Stored the new key in the ${deps.store.description}`);
}

/** A store that can read back what it holds must hold the new key after a write that succeeded:
 *  another of the tenant's keys (listed before the create) means the write did not take (the new
 *  key goes); anything else, that it may have (both are kept). */
async function checkStored(
  deps: RotationDeps,
  created: CreatedApiKey,
  inUse: KeyInfo,
  keys: readonly KeyInfo[],
) {
  const found = await readBack(deps, created.key, keys);
  const { description } = deps.store;
  if (found === 'other') {
    const why = `the ${description} succeeded but the store does not hold the new key`;
    await abandon(deps, 'store the new key', created, inUse, why);
  }
  if (typeof found === 'object') {
    throw new RotationError(
      'store the new key',
      'failure',
      `the ${description} succeeded but the store could not be read back (${found.failed}): it may hold the new key ${created.keyPrefix} or the old ${inUse.keyPrefix}: both are kept and work`,
    );
  }
}

export async function rotateKey(
  settings: RotationSettings,
  deps: RotationDeps,
): Promise<RotationResult> {
  const { keys, inUse } = await findInUse(deps, settings.apiKey);
  try {
    await deps.store.prepare(deps.signal);
  } catch (error) {
    throw new RotationError('prepare the store', 'user', `${detail(error)}; nothing changed`);
  }
  const room = await makeRoom(deps, settings, keys, inUse);
  const nowMs = serviceNow(deps.client);
  const name = keyName(settings.lineage, nowMs, inUse.keyPrefix);
  if (settings.dryRun) return dryRunResult(settings, keys, inUse, { name, nowMs }, room.plan);

  const askedAt = performance.now();
  const created = await createKey(deps, name, inUse);
  const failed = await verify(deps, created, inUse);
  if (failed) await abandon(deps, 'verify the new key', created, inUse, failed);
  await store(deps, created, inUse, askedAt, keys);
  const revoked = [...room.deleted, ...(await revokeReplaced(deps, settings, created))];
  const gone = new Set(revoked.map((k) => k.id));
  const kept = keptKeys(keys, settings.lineage, inUse, gone);
  return {
    keyId: created.id,
    keyPrefix: created.keyPrefix,
    keyName: name,
    revoked,
    kept,
    dryRun: false,
  };
}

/** After the store: every key whose grace has passed, except the new one. */
async function revokeReplaced(
  deps: RotationDeps,
  settings: RotationSettings,
  created: CreatedApiKey,
): Promise<KeyRef[]> {
  let keys: ApiKey[];
  try {
    keys = await deps.client.apiKeys.list({ signal: deps.signal });
  } catch (error) {
    deps.log(`Could not list the keys to delete replaced ones: ${oneLine(detail(error))}`);
    return [];
  }
  const doomed = revocable(keys, {
    ...settings,
    nowMs: serviceNow(deps.client),
    protect: new Set([created.id]),
  });
  const doomedKeys = doomed.map((r) => r.key);
  return deleteKeys(
    deps,
    doomedKeys,
    'delete replaced keys',
    `the new key ${created.keyPrefix} is stored and works, but the service refuses deletes by key (403 AUTH_INSUFFICIENT_SCOPE): delete ${describeKeys(doomedKeys)} in the dashboard (Settings, API Keys)`,
  );
}
