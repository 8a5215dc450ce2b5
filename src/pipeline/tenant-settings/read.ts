// What the plan reads from the service: notifications, keys, targets and scans, in parallel.
// Target fields are not in the seed: they are read tolerantly, and a verification state the
// service does not give stays unknown (no problem is claimed on it).

import type { JsonObject, TenantClient } from '../../client/index.js';
import type { CurrentTarget, TenantState } from './plan.js';

export async function readTenant(client: TenantClient, signal?: AbortSignal): Promise<TenantState> {
  const o = { signal };
  const [notifications, keys, targets, scans] = await Promise.all([
    client.notifications.get(o),
    client.apiKeys.list(o),
    client.attackSurface.targets(o),
    client.scans.list(o),
  ]);
  return { notifications, keys, targets: targets.map(readTarget).filter(hasHost), scans };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

export function readTarget(raw: JsonObject): CurrentTarget {
  const label = raw.label ?? raw.name;
  const state = text(raw.verificationStatus) ?? text(raw.status);
  const verified =
    typeof raw.verified === 'boolean'
      ? raw.verified
      : state !== undefined && /^(verified|unverified|pending)$/i.test(state)
        ? /^verified$/i.test(state)
        : undefined;
  return {
    id: text(raw.id) ?? '',
    host: (text(raw.host) ?? text(raw.hostname) ?? text(raw.domain) ?? '').toLowerCase(),
    label: typeof label === 'string' ? label : null,
    ...(verified !== undefined ? { verified } : {}),
  };
}

function hasHost(target: CurrentTarget): boolean {
  return target.host !== '';
}
