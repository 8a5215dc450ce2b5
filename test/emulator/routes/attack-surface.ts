// Attack surface: overview, history, targets (add, update, remove, verify) and scan.
import { ApiError, created, json, notFound, ok, validation } from '../http-response.js';
import { intFrom, uuidFrom } from '../rng.js';
import type { Target } from '../store.js';
import type { RequestContext, Route } from './route.js';

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i;
const IPV4 = /^(25[0-5]|2[0-4]\d|1?\d?\d)(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}$/;
const MAX_TARGETS = 50;

function targetJson(target: Target) {
  return {
    id: target.id,
    host: target.host,
    label: target.label,
    verified: target.verified,
    verificationRecord: `tenant-scan-verify=${target.id.slice(0, 8)}`,
    createdAt: target.createdAt,
    verifiedAt: target.verifiedAt,
  };
}

function findTarget(ctx: RequestContext): Target {
  const target = ctx.tenant.targets.find((t) => t.id === ctx.params.id);
  if (!target) throw notFound('Target');
  return target;
}

function overview(ctx: RequestContext) {
  const { seed } = ctx.rt.settings;
  const targets = ctx.tenant.targets;
  const exposures = (kind: string) =>
    targets.reduce((n, t) => n + intFrom(0, 4, seed, t.host, kind), 0);
  return ok({
    targets: targets.length,
    verifiedTargets: targets.filter((t) => t.verified).length,
    openPorts: exposures('ports'),
    expiringCertificates: exposures('certs') % 3,
    exposures: {
      critical: exposures('crit') % 2,
      high: exposures('high') % 4,
      medium: exposures('med'),
      low: exposures('low'),
    },
    score: intFrom(55, 95, seed, ctx.tenant.id, 'eas-score'),
    lastScanAt:
      ctx.tenant.targets.length > 0 ? ctx.rt.clock.iso(ctx.rt.clock.now() - 86_400_000) : null,
  });
}

function history(ctx: RequestContext) {
  const { seed } = ctx.rt.settings;
  const day = 86_400_000;
  return ok(
    Array.from({ length: 12 }, (_, i) => ({
      date: ctx.rt.clock.iso(ctx.rt.clock.now() - (11 - i) * 7 * day).slice(0, 10),
      score: intFrom(50, 95, seed, ctx.tenant.id, 'eas-history', i),
      openPorts: intFrom(0, 20, seed, ctx.tenant.id, 'eas-ports', i),
      findings: intFrom(0, 12, seed, ctx.tenant.id, 'eas-findings', i),
    })),
  );
}

async function addTarget(ctx: RequestContext) {
  const body = await ctx.body();
  const host = typeof body.host === 'string' ? body.host.trim().toLowerCase() : undefined;
  if (!host || !(HOSTNAME.test(host) || IPV4.test(host)))
    throw validation('host must be a hostname or an IPv4 address');
  if (body.label !== undefined && body.label !== null && typeof body.label !== 'string') {
    throw validation('label must be a string');
  }
  if (ctx.tenant.targets.some((t) => t.host === host)) {
    throw new ApiError(409, 'TARGET_EXISTS', `${host} is already a target`);
  }
  if (ctx.tenant.targets.length >= MAX_TARGETS) throw validation(`at most ${MAX_TARGETS} targets`);
  const target: Target = {
    id: ctx.rt.store.ids.uuid('target'),
    host,
    label: typeof body.label === 'string' ? body.label : null,
    verified: false,
    createdAt: ctx.rt.clock.iso(),
    verifiedAt: null,
  };
  ctx.tenant.targets.push(target);
  return created(targetJson(target));
}

async function updateTarget(ctx: RequestContext) {
  const target = findTarget(ctx);
  const body = await ctx.body();
  if ('label' in body) {
    if (body.label !== null && typeof body.label !== 'string')
      throw validation('label must be a string or null');
    target.label = body.label as string | null;
  }
  return ok(targetJson(target));
}

function removeTarget(ctx: RequestContext) {
  const target = findTarget(ctx);
  ctx.tenant.targets = ctx.tenant.targets.filter((t) => t !== target);
  return ok(null);
}

function verifyTarget(ctx: RequestContext) {
  const target = findTarget(ctx);
  if (!target.verified) {
    target.verified = true;
    target.verifiedAt = ctx.rt.clock.iso();
  }
  return ok(targetJson(target));
}

function runScan(ctx: RequestContext) {
  const verified = ctx.tenant.targets.filter((t) => t.verified);
  if (verified.length === 0)
    throw new ApiError(409, 'NO_VERIFIED_TARGETS', 'Verify at least one target first');
  return json(202, {
    success: true,
    data: {
      id: uuidFrom(
        ctx.rt.settings.seed,
        ctx.tenant.id,
        'eas-scan',
        ctx.rt.store.ids.next('eas-scan'),
      ),
      status: 'queued',
      targets: verified.length,
      createdAt: ctx.rt.clock.iso(),
    },
  });
}

export const attackSurfaceRoutes: Route[] = [
  { route: 'GET /tenants/me/attack-surface', handle: overview },
  { route: 'GET /tenants/me/attack-surface/history', handle: history },
  {
    route: 'GET /tenants/me/attack-surface/targets',
    handle: (ctx) => ok(ctx.tenant.targets.map(targetJson)),
  },
  { route: 'POST /tenants/me/attack-surface/targets', handle: addTarget },
  { route: 'PATCH /tenants/me/attack-surface/targets/:id', handle: updateTarget },
  { route: 'DELETE /tenants/me/attack-surface/targets/:id', handle: removeTarget },
  { route: 'POST /tenants/me/attack-surface/targets/:id/verify', handle: verifyTarget },
  { route: 'POST /tenants/me/attack-surface/scan', handle: runScan },
];
