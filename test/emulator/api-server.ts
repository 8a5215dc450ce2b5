// The API origin: faults, warm-up, auth, plan, throttle, dashboard-only routes, then the route.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Fault, LoggedRequest } from './types.js';
import type { Runtime } from './runtime.js';
import type { KeyRecord } from './store.js';
import {
  ApiError,
  errorResponse,
  htmlError,
  ok,
  parseJsonObject,
  readBody,
  type ApiResponse,
} from './http-response.js';
import { defaultFaultCode, retryAfterHeader } from './faults.js';
import { splitPath } from './route-pattern.js';
import { isDashboardOnly } from './dashboard-only.js';
import { findRoute } from './router.js';
import { writePaced, writeResponse, writeThenReset, writeTruncated } from './response-writer.js';
import { isPaceFault } from './body-pace.js';
import { isHostileFault, writeHostile } from './hostile-body.js';

interface Incoming {
  method: string;
  segments: string[];
  query: URLSearchParams;
  entry: LoggedRequest;
}

export function createApiHandler(rt: Runtime) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handle(rt, req, res).catch(() => res.destroy());
  };
}

async function handle(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://emulator.invalid');
  const base = rt.settings.basePath;
  const underBase = url.pathname === base || url.pathname.startsWith(`${base}/`);
  const path = underBase ? url.pathname.slice(base.length) || '/' : url.pathname;
  const entry = rt.log.start('api', req, res, path, url.search.replace(/^\?/, ''));
  const incoming: Incoming = {
    method: req.method ?? 'GET',
    segments: splitPath(path),
    query: url.searchParams,
    entry,
  };

  const presentedKey = BEARER.exec(req.headers.authorization ?? '')?.[1];
  const fault = rt.faults.take(incoming.method, incoming.segments, presentedKey);
  if (fault) entry.fault = fault.kind;
  if (fault?.kind === 'reset' && fault.when === 'before') {
    req.socket.resetAndDestroy();
    return;
  }
  const statusFirst = fault?.kind === 'status' && !fault.afterHandler;
  if (statusFirst) req.resume();
  if (fault?.kind === 'delay') await sleep(fault.ms);

  const shaped = fault?.kind === 'data' || fault?.kind === 'endless-cursor';
  if (shaped) req.resume();
  const response = withServerDate(
    rt,
    fault?.kind === 'status'
      ? await statusFault(rt, req, incoming, fault)
      : shaped
        ? shapeFaultResponse(fault, incoming.query)
        : underBase
          ? await respond(rt, req, incoming, fault?.kind === 'drop-failed')
          : errorResponse(new ApiError(404, 'NOT_FOUND', 'No such route'), rt.variant.errorShape),
  );
  if (isHostileFault(fault))
    await writeHostile(res, fault, 'json', { date: response.headers?.date ?? '' });
  else if (fault?.kind === 'truncate') writeTruncated(res, response);
  else if (fault?.kind === 'reset') writeThenReset(res, response);
  else if (isPaceFault(fault)) await writePaced(res, response, fault);
  else await writeResponse(res, response);
}

/** The Date header of every API response, from the emulator clock (a real server's Date is its own
 *  clock's, which need not agree with the client's; with clockSpeed > 1 it runs ahead). */
function withServerDate(rt: Runtime, response: ApiResponse): ApiResponse {
  return {
    ...response,
    headers: { ...response.headers, date: new Date(rt.clock.now()).toUTCString() },
  };
}

async function statusFault(
  rt: Runtime,
  req: IncomingMessage,
  incoming: Incoming,
  fault: Extract<Fault, { kind: 'status' }>,
): Promise<ApiResponse> {
  if (fault.afterHandler) await respond(rt, req, incoming, false);
  return faultResponse(rt, fault);
}

function faultResponse(rt: Runtime, fault: Extract<Fault, { kind: 'status' }>): ApiResponse {
  const headers = retryAfterHeader(fault.retryAfter);
  if (fault.html) return htmlError(fault.status, `${fault.status} Bad Gateway`, headers);
  const error = new ApiError(
    fault.status,
    fault.code ?? defaultFaultCode(fault.status),
    'Injected fault',
    headers,
  );
  return errorResponse(error, rt.variant.errorShape);
}

/** A success whose data is not what the route gives: a fixed `data`, or an endless cursor. */
function shapeFaultResponse(
  fault: Extract<Fault, { kind: 'data' | 'endless-cursor' }>,
  query: URLSearchParams,
): ApiResponse {
  const cursor = Number(query.get('cursor') ?? 0) || 0;
  return fault.kind === 'data' ? ok(fault.data) : ok([], { nextCursor: cursor + 1 });
}

async function respond(
  rt: Runtime,
  req: IncomingMessage,
  incoming: Incoming,
  dropFailed: boolean,
): Promise<ApiResponse> {
  try {
    return await authorisedResponse(rt, req, incoming, dropFailed);
  } catch (error) {
    req.resume();
    if (error instanceof ApiError) return errorResponse(error, rt.variant.errorShape);
    const message = error instanceof Error ? error.message : String(error);
    return errorResponse(new ApiError(500, 'INTERNAL_ERROR', message), rt.variant.errorShape);
  }
}

async function authorisedResponse(
  rt: Runtime,
  req: IncomingMessage,
  incoming: Incoming,
  dropFailed: boolean,
): Promise<ApiResponse> {
  const { method, segments, entry } = incoming;
  const wallAge = rt.clock.wallAge();
  if (wallAge < rt.settings.warmupMs) {
    const seconds = Math.max(1, Math.ceil((rt.settings.warmupMs - wallAge) / 1000));
    throw new ApiError(
      503,
      'SERVICE_STARTING',
      'The service is starting (database warm-up); retry shortly',
      {
        'retry-after': String(seconds),
      },
    );
  }
  const key = authenticate(rt, req.headers.authorization);
  entry.keyId = key.id;
  entry.tenantId = key.tenantId;
  key.lastUsedAt = rt.clock.iso();
  const tenant = rt.store.tenant(key.tenantId);
  if (!tenant.plan.apiAccess) {
    throw new ApiError(
      403,
      'PLAN_API_ACCESS_REQUIRED',
      `The ${tenant.plan.name} plan does not include API access`,
    );
  }
  const throttle = rt.limiter.check(tenant.id, key.id);
  if (throttle.limited) {
    const headers: Record<string, string> =
      throttle.retryAfterSeconds !== undefined
        ? { 'retry-after': String(throttle.retryAfterSeconds) }
        : {};
    throw new ApiError(429, 'RATE_LIMITED', 'Too many requests', headers);
  }
  if (isDashboardOnly(method, segments)) {
    throw new ApiError(
      403,
      'AUTH_INSUFFICIENT_SCOPE',
      'This action needs a signed-in dashboard session; API keys cannot do it',
    );
  }
  const found = findRoute(method, segments);
  if (!found) throw new ApiError(404, 'NOT_FOUND', `No route ${method} ${entry.path}`);
  rt.events.sweep();
  let bodyPromise: Promise<Record<string, unknown>> | undefined;
  const response = await found.route.handle({
    rt,
    tenant,
    key,
    method,
    params: found.params,
    query: incoming.query,
    body: () =>
      (bodyPromise ??= readBody(req)
        .then(parseJsonObject)
        .then((body) => ((entry.body = body), body))),
    dropFailed,
  });
  if (!bodyPromise) req.resume();
  return response;
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

function authenticate(rt: Runtime, header: string | undefined): KeyRecord {
  const unauthorised = (message: string) =>
    new ApiError(401, 'UNAUTHORIZED', message, { 'www-authenticate': 'Bearer realm="tenant-api"' });
  if (!header) throw unauthorised('Missing Authorization header');
  const value = BEARER.exec(header)?.[1];
  if (!value) throw unauthorised('Authorization must be "Bearer <API key>"');
  const key = rt.store.keyByValue(value);
  if (!key) throw unauthorised('Unknown API key');
  if (key.revoked) throw unauthorised('This API key has been revoked');
  return key;
}
