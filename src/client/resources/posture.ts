// Read-only risk views: threats and policy posture.

import type { TenantClient } from '../types.js';
import type { ResourceApi } from './api.js';

export function postureResources(api: ResourceApi): Pick<TenantClient, 'threats' | 'policies'> {
  return {
    threats: { list: (o) => api.list('/tenants/me/threats', o) },
    policies: { list: (o) => api.list('/tenants/me/policies', o) },
  };
}
