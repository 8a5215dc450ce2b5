// createClient: one method per route of the seed's table, named like the official SDK, each
// resource a module of resources/ over one requester (retries, errors, pacing).
import { validateClientOptions } from './config.js';
import { Pacer } from './pacer.js';
import { Requester } from './requester.js';
import { resolveRetryPolicy } from './retry.js';
import { ServerClock } from './server-time.js';
import { createDispatcher } from './transport.js';
import { guardedLookup, localNetworkCheck } from './network.js';
import type { Dispatcher } from 'undici';
import type { ClientOptions, TenantClient } from './types.js';
import { resourceApi } from './resources/api.js';
import { aiAssistantResource } from './resources/ai-assistant.js';
import { apiKeysResource } from './resources/api-keys.js';
import { attackSurfaceResource } from './resources/attack-surface.js';
import { notificationsResource } from './resources/notifications.js';
import { postureResources } from './resources/posture.js';
import { remediationResource } from './resources/remediation.js';
import { reportsResource } from './resources/reports.js';
import { scansResource } from './resources/scans.js';
import { tenantResources } from './resources/tenant.js';

export function createClient(options: ClientOptions): TenantClient {
  const config = validateClientOptions(options);
  const dispatcher = createDispatcher(config.env);
  // Report downloads go to addresses the service chose: their own dispatcher resolves names
  // through a guard (network.ts). Made on the first download.
  const apiIsLocal = localNetworkCheck(new URL(config.baseUrl).hostname);
  let downloads: Dispatcher | undefined;
  const downloadDispatcher = () =>
    (downloads ??= createDispatcher(config.env, { lookup: guardedLookup(apiIsLocal) }));
  const serverClock = new ServerClock();
  const api = resourceApi(
    new Requester({
      serverClock,
      config,
      policy: resolveRetryPolicy(options.retry),
      dispatcher,
      pacer: new Pacer(),
      onRetry: options.onRetry,
    }),
  );
  return {
    baseUrl: config.baseUrl,
    ...tenantResources(api),
    notifications: notificationsResource(api),
    apiKeys: apiKeysResource(api),
    scans: scansResource(api),
    reports: reportsResource(api, { config, dispatcher: downloadDispatcher, apiIsLocal }),
    attackSurface: attackSurfaceResource(api),
    ...postureResources(api),
    remediation: remediationResource(api),
    aiPilot: aiAssistantResource(api),
    serverTime: () => serverClock.latest(),
    close: async () => {
      await Promise.all([dispatcher.close(), downloads?.close()]);
    },
  };
}
