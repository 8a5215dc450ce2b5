// API keys: list, create (the full key is in the answer once), delete.

import { segment } from '../config.js';
import type { ApiKey, CreatedApiKey, JsonObject, TenantClient } from '../types.js';
import type { ResourceApi } from './api.js';

export function apiKeysResource(api: ResourceApi): TenantClient['apiKeys'] {
  return {
    list: async (o) => (await api.list('/tenants/me/api-keys', o)).map(toApiKey),
    create: async (input, o) => {
      const body: JsonObject = { name: input.name };
      if (input.msTenantId !== undefined) body.msTenantId = input.msTenantId;
      const raw = await api.object({
        method: 'POST',
        path: '/tenants/me/api-keys',
        body,
        signal: o?.signal,
      });
      return {
        ...toApiKey(raw),
        key: typeof raw.key === 'string' ? raw.key : '',
      } satisfies CreatedApiKey;
    },
    delete: (keyId, o) =>
      api.nothing({
        method: 'DELETE',
        path: `/tenants/me/api-keys/${segment(keyId)}`,
        signal: o?.signal,
      }),
  };
}

function toApiKey(raw: JsonObject): ApiKey {
  const s = (v: unknown) => (typeof v === 'string' ? v : '');
  return {
    id: s(raw.id),
    name: s(raw.name),
    keyPrefix: s(raw.keyPrefix),
    msTenantId: typeof raw.msTenantId === 'string' ? raw.msTenantId : null,
    lastUsedAt: typeof raw.lastUsedAt === 'string' ? raw.lastUsedAt : null,
    createdAt: s(raw.createdAt),
    raw,
  };
}
