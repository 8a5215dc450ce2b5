// External attack surface: the overview, its history, targets, and the attack-surface scan.

import { segment } from '../config.js';
import type { TenantClient } from '../types.js';
import { idempotentPatch, type ResourceApi } from './api.js';

const TARGETS = '/tenants/me/attack-surface/targets';

export function attackSurfaceResource(api: ResourceApi): TenantClient['attackSurface'] {
  return {
    summary: (o) =>
      api.object({ method: 'GET', path: '/tenants/me/attack-surface', signal: o?.signal }),
    history: (o) => api.list('/tenants/me/attack-surface/history', o),
    targets: (o) => api.list(TARGETS, o),
    addTarget: (host, o) =>
      api.object({ method: 'POST', path: TARGETS, body: { host }, signal: o?.signal }),
    updateTarget: (id, patch, o) =>
      api.object({ ...idempotentPatch(`${TARGETS}/${segment(id)}`, o), body: patch }),
    removeTarget: (id, o) =>
      api.nothing({ method: 'DELETE', path: `${TARGETS}/${segment(id)}`, signal: o?.signal }),
    verifyTarget: (id, o) =>
      api.object({
        method: 'POST',
        path: `${TARGETS}/${segment(id)}/verify`,
        signal: o?.signal,
      }),
    scan: (o) =>
      api.object({ method: 'POST', path: '/tenants/me/attack-surface/scan', signal: o?.signal }),
  };
}
