// Scans: trigger, list, get, cancel, hide, unhide, delete.
import { ApiError, created, notFound, ok, validation } from '../http-response.js';
import { scanStateAt } from '../scan-lifecycle.js';
import { scanJson } from '../scan-view.js';
import type { ScanRecord } from '../store.js';
import type { RequestContext, Route } from './route.js';

/** What a hostile service puts in a scan id (UnknownsVariant.hostileScanIds): a command
 *  substitution a workflow would run if it put the id in a run: script. */
export const HOSTILE_SCAN_ID_PREFIX = 'x";$(touch pwned)";';

/** Accepted scanType values; the seed names only `compliance`. */
export const SCAN_TYPES = ['compliance', 'security', 'identity', 'full'] as const;

export function findScan(ctx: RequestContext): ScanRecord {
  const scan = ctx.rt.store.liveScan(ctx.tenant.id, ctx.params.id ?? '');
  if (!scan) throw notFound('Scan');
  return scan;
}

async function triggerScan(ctx: RequestContext) {
  const body = await ctx.body();
  const scanType = body.scanType;
  if (typeof scanType !== 'string' || scanType.length === 0)
    throw validation('scanType is required (string)');
  if (!(SCAN_TYPES as readonly string[]).includes(scanType)) {
    throw validation(`scanType must be one of: ${SCAN_TYPES.join(', ')}`);
  }
  if (ctx.tenant.scansTriggered >= ctx.tenant.plan.scanQuota) {
    throw new ApiError(
      ctx.rt.variant.planLimitStatus ?? 429,
      'SCAN_PLAN_LIMIT_REACHED',
      `The ${ctx.tenant.plan.name} plan allows ${ctx.tenant.plan.scanQuota} scans; upgrade the plan to run more`,
    );
  }
  const prefix = ctx.rt.variant.hostileScanIds ? HOSTILE_SCAN_ID_PREFIX : '';
  const scan = ctx.rt.store.addScan(ctx.tenant, scanType, ctx.key.id, prefix);
  return created(scanJson(ctx.rt, scan));
}

/** When a scan was created, as the service's list orders it (its shown, possibly skewed, date). */
function shownTime(scan: ScanRecord): number {
  return scan.createdAtMs + (scan.datesShiftMs ?? 0);
}

function listScans(ctx: RequestContext) {
  const includeHidden = ctx.query.get('includeHidden') === 'true';
  // Newest first by creation (seeded past scans too), the last made first among equals.
  const scans = ctx.rt.store
    .scansOf(ctx.tenant.id)
    .filter((s) => !s.deleted && (includeHidden || !s.hidden))
    .reverse()
    .sort((a, b) => shownTime(b) - shownTime(a))
    .map((s) => scanJson(ctx.rt, s));
  return ok(scans, { total: scans.length });
}

function cancelScan(ctx: RequestContext) {
  const scan = findScan(ctx);
  const now = ctx.rt.clock.now();
  const { status } = scanStateAt(scan, now);
  if (status !== 'queued' && status !== 'running') {
    throw new ApiError(
      409,
      'SCAN_NOT_CANCELLABLE',
      `Scan is ${status}; only queued or running scans can be cancelled`,
    );
  }
  scan.cancelledAtMs = now;
  return ok(scanJson(ctx.rt, scan));
}

function setHidden(hidden: boolean) {
  return (ctx: RequestContext) => {
    const scan = findScan(ctx);
    scan.hidden = hidden;
    return ok(scanJson(ctx.rt, scan));
  };
}

function deleteScan(ctx: RequestContext) {
  findScan(ctx).deleted = true;
  return ok(null);
}

export const scanRoutes: Route[] = [
  { route: 'POST /tenants/me/scans', handle: triggerScan },
  { route: 'GET /tenants/me/scans', handle: listScans },
  { route: 'GET /scans/:id', handle: (ctx) => ok(scanJson(ctx.rt, findScan(ctx))) },
  { route: 'POST /scans/:id/cancel', handle: cancelScan },
  { route: 'PATCH /scans/:id/hide', handle: setHidden(true) },
  { route: 'PATCH /scans/:id/unhide', handle: setHidden(false) },
  { route: 'DELETE /scans/:id', handle: deleteScan },
];
