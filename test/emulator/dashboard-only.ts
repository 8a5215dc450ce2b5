// Routes reserved to a signed-in dashboard session: a key gets 403 AUTH_INSUFFICIENT_SCOPE.
import { matchPattern, parsePattern } from './route-pattern.js';

const WRITE = ['POST', 'PUT', 'PATCH', 'DELETE'];
const writes = (path: string): string[] => WRITE.map((m) => `${m} ${path}`);

const RESERVED = [
  // billing and plan settings
  '* /tenants/me/billing',
  '* /tenants/me/billing/*',
  '* /billing/*',
  ...writes('/tenants/me/plan'),
  ...writes('/tenants/me/subscription'),
  // team membership
  '* /tenants/me/team',
  '* /tenants/me/team/*',
  '* /tenants/me/members',
  '* /tenants/me/members/*',
  '* /tenants/me/invitations',
  '* /tenants/me/invitations/*',
  // connection onboarding and offboarding
  ...writes('/tenants/me/connections'),
  ...writes('/tenants/me/connections/*'),
  '* /tenants/me/onboarding',
  '* /tenants/me/onboarding/*',
  '* /tenants/me/offboarding',
  '* /tenants/me/offboarding/*',
  // single sign-on
  '* /tenants/me/sso',
  '* /tenants/me/sso/*',
  // applying a remediation plan
  '* /tenants/me/remediation-plans/:id/apply',
  ...writes('/tenants/me/remediation-plans/*'),
  // AI assistant writes to emergency accounts and access policies
  ...writes('/tenants/me/ai-pilot/break-glass'),
  ...writes('/tenants/me/ai-pilot/break-glass/*'),
  ...writes('/tenants/me/ai-pilot/conditional-access'),
  ...writes('/tenants/me/ai-pilot/conditional-access/*'),
].map(parsePattern);

export function isDashboardOnly(method: string, segments: string[]): boolean {
  return RESERVED.some((p) => matchPattern(p, method, segments) !== null);
}
