// The AI assistant's read-only views (its writes are reserved to a dashboard session).

import type { TenantClient } from '../types.js';
import type { ResourceApi } from './api.js';

export function aiAssistantResource(api: ResourceApi): TenantClient['aiPilot'] {
  return {
    remediable: (o) => api.list('/tenants/me/ai-pilot/remediable', o),
    breakGlass: (o) => api.list('/tenants/me/ai-pilot/break-glass', o),
    conditionalAccess: (o) => api.list('/tenants/me/ai-pilot/conditional-access', o),
  };
}
