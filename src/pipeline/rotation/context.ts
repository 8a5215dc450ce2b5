// What a rotation runs with (its settings, the faces' services) and what it has done so far, which
// every failure line must tell truly.

import type { TenantClient } from '../../client/index.js';
import type { KeyInfo } from './plan.js';
import type { KeyRef } from './result.js';
import type { KeyStore } from './store.js';

export interface RotationSettings {
  /** The key the job holds (what the store held when the job started). */
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

/** One run: the key in use and the keys it deleted so far. */
export interface Run {
  deps: RotationDeps;
  settings: RotationSettings;
  inUse: KeyInfo;
  deleted: KeyRef[];
}

/** The end of a line after a failure that left no new key: what this run did change. */
export function unchanged(run: Run): string {
  const still = `the stored key ${run.inUse.keyPrefix} still works`;
  if (run.deleted.length === 0) return `nothing changed: ${still}`;
  const gone = run.deleted.map((k) => k.keyPrefix).join(', ');
  return `no new key is left; before its create this run deleted ${gone} (never stored, or past the grace); ${still}`;
}
