// Notification settings: GET, and PATCH that changes only the fields sent.
import { ApiError, ok, validation } from '../http-response.js';
import type { NotificationSettings } from '../store.js';
import type { RequestContext, Route } from './route.js';

const BOOLEAN_FIELDS = [
  'emailOnComplete',
  'emailOnFail',
  'teamsOnComplete',
  'teamsOnFail',
] as const;

function isWebhookUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/** Validate the whole body first, so a rejected PATCH changes nothing. */
function validatedPatch(body: Record<string, unknown>): Partial<NotificationSettings> {
  const patch: Partial<NotificationSettings> = {};
  for (const field of BOOLEAN_FIELDS) {
    const value = body[field];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw validation(`${field} must be a boolean`);
    patch[field] = value;
  }
  if ('teamsWebhookUrl' in body) {
    const url = body.teamsWebhookUrl;
    if (url !== null && (typeof url !== 'string' || !isWebhookUrl(url))) {
      throw validation('teamsWebhookUrl must be an http(s) URL or null');
    }
    patch.teamsWebhookUrl = url as string | null;
  }
  return patch;
}

async function patchSettings(ctx: RequestContext) {
  if (ctx.rt.variant.notificationsPatch === 'dashboard-only') {
    throw new ApiError(
      403,
      'AUTH_INSUFFICIENT_SCOPE',
      'Notification settings can only be changed in the dashboard',
    );
  }
  const patch = validatedPatch(await ctx.body());
  Object.assign(ctx.tenant.notifications, patch);
  return ok({ ...ctx.tenant.notifications });
}

export const notificationRoutes: Route[] = [
  { route: 'GET /tenants/me/notifications', handle: (ctx) => ok({ ...ctx.tenant.notifications }) },
  { route: 'PATCH /tenants/me/notifications', handle: patchSettings },
];
