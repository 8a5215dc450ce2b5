// What the tenants sub-action's main step saves for its post step: one state per tenant whose scan
// it triggered, named after the tenant (`tenant.<name>`, a list entry's name). While its trigger is
// in flight it holds the trigger's window (the single-tenant step's pending trigger: the scans
// listed before it are never taken for its own); once the trigger answered, the scan id and
// whether it settled. Each write replaces that tenant's value (the runner keeps the last value of a
// name), so 50 or 5,000 tenants stay a few short lines each. Never a key or an address: the post
// step finds the tenant's key variable and api-url again in the same tenants input.

import * as core from '@actions/core';
import { isObject } from '../../client/index.js';
import { pendingTriggerOf } from '../../pipeline/job/lost-trigger.js';
import type { PendingTrigger } from '../../pipeline/job/types.js';
import { parseScanId } from '../../pipeline/settings/parse.js';
import type { TenantScanObserver } from '../../pipeline/run-tenants.js';

const PREFIX = 'tenant.';
/** Scans listed before a tenant's trigger kept by id in its saved window (older ones are set aside
 *  by time). The runner hands the post step every saved value as an environment variable, and a
 *  process's whole environment is bounded (2 MiB on Linux): 500 tenants in flight at a kill stay
 *  well inside it at ~0.3 KB each, where 50 ids (~2.1 KB) could not. */
export const TENANT_PENDING_IDS_MAX = 5;

/** A tenant's saved scan: its id, and whether it ended or was cancelled (nothing left to do); or
 *  the trigger sent whose answer was not saved (the scan it may have started is looked up). */
export type TenantScanState =
  { kind: 'scan'; scanId: string; settled: boolean } | { kind: 'pending'; pending: PendingTrigger };

export function tenantStateName(tenant: string): string {
  return `${PREFIX}${tenant}`;
}

/** Saves each tenant's trigger before it is sent, its scan as soon as the trigger answers, and
 *  again once it settled. A pending trigger is cleared only while it is the tenant's last value:
 *  the job clears it after saving the scan, which must stay. */
export function savingTenantScans(): TenantScanObserver {
  const pendingSaved = new Set<string>();
  const save = (tenant: string, value: string) => core.saveState(tenantStateName(tenant), value);
  const saveScan = (tenant: string, scanId: string, settled: boolean) => {
    pendingSaved.delete(tenant);
    save(tenant, JSON.stringify({ scanId, settled }));
  };
  return {
    pendingIdsMax: TENANT_PENDING_IDS_MAX,
    pending: (tenant, pending) => {
      if (pending) {
        pendingSaved.add(tenant);
        save(tenant, JSON.stringify({ pending }));
      } else if (pendingSaved.delete(tenant)) {
        save(tenant, '');
      }
    },
    triggered: (tenant, scanId) => saveScan(tenant, scanId, false),
    settled: (tenant, scanId) => saveScan(tenant, scanId, true),
  };
}

/** The tenant's saved scan; undefined when none was saved. A value that is not ours (not JSON of
 *  that shape, or an id that is not a scan id) throws: nothing in it is used. */
export function readTenantScanState(tenant: string): TenantScanState | undefined {
  const raw = core.getState(tenantStateName(tenant));
  if (raw === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    parsed = undefined;
  }
  if (isObject(parsed) && 'pending' in parsed) {
    const pending = pendingTriggerOf(parsed.pending);
    if (!pending) throw new Error(`the saved trigger of tenant ${tenant} is not a trigger window`);
    return { kind: 'pending', pending };
  }
  if (
    !isObject(parsed) ||
    typeof parsed.scanId !== 'string' ||
    typeof parsed.settled !== 'boolean'
  ) {
    throw new Error(`the saved state of tenant ${tenant} is not a scan id and a settled flag`);
  }
  const scanId = parseScanId(`the saved scan of tenant ${tenant}`, parsed.scanId);
  if (scanId === undefined) throw new Error(`the saved state of tenant ${tenant} has no scan id`);
  return { kind: 'scan', scanId, settled: parsed.settled };
}
