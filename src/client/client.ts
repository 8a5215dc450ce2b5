// createClient: one method per route of the seed's table, named like the official SDK, on top of
// the requester (retries, errors), the wait loop and the report download.
import { routeUrl, segment, validateClientOptions } from './config.js';
import { header, isObject } from './envelope.js';
import { NetworkError, ServerError } from './errors.js';
import { resultMatches } from './findings.js';
import { MAX_PAGES, nextCursorOf, readAllPages, strictList, tolerantList } from './lists.js';
import { Pacer } from './pacer.js';
import { downloadReport, reportStatusFromRedirect, toReportStatus } from './reports.js';
import { Requester, type ApiCall } from './requester.js';
import { resolveRetryPolicy } from './retry.js';
import { ServerClock } from './server-time.js';
import { toScan } from './scan-status.js';
import { createDispatcher } from './transport.js';
import { guardedLookup, localNetworkCheck } from './network.js';
import type { Dispatcher } from 'undici';
import type {
  ApiKey,
  ClientOptions,
  CreatedApiKey,
  Finding,
  JsonObject,
  NotificationSettings,
  ReportListItem,
  ReportListPage,
  ReportStatus,
  RequestOptions,
  Scan,
  TenantClient,
} from './types.js';
import { waitForScan } from './wait.js';

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
  const requester = new Requester({
    serverClock,
    config,
    policy: resolveRetryPolicy(options.retry),
    dispatcher,
    pacer: new Pacer(),
    onRetry: options.onRetry,
  });

  const data = async (call: ApiCall): Promise<unknown> => (await requester.call(call)).data;
  const get = (path: string, o?: RequestOptions) =>
    data({ method: 'GET', path, signal: o?.signal });
  const object = async (call: ApiCall): Promise<JsonObject> => asObject(await data(call));
  const list = async (path: string, o?: RequestOptions): Promise<JsonObject[]> =>
    tolerantList(await get(path, o));
  const nothing = async (call: ApiCall): Promise<void> => {
    await requester.call(call);
  };

  // The scan keeps the id it was asked for, whatever id its body names.
  const getScan = async (id: string, o?: RequestOptions) => {
    const path = `/scans/${segment(id)}`;
    return received({ ...toScan(await data({ method: 'GET', path, signal: o?.signal })), id });
  };
  const pollScan = sharedPoll(getScan);

  const reportStatus = async (scanId: string, o?: RequestOptions): Promise<ReportStatus> => {
    const path = `/scans/${segment(scanId)}/report`;
    const call: ApiCall = { method: 'GET', path, signal: o?.signal, passThrough: isRedirect };
    const reply = await requester.send(call);
    const requestUrl = routeUrl(config.baseUrl, path);
    // Redirects are never followed with the key: the address is handed to the download, which
    // fetches it without any credential.
    if (isRedirect(reply.status))
      return reportStatusFromRedirect(header(reply, 'location'), requestUrl);
    return toReportStatus(requester.unwrap(reply, call).data, requestUrl);
  };

  const reportsPage = async (cursor?: number, o?: RequestOptions): Promise<ReportListPage> => {
    const { data: d, meta } = await requester.call({
      method: 'GET',
      path: '/tenants/me/reports',
      query: { cursor },
      signal: o?.signal,
    });
    return { items: tolerantList(d) as ReportListItem[], nextCursor: nextCursorOf(meta) };
  };

  // Results decide verdicts: read whole or not at all (lists.ts), each a record with a result word.
  const results = async (
    id: string,
    o?: RequestOptions & { result?: string },
  ): Promise<Finding[]> => {
    const path = `/scans/${segment(id)}/results`;
    const findings = (await readAllPages(
      (cursor, signal) =>
        requester.call({ method: 'GET', path, query: { result: o?.result, cursor }, signal }),
      { route: `GET ${path}`, items: 'results', check: resultWordProblem },
      { signal: o?.signal },
    )) as Finding[];
    const wanted = o?.result;
    return wanted ? findings.filter((f) => resultMatches(f, wanted)) : findings;
  };

  return {
    baseUrl: config.baseUrl,
    tenants: { me: (o) => object({ method: 'GET', path: '/tenants/me', signal: o?.signal }) },
    connections: { list: (o) => list('/tenants/me/connections', o) },
    notifications: {
      get: async (o) => toNotificationSettings(await get('/tenants/me/notifications', o)),
      update: async (patch, o) =>
        toNotificationSettings(
          // Idempotent: it sets the given fields to the given values.
          await data({
            method: 'PATCH',
            path: '/tenants/me/notifications',
            body: patch,
            idempotent: true,
            signal: o?.signal,
          }),
        ),
    },
    apiKeys: {
      list: async (o) => (await list('/tenants/me/api-keys', o)).map(toApiKey),
      create: async (input, o) => {
        const body: JsonObject = { name: input.name };
        if (input.msTenantId !== undefined) body.msTenantId = input.msTenantId;
        const raw = await object({
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
        nothing({
          method: 'DELETE',
          path: `/tenants/me/api-keys/${segment(keyId)}`,
          signal: o?.signal,
        }),
    },
    scheduledScans: { list: (o) => list('/tenants/me/scheduled-scans', o) },
    scans: {
      list: async (o) =>
        strictList(await get('/tenants/me/scans', o), {
          route: 'GET /tenants/me/scans',
          items: 'scans',
        }).map((raw) => toScan(raw)),
      create: async (scanType, o) => {
        const path = '/tenants/me/scans';
        const answer = await data({ method: 'POST', path, body: { scanType }, signal: o?.signal });
        const scan = toScan(answer);
        if (scan.id === '') throw answerWithoutScanId(path);
        return received(scan);
      },
      get: getScan,
      results,
      cancel: async (id, o) => {
        const d = await data({
          method: 'POST',
          path: `/scans/${segment(id)}/cancel`,
          signal: o?.signal,
        });
        return isObject(d) ? toScan(d, id) : null;
      },
      hide: async (id, o) =>
        objectOrNull(await data(idempotentPatch(`/scans/${segment(id)}/hide`, o))),
      unhide: async (id, o) =>
        objectOrNull(await data(idempotentPatch(`/scans/${segment(id)}/unhide`, o))),
      delete: (id, o) =>
        nothing({ method: 'DELETE', path: `/scans/${segment(id)}`, signal: o?.signal }),
      wait: (id, o) => {
        segment(id); // an empty id fails here, not at the first iteration
        return waitForScan(id, pollScan, o);
      },
    },
    reports: {
      status: reportStatus,
      generate: (scanId, o) =>
        object({
          method: 'POST',
          path: `/scans/${segment(scanId)}/report/generate`,
          signal: o?.signal,
        }),
      listPage: reportsPage,
      list: (o) => iterateReports(reportsPage, o),
      download: (scanId, path, o) =>
        downloadReport(
          scanId,
          path,
          {
            dispatcher: downloadDispatcher(),
            apiIsLocal,
            userAgent: config.userAgent,
            timeoutMs: config.timeoutMs,
            deadlineMs: config.requestTimeoutMs,
            fetchStatus: (signal) => reportStatus(scanId, { signal }),
          },
          o?.signal,
        ),
    },
    attackSurface: {
      summary: (o) =>
        object({ method: 'GET', path: '/tenants/me/attack-surface', signal: o?.signal }),
      history: (o) => list('/tenants/me/attack-surface/history', o),
      targets: (o) => list('/tenants/me/attack-surface/targets', o),
      addTarget: (host, o) =>
        object({
          method: 'POST',
          path: '/tenants/me/attack-surface/targets',
          body: { host },
          signal: o?.signal,
        }),
      updateTarget: (id, patch, o) =>
        object({
          ...idempotentPatch(`/tenants/me/attack-surface/targets/${segment(id)}`, o),
          body: patch,
        }),
      removeTarget: (id, o) =>
        nothing({
          method: 'DELETE',
          path: `/tenants/me/attack-surface/targets/${segment(id)}`,
          signal: o?.signal,
        }),
      verifyTarget: (id, o) =>
        object({
          method: 'POST',
          path: `/tenants/me/attack-surface/targets/${segment(id)}/verify`,
          signal: o?.signal,
        }),
      scan: (o) =>
        object({ method: 'POST', path: '/tenants/me/attack-surface/scan', signal: o?.signal }),
    },
    threats: { list: (o) => list('/tenants/me/threats', o) },
    policies: { list: (o) => list('/tenants/me/policies', o) },
    remediation: {
      capabilities: (o) =>
        object({ method: 'GET', path: '/tenants/me/remediation/capabilities', signal: o?.signal }),
      plans: (o) => list('/tenants/me/remediation-plans', o),
      plan: (id, o) =>
        object({
          method: 'GET',
          path: `/tenants/me/remediation-plans/${segment(id)}`,
          signal: o?.signal,
        }),
    },
    aiPilot: {
      remediable: (o) => list('/tenants/me/ai-pilot/remediable', o),
      breakGlass: (o) => list('/tenants/me/ai-pilot/break-glass', o),
      conditionalAccess: (o) => list('/tenants/me/ai-pilot/conditional-access', o),
    },
    serverTime: () => serverClock.latest(),
    close: async () => {
      await Promise.all([dispatcher.close(), downloads?.close()]);
    },
  };
}

/** A snapshot stamped with when its answer arrived (wait places the scan's start from it). */
function received(scan: Scan): Scan {
  return { ...scan, receivedAt: Date.now() };
}

/** hide/unhide and target updates set a state: repeating them is harmless, so they may be retried. */
function idempotentPatch(path: string, o?: RequestOptions): ApiCall {
  return { method: 'PATCH', path, idempotent: true, signal: o?.signal };
}

function isRedirect(status: number): boolean {
  return status === 301 || status === 302 || status === 303 || status === 307 || status === 308;
}

async function* iterateReports(
  page: (cursor?: number, o?: RequestOptions) => Promise<ReportListPage>,
  o?: RequestOptions,
): AsyncGenerator<ReportListItem> {
  const seen = new Set<number>();
  let cursor: number | undefined;
  for (let n = 0; ; n++) {
    if (n >= MAX_PAGES) throw pageLimit('GET', '/tenants/me/reports');
    const current = await page(cursor, o);
    yield* current.items;
    if (current.nextCursor === null) return;
    if (seen.has(current.nextCursor))
      throw paginationLoop('GET', '/tenants/me/reports', current.nextCursor);
    seen.add(current.nextCursor);
    cursor = current.nextCursor;
  }
}

/** A trigger answered with success but no scan id: the scan may exist, like after a lost answer,
 *  so it is a NetworkError that may have been processed (the caller looks the scan up). */
function answerWithoutScanId(path: string): NetworkError {
  return new NetworkError(
    `POST ${path}: the answer carried no scan id. The server may have started the scan, so the request was NOT sent again: check the current state before retrying.`,
    { code: 'INVALID_RESPONSE', method: 'POST', path, mayHaveBeenProcessed: true },
  );
}

function pageLimit(method: string, path: string): ServerError {
  return new ServerError(`${method} ${path}: more pages followed after ${MAX_PAGES}; stopped.`, {
    code: 'PAGE_LIMIT',
    method,
    path,
  });
}

function paginationLoop(method: string, path: string, cursor: number): ServerError {
  return new ServerError(
    `${method} ${path}: the server repeated cursor ${cursor}; stopped to avoid a loop.`,
    {
      code: 'PAGINATION_LOOP',
      method,
      path,
    },
  );
}

interface SharedPoll {
  promise: Promise<Scan>;
  controller: AbortController;
  waiters: number;
}

/**
 * One GET /scans/{id} in flight per scan, however many waiters follow it. Each waiter can leave
 * through its own signal; the request itself is aborted when the last waiter has left.
 */
function sharedPoll(getScan: (id: string, o?: RequestOptions) => Promise<Scan>) {
  const inflight = new Map<string, SharedPoll>();
  return (id: string, signal: AbortSignal | undefined): Promise<Scan> => {
    const forget = (entry: SharedPoll) => inflight.get(id) === entry && inflight.delete(id);
    let shared = inflight.get(id);
    if (!shared) {
      const controller = new AbortController();
      const entry: SharedPoll = {
        promise: getScan(id, { signal: controller.signal }),
        controller,
        waiters: 0,
      };
      entry.promise.then(
        () => forget(entry),
        () => forget(entry),
      );
      inflight.set(id, entry);
      shared = entry;
    }
    shared.waiters++;
    return new Promise<Scan>((resolve, reject) => {
      let left = false;
      /** True the first time only: a waiter leaves once, by abort or by the answer. */
      const leave = () => {
        if (left) return false;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        shared.waiters--;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (shared.waiters === 0) {
          forget(shared); // a later waiter starts a fresh request instead of joining this one
          shared.controller.abort(signal?.reason);
        }
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (scan) => leave() && resolve(scan),
        (error: unknown) => leave() && reject(error),
      );
    });
  };
}

/** A result the seed describes has a result word (`Failed`, `Passed`, …): without one it cannot be
 *  judged, and a verdict must not rest on it. */
function resultWordProblem(item: JsonObject): string | undefined {
  return typeof item.result === 'string' && item.result.trim() !== ''
    ? undefined
    : 'it has no result word';
}

function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

function objectOrNull(value: unknown): JsonObject | null {
  return isObject(value) ? value : null;
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

function toNotificationSettings(value: unknown): NotificationSettings {
  const raw = asObject(value);
  return {
    emailOnComplete: raw.emailOnComplete === true,
    emailOnFail: raw.emailOnFail === true,
    teamsWebhookUrl: typeof raw.teamsWebhookUrl === 'string' ? raw.teamsWebhookUrl : null,
    teamsOnComplete: raw.teamsOnComplete === true,
    teamsOnFail: raw.teamsOnFail === true,
  };
}
