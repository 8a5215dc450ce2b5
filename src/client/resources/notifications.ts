// Notification settings: one object per tenant; a PATCH changes only the fields it sends.

import type { NotificationSettings, TenantClient } from '../types.js';
import { asObject, type ResourceApi } from './api.js';

export function notificationsResource(api: ResourceApi): TenantClient['notifications'] {
  return {
    get: async (o) => toNotificationSettings(await api.get('/tenants/me/notifications', o)),
    update: async (patch, o) =>
      toNotificationSettings(
        // Idempotent: it sets the given fields to the given values.
        await api.data({
          method: 'PATCH',
          path: '/tenants/me/notifications',
          body: patch,
          idempotent: true,
          signal: o?.signal,
        }),
      ),
  };
}

function toNotificationSettings(value: unknown): NotificationSettings {
  const raw = asObject(value);
  return {
    emailOnComplete: raw.emailOnComplete === true,
    emailOnFail: raw.emailOnFail === true,
    teamsWebhookUrl: typeof raw.teamsWebhookUrl === 'string' ? raw.teamsWebhookUrl : null,
    teamsOnComplete: raw.teamsOnComplete === true,
    teamsOnFail: raw.teamsOnFail === true,
  };
}
