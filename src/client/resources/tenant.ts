// The tenant profile and its read-only lists: connections and scheduled scans.

import type { TenantClient } from '../types.js';
import type { ResourceApi } from './api.js';

export function tenantResources(
  api: ResourceApi,
): Pick<TenantClient, 'tenants' | 'connections' | 'scheduledScans'> {
  return {
    tenants: { me: (o) => api.object({ method: 'GET', path: '/tenants/me', signal: o?.signal }) },
    connections: { list: (o) => api.list('/tenants/me/connections', o) },
    scheduledScans: { list: (o) => api.list('/tenants/me/scheduled-scans', o) },
  };
}
