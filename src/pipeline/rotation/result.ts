// What a rotation reports: the new key (never its value), whether the store is proven to hold it,
// the keys it deleted and those it kept; for a dry run, the keys it would delete.

import type { ApiKey } from '../../client/index.js';
import { lineageKeys, type KeyInfo } from './plan.js';
import { revocable, type GracePolicy } from './rules.js';

export interface KeyRef {
  id: string;
  name: string;
  keyPrefix: string;
}

export interface RotationResult {
  /** The new key (none on a dry run). */
  keyId?: string;
  keyPrefix?: string;
  keyName: string;
  /** 'proven': the store holds the new key (GitHub answered, or the read-back printed it);
   *  'claimed': a store command exited 0 and cannot be read back. None on a dry run. */
  stored?: 'proven' | 'claimed';
  revoked: KeyRef[];
  /** Lineage keys and the start key left in place (within their grace, or in use). */
  kept: KeyRef[];
  /** A dry run's plan: the keys it would delete (to make room, then after the store). */
  wouldRevoke?: KeyRef[];
  dryRun: boolean;
}

export const ref = (k: KeyInfo): KeyRef => ({ id: k.id, name: k.name, keyPrefix: k.keyPrefix });

/** The lineage's keys and the key in use that stay (not in `gone`). */
export function keptKeys(
  keys: readonly KeyInfo[],
  lineage: string,
  inUse: KeyInfo,
  gone: ReadonlySet<string>,
): KeyRef[] {
  const ours = lineageKeys(keys, lineage);
  const all = ours.some((k) => k.id === inUse.id) ? ours : [...ours, inUse];
  return all.filter((k) => !gone.has(k.id)).map(ref);
}

/** What a run would do now: the name it would give, the keys it would delete to make room and,
 *  once the new key (created now) is stored — proven, for a store that can prove it — those whose
 *  grace has passed. */
export function dryRunResult(
  settings: Pick<GracePolicy, 'lineage' | 'graceMs' | 'revokeReplaced'>,
  keys: ApiKey[],
  inUse: KeyInfo,
  next: { name: string; nowMs: number; proven: boolean },
  wouldMakeRoom: KeyInfo[],
): RotationResult {
  const planned: KeyInfo = {
    id: '(new)',
    name: next.name,
    keyPrefix: '(new)',
    createdAt: new Date(next.nowMs).toISOString(),
  };
  const roomIds = new Set(wouldMakeRoom.map((k) => k.id));
  const afterStore = revocable([...keys.filter((k) => !roomIds.has(k.id)), planned], {
    ...settings,
    nowMs: next.nowMs,
    inUse,
    ...(next.proven ? { provenNew: planned } : {}),
  });
  const wouldRevoke = [...wouldMakeRoom, ...afterStore.map((r) => r.key)].map(ref);
  const gone = new Set(wouldRevoke.map((k) => k.id));
  return {
    keyName: next.name,
    revoked: [],
    kept: keptKeys(keys, settings.lineage, inUse, gone),
    wouldRevoke,
    dryRun: true,
  };
}
