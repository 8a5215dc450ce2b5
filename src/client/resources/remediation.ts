// Remediation, read only for a key: capabilities and plans (applying a plan is not offered to keys).

import { segment } from '../config.js';
import type { TenantClient } from '../types.js';
import type { ResourceApi } from './api.js';

export function remediationResource(api: ResourceApi): TenantClient['remediation'] {
  return {
    capabilities: (o) =>
      api.object({
        method: 'GET',
        path: '/tenants/me/remediation/capabilities',
        signal: o?.signal,
      }),
    plans: (o) => api.list('/tenants/me/remediation-plans', o),
    plan: (id, o) =>
      api.object({
        method: 'GET',
        path: `/tenants/me/remediation-plans/${segment(id)}`,
        signal: o?.signal,
      }),
  };
}
