// The Tenant API's routes as an error line needs them: a 404 on a route without an id means the
// address is not the API's; a 404 on a route that names a thing by its id means there is no such
// thing; and an API address that already ends in a route was given with too much. The list is the
// client's (src/client/resources/): test/unit/pipeline/api-routes.test.ts holds it to them.

/** Every route of the API that has no id in it. */
export const FIXED_ROUTES: readonly string[] = [
  '/tenants/me',
  '/tenants/me/connections',
  '/tenants/me/scheduled-scans',
  '/tenants/me/notifications',
  '/tenants/me/scans',
  '/tenants/me/reports',
  '/tenants/me/api-keys',
  '/tenants/me/attack-surface',
  '/tenants/me/attack-surface/history',
  '/tenants/me/attack-surface/targets',
  '/tenants/me/attack-surface/scan',
  '/tenants/me/threats',
  '/tenants/me/policies',
  '/tenants/me/remediation/capabilities',
  '/tenants/me/remediation-plans',
  '/tenants/me/ai-pilot/remediable',
  '/tenants/me/ai-pilot/break-glass',
  '/tenants/me/ai-pilot/conditional-access',
];

/** What a route with an id names. */
export type IdentifiedThing = 'scan' | 'API key' | 'attack-surface target' | 'remediation plan';

const SCAN_SUBROUTES = '(?:/(?:results|report|report/generate|cancel|hide|unhide))';

/** The routes with an id (in the first group), by what the id names. */
const ID_ROUTES: ReadonlyArray<{ thing: IdentifiedThing; pattern: RegExp }> = [
  { thing: 'scan', pattern: new RegExp(`^/scans/([^/]+)${SCAN_SUBROUTES}?$`) },
  { thing: 'API key', pattern: /^\/tenants\/me\/api-keys\/([^/]+)$/ },
  {
    thing: 'attack-surface target',
    pattern: /^\/tenants\/me\/attack-surface\/targets\/([^/]+)(?:\/verify)?$/,
  },
  { thing: 'remediation plan', pattern: /^\/tenants\/me\/remediation-plans\/([^/]+)$/ },
];

export function isFixedRoute(path: string): boolean {
  return FIXED_ROUTES.includes(path);
}

/** The thing a route names by its id (the id as it stands in the route), or undefined. */
export function identifiedBy(path: string): { thing: IdentifiedThing; id: string } | undefined {
  for (const { thing, pattern } of ID_ROUTES) {
    const id = pattern.exec(path)?.[1];
    if (id !== undefined) return { thing, id };
  }
  return undefined;
}

/** What may also be a route at the end: `/scans`, `/scans/<id>` (or a base path's own words). */
const MAYBE_ROUTE_AT_END = /(\/scans(?:\/[^/]+)?)$/;

/** Whether a path is a route no base path ends in: one of the API's own under `/tenants/me`, or a
 *  scan's sub-route (`/scans/<id>/results`), not merely words a route has (`/tenants/me/v1`). */
function isSureRoute(path: string): boolean {
  if (isFixedRoute(path)) return true;
  const named = identifiedBy(path);
  return named !== undefined && (named.thing !== 'scan' || path !== `/scans/${named.id}`);
}

/** The longest tail of a path, at a segment's start, that is a sure route. */
function sureRouteAtEnd(path: string): string | undefined {
  const segments = path.split('/').slice(1);
  for (let i = 0; i < segments.length; i++) {
    const tail = `/${segments.slice(i).join('/')}`;
    if (isSureRoute(tail)) return tail;
  }
  return undefined;
}

/**
 * The route of the API an address's path ends in (`/tenants/me`), or undefined. `sure`: only where
 * no base path could end so (then the address is refused before any request); else also what a
 * base path could in theory end in (then only a 404 names it).
 */
export function routeAtEnd(pathname: string, sure = true): string | undefined {
  const path = pathname.replace(/\/+$/, '');
  return sureRouteAtEnd(path) ?? (sure ? undefined : MAYBE_ROUTE_AT_END.exec(path)?.[1]);
}
