// What the tenants sub-action's main step saves for its post step: one state per tenant whose scan
// it triggered, named after the tenant (`tenant.<name>`, a list entry's name), holding the scan id
// and whether it settled. Each write replaces that tenant's value (the runner keeps the last value
// of a name), so 50 or 5,000 tenants stay two short lines each. Never a key or an address: the post
// step finds the tenant's key variable and api-url again in the same tenants input.

import * as core from '@actions/core';
import { isObject } from '../client/index.js';
import { parseScanId } from '../pipeline/settings/parse.js';
import type { TenantScanObserver } from '../pipeline/run-tenants.js';

const PREFIX = 'tenant.';

/** A tenant's saved scan: its id, and whether it ended or was cancelled (nothing left to do). */
export interface TenantScanState {
  scanId: string;
  settled: boolean;
}

export function tenantStateName(tenant: string): string {
  return `${PREFIX}${tenant}`;
}

/** Saves each tenant's scan as soon as its trigger answers, and again once it settled. */
export function savingTenantScans(): TenantScanObserver {
  const save = (tenant: string, scanId: string, settled: boolean) =>
    core.saveState(tenantStateName(tenant), JSON.stringify({ scanId, settled }));
  return {
    triggered: (tenant, scanId) => save(tenant, scanId, false),
    settled: (tenant, scanId) => save(tenant, scanId, true),
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
  if (
    !isObject(parsed) ||
    typeof parsed.scanId !== 'string' ||
    typeof parsed.settled !== 'boolean'
  ) {
    throw new Error(`the saved state of tenant ${tenant} is not a scan id and a settled flag`);
  }
  const scanId = parseScanId(`the saved scan of tenant ${tenant}`, parsed.scanId);
  if (scanId === undefined) throw new Error(`the saved state of tenant ${tenant} has no scan id`);
  return { scanId, settled: parsed.settled };
}
