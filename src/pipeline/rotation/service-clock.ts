// The service's clock, which the rotation's times are read on (keys' createdAt, the grace).

import type { TenantClient } from '../../client/index.js';

/** The service's clock now: its last Date header moved on by the time since, else ours. */
export function serviceNow(client: TenantClient): number {
  const seen = client.serverTime?.();
  return seen ? seen.serverMs + (Date.now() - seen.observedAtLocalMs) : Date.now();
}
