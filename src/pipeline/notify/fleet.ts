// Whether a roll-up of many tenants speaks, once for the fleet: pure. A tenant changed when its
// own run counted new failing findings or fixed ones against its baseline (the tenant jobs need a
// baseline: without one every failed finding counts as new).

import type { Rollup, TenantRow } from '../rollup/rollup.js';
import type { NotifyDecision } from './changes.js';
import type { NotifyOn } from './settings.js';
import { plural } from '../common/text.js';

export interface FleetDecision extends NotifyDecision {
  /** Tenants whose run found new failing findings or fixed ones, or whose coverage dropped beyond
   *  their limit, most new first. */
  changed: TenantRow[];
  /** Tenants without a verdict: an error, a missing, stale or unreadable record. */
  unjudged: TenantRow[];
}

export function decideFleetNotify(on: NotifyOn, rollup: Rollup): FleetDecision {
  const changed = rollup.tenants
    .filter((row) => (row.new ?? 0) > 0 || (row.fixed ?? 0) > 0 || row.coverage?.fails === true)
    .sort((a, b) => (b.new ?? 0) - (a.new ?? 0) || (b.fixed ?? 0) - (a.fixed ?? 0));
  const unjudged = rollup.tenants.filter(
    (row) => row.verdict !== 'passed' && row.verdict !== 'failed',
  );
  const withNew = changed.filter((row) => (row.new ?? 0) > 0).length;
  const words =
    changed.length > 0 ? `${plural(changed.length, 'tenant')} changed` : 'no tenant changed';
  const why = unjudged.length > 0 ? `${words}; ${unjudged.length} without a verdict` : words;
  const notify =
    on === 'always' ||
    (on === 'failure' && rollup.verdict === 'failed') ||
    (on === 'new' && withNew > 0) ||
    (on === 'change' && changed.length > 0);
  return {
    notify,
    why: on === 'new' && withNew === 0 ? 'no tenant has new failing findings' : why,
    changed,
    unjudged,
  };
}
