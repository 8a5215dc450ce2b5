// Finds the route of a request among the API's routes.
import { matchPattern, parsePattern, type Pattern } from './route-pattern.js';
import type { Route } from './routes/route.js';
import { apiKeyRoutes } from './routes/api-keys.js';
import { notificationRoutes } from './routes/notifications.js';
import { reportRoutes } from './routes/reports.js';
import { resultRoutes } from './routes/results.js';
import { scanRoutes } from './routes/scans.js';
import { tenantRoutes } from './routes/tenant.js';
import { attackSurfaceRoutes } from './routes/attack-surface.js';
import { insightRoutes } from './routes/insights.js';

const ROUTES: Array<{ pattern: Pattern; route: Route }> = [
  ...tenantRoutes,
  ...apiKeyRoutes,
  ...notificationRoutes,
  ...scanRoutes,
  ...resultRoutes,
  ...reportRoutes,
  ...attackSurfaceRoutes,
  ...insightRoutes,
].map((route) => ({ pattern: parsePattern(route.route), route }));

export function findRoute(
  method: string,
  segments: string[],
): { route: Route; params: Record<string, string> } | null {
  for (const { pattern, route } of ROUTES) {
    const params = matchPattern(pattern, method, segments);
    if (params) return { route, params };
  }
  return null;
}
