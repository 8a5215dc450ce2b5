// Storing the new key: within the deadline counted from when it was asked for, or it is deleted;
// a write that may have landed keeps both keys; a store that can read back what it holds must hold
// the new key. What it proves decides what the run may delete after it (rules.ts).

import type { CreatedApiKey } from '../../client/index.js';
import { oneLine } from '../common/errors.js';
import { unchanged, type Run } from './context.js';
import { RotationError, detail, type RotationStep } from './failure.js';
import { readBack } from './held.js';
import { STORE_DEADLINE_MS, type KeyInfo } from './plan.js';
import { StoreError } from './store.js';

/** A failure after the create and before the store: the new key goes, the old one stays. */
export async function abandon(
  run: Run,
  step: RotationStep,
  created: CreatedApiKey,
  why: string,
): Promise<never> {
  const { deps, inUse } = run;
  try {
    await deps.client.apiKeys.delete(created.id, { signal: deps.signal });
  } catch (error) {
    const when = deps.store.version || deps.store.readHeld ? '' : ' after the grace';
    throw new RotationError(
      step,
      'failure',
      `${why}; the new key ${created.keyPrefix} could not be deleted (${oneLine(detail(error))}): it was never stored and the next rotation deletes it${when}; the stored key ${inUse.keyPrefix} still works`,
    );
  }
  throw new RotationError(step, 'failure', `${why}; ${unchanged(run)}`);
}

/** Whether the store is proven to hold the new key ('claimed': a store command exited 0). */
export type Stored = 'proven' | 'claimed';

export async function storeKey(
  run: Run,
  created: CreatedApiKey,
  askedAt: number,
  keys: readonly KeyInfo[],
): Promise<Stored> {
  const { deps, inUse } = run;
  const deadlineMs = Math.min(deps.storeDeadlineMs ?? STORE_DEADLINE_MS, STORE_DEADLINE_MS);
  const leftMs = deadlineMs - (performance.now() - askedAt);
  if (leftMs <= 0) {
    const within =
      deadlineMs % 60_000 === 0 ? `${deadlineMs / 60_000} minutes` : `${deadlineMs} ms`;
    await abandon(
      run,
      'store the new key',
      created,
      `the new key was not ready to store within ${within} of its create`,
    );
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
    await abandon(run, 'store the new key', created, detail(error));
  }
  const stored = await checkStored(run, created, keys);
  deps.log(
    stored === 'proven'
      ? `Stored the new key in the ${deps.store.description}`
      : `The ${deps.store.description} exited 0; the store cannot be read back, so that it holds the new key is not proven: the key in use ${inUse.keyPrefix} is kept`,
  );
  return stored;
}

/** A store that can read back what it holds must hold the new key after a write that succeeded:
 *  another of the tenant's keys (listed before the create) means the write did not take (the new
 *  key goes); anything else, that it may have (both are kept). */
async function checkStored(
  run: Run,
  created: CreatedApiKey,
  keys: readonly KeyInfo[],
): Promise<Stored> {
  const { deps, inUse } = run;
  const found = await readBack(deps, created.key, keys);
  const { description } = deps.store;
  if (found === 'other') {
    const why = `the ${description} succeeded but the store does not hold the new key`;
    await abandon(run, 'store the new key', created, why);
  }
  if (typeof found === 'object') {
    throw new RotationError(
      'store the new key',
      'failure',
      `the ${description} succeeded but the store could not be read back (${found.failed}): it may hold the new key ${created.keyPrefix} or the old ${inUse.keyPrefix}: both are kept and work`,
    );
  }
  return found === 'holds' || deps.store.writeProves ? 'proven' : 'claimed';
}
