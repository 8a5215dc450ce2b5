// Read-only views: threats, policies, remediation capabilities and plans, AI assistant.
import { notFound, ok } from '../http-response.js';
import { CHECKS } from '../findings-catalog.js';
import { intFrom, pick, uuidFrom } from '../rng.js';
import type { RequestContext, Route } from './route.js';

const seedOf = (ctx: RequestContext): [number, string] => [ctx.rt.settings.seed, ctx.tenant.id];

function threats(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  const kinds = [
    'Risky sign-in',
    'Leaked credentials',
    'Impossible travel',
    'Mass download',
    'Suspicious inbox rule',
    'Unfamiliar sign-in properties',
  ];
  return ok(
    Array.from({ length: intFrom(3, 8, seed, tenant, 'threats') }, (_, i) => ({
      id: uuidFrom(seed, tenant, 'threat', i),
      title: pick(kinds, seed, tenant, 'threat-kind', i),
      riskLevel: pick(['high', 'medium', 'low'], seed, tenant, 'threat-risk', i),
      affectedUser: `user${intFrom(1, 400, seed, tenant, 'threat-user', i)}@contoso.example.com`,
      detectedAt: ctx.rt.clock.iso(
        ctx.rt.clock.now() - intFrom(1, 30, seed, tenant, 'threat-age', i) * 3_600_000,
      ),
      status: pick(['open', 'investigating', 'dismissed'], seed, tenant, 'threat-status', i),
    })),
  );
}

function policies(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  return ok(
    CHECKS.slice(0, 20).map((check, i) => ({
      id: check.checkId,
      title: check.title,
      category: check.category,
      state: pick(['compliant', 'nonCompliant', 'notApplicable'], seed, tenant, 'policy', i),
      lastEvaluatedAt: ctx.rt.clock.iso(
        ctx.rt.clock.now() - intFrom(1, 72, seed, tenant, 'policy-age', i) * 3_600_000,
      ),
    })),
  );
}

function capabilities() {
  return ok({
    automated: [
      'mailbox-auditing',
      'legacy-auth-block',
      'external-forwarding-block',
      'safe-links-policy',
    ],
    guided: ['dkim-enable', 'dmarc-publish', 'conditional-access-mfa', 'break-glass-accounts'],
    requiresDashboardToApply: true,
  });
}

function plans(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  return Array.from({ length: 4 }, (_, i) => {
    const checks = [0, 1, 2].map(
      (k) => CHECKS[intFrom(0, CHECKS.length - 1, seed, tenant, 'plan-check', i, k)]!,
    );
    return {
      id: uuidFrom(seed, tenant, 'remediation-plan', i),
      title: `Remediate ${checks[0]!.category.toLowerCase()} findings`,
      status: pick(['draft', 'approved', 'applied'], seed, tenant, 'plan-status', i),
      steps: checks.map((check, k) => ({
        order: k + 1,
        checkId: check.checkId,
        action: check.remediation,
      })),
      createdAt: ctx.rt.clock.iso(ctx.rt.clock.now() - (i + 1) * 86_400_000),
    };
  });
}

function onePlan(ctx: RequestContext) {
  const plan = plans(ctx).find((p) => p.id === ctx.params.id);
  if (!plan) throw notFound('Remediation plan');
  return ok(plan);
}

function remediable(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  return ok(
    CHECKS.filter((_, i) => intFrom(0, 3, seed, tenant, 'remediable', i) === 0).map((check) => ({
      checkId: check.checkId,
      title: check.title,
      severity: check.severity,
      automated: check.severity !== 'critical',
    })),
  );
}

function breakGlass(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  return ok(
    [1, 2].map((n) => ({
      id: uuidFrom(seed, tenant, 'break-glass', n),
      userPrincipalName: `breakglass${n}@contoso.example.com`,
      excludedFromConditionalAccess: true,
      lastSignInAt: ctx.rt.clock.iso(
        ctx.rt.clock.now() - intFrom(20, 200, seed, tenant, 'bg', n) * 86_400_000,
      ),
      monitored: n === 1,
    })),
  );
}

function conditionalAccess(ctx: RequestContext) {
  const [seed, tenant] = seedOf(ctx);
  const names = [
    'Require MFA for admins',
    'Block legacy authentication',
    'Require MFA for all users',
    'Require compliant device',
    'Sign-in risk policy',
  ];
  return ok(
    names.map((name, i) => ({
      id: uuidFrom(seed, tenant, 'ca', i),
      displayName: name,
      state: pick(
        ['enabled', 'enabledForReportingButNotEnforced', 'disabled'],
        seed,
        tenant,
        'ca-state',
        i,
      ),
      recommendation: i % 2 === 0 ? 'Keep enabled' : 'Enforce after report-only review',
    })),
  );
}

export const insightRoutes: Route[] = [
  { route: 'GET /tenants/me/threats', handle: threats },
  { route: 'GET /tenants/me/policies', handle: policies },
  { route: 'GET /tenants/me/remediation/capabilities', handle: capabilities },
  { route: 'GET /tenants/me/remediation-plans', handle: (ctx) => ok(plans(ctx)) },
  { route: 'GET /tenants/me/remediation-plans/:id', handle: onePlan },
  { route: 'GET /tenants/me/ai-pilot/remediable', handle: remediable },
  { route: 'GET /tenants/me/ai-pilot/break-glass', handle: breakGlass },
  { route: 'GET /tenants/me/ai-pilot/conditional-access', handle: conditionalAccess },
];
