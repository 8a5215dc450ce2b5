// Tenant profile, connections and scheduled scans.
import { ok } from '../http-response.js';
import { hostile } from '../findings.js';
import { echoedTexts } from './echo.js';
import { intFrom, pick, uuidFrom } from '../rng.js';
import type { RequestContext, Route } from './route.js';

/** The name as the variant shows it: escape sequences, markup, the presenting key. */
function tenantName(ctx: RequestContext, name: string): string {
  const { variant } = ctx.rt;
  let shown = variant.hostileText ? hostile(name) : name;
  if (variant.hostileMarkdown) shown = `${shown} @octocat <b>#1</b>`;
  const echoed = echoedTexts(ctx);
  if (echoed.length > 0) shown = `${shown} ${echoed.join(' ')}`;
  return shown;
}

function profile(ctx: RequestContext) {
  const { tenant, rt } = ctx;
  const plan = tenant.plan;
  const finite = (n: number): number | null => (Number.isFinite(n) ? n : null);
  return ok({
    id: tenant.id,
    name: tenant.name === null ? null : tenantName(ctx, tenant.name),
    plan: {
      name: plan.name,
      apiAccess: plan.apiAccess,
      scanQuota: finite(plan.scanQuota),
      scansUsed: tenant.scansTriggered,
      reportAllowance: plan.reportAllowance,
      reportAllowanceUsed: tenant.allowanceUsed,
      reportCreditsRemaining: Math.max(0, plan.reportCredits - tenant.creditsSpent),
    },
    activeConnectionId: tenant.connections[0]?.id ?? null,
    createdAt: tenant.createdAt,
    region: pick(['eu-west', 'us-east', 'ap-southeast'], rt.settings.seed, tenant.id, 'region'),
  });
}

function connections(ctx: RequestContext) {
  return ok(
    ctx.tenant.connections.map((c, i) => ({
      id: c.id,
      msTenantId: c.msTenantId,
      displayName: c.displayName,
      status: 'active',
      isActive: i === 0,
      connectedAt: c.connectedAt,
    })),
  );
}

function scheduledScans(ctx: RequestContext) {
  const { seed } = ctx.rt.settings;
  const count = intFrom(1, 3, seed, ctx.tenant.id, 'schedules');
  const cadences = ['daily', 'weekly', 'monthly'] as const;
  return ok(
    Array.from({ length: count }, (_, i) => ({
      id: uuidFrom(seed, ctx.tenant.id, 'schedule', i),
      scanType: pick(
        ['compliance', 'security', 'identity'],
        seed,
        ctx.tenant.id,
        'schedule-type',
        i,
      ),
      cadence: cadences[i % cadences.length],
      hourUtc: intFrom(0, 23, seed, ctx.tenant.id, 'schedule-hour', i),
      enabled: i !== 2,
      nextRunAt: ctx.rt.clock.iso(ctx.rt.clock.now() + (i + 1) * 86_400_000),
    })),
  );
}

export const tenantRoutes: Route[] = [
  { route: 'GET /tenants/me', handle: profile },
  { route: 'GET /tenants/me/connections', handle: connections },
  { route: 'GET /tenants/me/scheduled-scans', handle: scheduledScans },
];
