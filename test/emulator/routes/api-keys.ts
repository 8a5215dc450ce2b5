// API keys: list (active only), create (limits, msTenantId check), revoke.
import { created, notFound, ok, validation } from '../http-response.js';
import { MAX_ACTIVE_KEYS, type KeyRecord } from '../store.js';
import type { RequestContext, Route } from './route.js';

export const MAX_KEY_NAME = 255;

/** The first 12 characters, three dots, the last 4. */
export function keyPrefix(key: string): string {
  return `${key.slice(0, 12)}...${key.slice(-4)}`;
}

function keyJson(k: KeyRecord) {
  return {
    id: k.id,
    name: k.name,
    keyPrefix: keyPrefix(k.key),
    msTenantId: k.msTenantId,
    lastUsedAt: k.lastUsedAt,
    createdAt: k.createdAt,
  };
}

async function createKey(ctx: RequestContext) {
  const body = await ctx.body();
  const { name, msTenantId } = body;
  if (typeof name !== 'string' || name.trim().length === 0)
    throw validation('name is required (string)');
  if (name.length > MAX_KEY_NAME)
    throw validation(`name must be at most ${MAX_KEY_NAME} characters`);
  if (msTenantId !== undefined && msTenantId !== null) {
    if (typeof msTenantId !== 'string') throw validation('msTenantId must be a string');
    if (!ctx.tenant.connections.some((c) => c.msTenantId === msTenantId)) {
      throw validation('msTenantId must be one of the account’s connected directory tenants');
    }
  }
  if (ctx.rt.store.activeKeys(ctx.tenant.id).length >= MAX_ACTIVE_KEYS) {
    throw validation(`A tenant may have at most ${MAX_ACTIVE_KEYS} API keys; delete one first`);
  }
  const record = ctx.rt.store.addKey(
    ctx.tenant.id,
    name,
    typeof msTenantId === 'string' ? msTenantId : null,
  );
  const { lastUsedAt: _unused, ...shown } = keyJson(record);
  return created({ ...shown, key: record.key });
}

function revokeKey(ctx: RequestContext) {
  const record = ctx.rt.store.keys.get(ctx.params.keyId ?? '');
  if (!record || record.revoked || record.tenantId !== ctx.tenant.id) throw notFound('API key');
  record.revoked = true;
  return ok(null);
}

export const apiKeyRoutes: Route[] = [
  {
    route: 'GET /tenants/me/api-keys',
    handle: (ctx) => ok(ctx.rt.store.activeKeys(ctx.tenant.id).map(keyJson)),
  },
  { route: 'POST /tenants/me/api-keys', handle: createKey },
  { route: 'DELETE /tenants/me/api-keys/:keyId', handle: revokeKey },
];
