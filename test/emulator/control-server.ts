// The control origin: JSON over HTTP mirroring the in-process Emulator methods. No API key works here.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type {
  Emulator,
  FaultRule,
  RateLimitModel,
  ScanPlan,
  TenantSeed,
  PastScan,
  UnknownsVariant,
} from './types.js';
import type { Runtime } from './runtime.js';
import { matchPattern, parsePattern, splitPath } from './route-pattern.js';
import { ApiError, parseJsonObject, readBody } from './http-response.js';
import { writeResponse } from './response-writer.js';

type Body = Record<string, unknown>;
type Handler = (input: {
  body: Body;
  params: Record<string, string>;
  query: URLSearchParams;
}) => unknown;

/** JSON cannot carry Infinity: accept "Infinity" or null for it. */
function reviveInfinity(value: unknown): number | undefined {
  if (value === null || value === 'Infinity') return Infinity;
  return typeof value === 'number' ? value : undefined;
}

function faultRule(body: Body): FaultRule {
  if (typeof body.route !== 'string' || typeof body.fault !== 'object' || body.fault === null) {
    throw new ApiError(
      400,
      'VALIDATION_ERROR',
      'a fault rule needs route (string) and fault (object)',
    );
  }
  if ('key' in body && typeof body.key !== 'string') {
    throw new ApiError(400, 'VALIDATION_ERROR', "a fault rule's key must be a string");
  }
  const rule = { ...(body as unknown as FaultRule) };
  if ('times' in body) rule.times = reviveInfinity(body.times) ?? 1;
  if (rule.fault.kind === 'stall') {
    rule.fault = { ...rule.fault, ms: reviveInfinity(rule.fault.ms) ?? 0 };
  }
  return rule;
}

function tenantSeed(body: Body): TenantSeed {
  const seed = { ...(body as TenantSeed) };
  if (seed.plan && 'scanQuota' in seed.plan) {
    seed.plan = { ...seed.plan, scanQuota: reviveInfinity(seed.plan.scanQuota) ?? Infinity };
  }
  return seed;
}

/** A scan plan from JSON: a stall's forMs may be "Infinity" or null (for ever). */
function scanPlan(value: unknown): ScanPlan {
  const plan = { ...(value as ScanPlan) };
  if (plan.stall) plan.stall = { ...plan.stall, forMs: reviveInfinity(plan.stall.forMs) ?? 0 };
  return plan;
}

function routes(emu: Emulator): Array<[string, Handler]> {
  const tenantOf = (query: URLSearchParams) => query.get('tenantId') ?? undefined;
  return [
    [
      'GET /state',
      () => ({
        url: emu.url,
        downloadOrigin: emu.downloadOrigin,
        controlOrigin: emu.controlOrigin,
        apiKey: emu.apiKey,
        tenantId: emu.tenantId,
        now: emu.now?.(),
      }),
    ],
    ['POST /tenants', ({ body }) => emu.addTenant(tenantSeed(body))],
    ['PATCH /tenants/:id', ({ body, params }) => emu.setTenant(params.id ?? '', tenantSeed(body))],
    [
      'POST /tenants/:id/keys',
      ({ body, params }) => ({
        apiKey: emu.addKey(params.id ?? '', typeof body.name === 'string' ? body.name : undefined, {
          ...(typeof body.ageMs === 'number' ? { ageMs: body.ageMs } : {}),
          ...(typeof body.lastUsedAgoMs === 'number' ? { lastUsedAgoMs: body.lastUsedAgoMs } : {}),
        }),
      }),
    ],
    [
      'PUT /scan-plan',
      ({ body, query }) =>
        emu.setScanPlan(
          scanPlan(body.plan ?? body),
          (body.tenantId as string | undefined) ?? tenantOf(query),
        ),
    ],
    [
      'POST /history',
      ({ body, query }) => ({
        scanIds: emu.seedHistory(
          (body.scans ?? []) as PastScan[],
          (body.tenantId as string | undefined) ?? tenantOf(query),
        ),
      }),
    ],
    [
      'POST /drift',
      ({ body, query }) => emu.drift((body.tenantId as string | undefined) ?? tenantOf(query)),
    ],
    ['PUT /variant', ({ body }) => emu.setVariant(body as UnknownsVariant)],
    ['PUT /rate-limit', ({ body }) => emu.setRateLimit(body as unknown as RateLimitModel)],
    ['PUT /report-size', ({ body }) => emu.setReportSize?.(Number(body.bytes))],
    ['POST /faults', ({ body }) => emu.addFault(faultRule(body))],
    ['DELETE /faults', () => emu.clearFaults()],
    [
      'GET /requests',
      ({ query }) =>
        emu.requests().filter((r) => !query.get('origin') || r.origin === query.get('origin')),
    ],
    ['DELETE /requests', () => emu.clearRequests()],
    ['GET /scans', ({ query }) => emu.scans(tenantOf(query))],
    ['GET /scans/:id/results', ({ params }) => emu.results?.(params.id ?? '') ?? []],
    ['GET /credits', ({ query }) => ({ spent: emu.creditsSpent(tenantOf(query)) })],
    ['GET /notifications', async () => (await emu.flushEvents?.(), emu.notifications())],
    ['POST /clock/advance', ({ body }) => (emu.advance(Number(body.ms)), { now: emu.now?.() })],
    ['GET /reports/:scanId/digest', ({ params }) => emu.reportDigest(params.scanId ?? '')],
  ];
}

export function createControlHandler(rt: Runtime, emu: Emulator) {
  const table = routes(emu).map(([route, handler]) => ({ pattern: parsePattern(route), handler }));
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handle(rt, table, req, res).catch(() => res.destroy());
  };
}

async function handle(
  rt: Runtime,
  table: Array<{ pattern: ReturnType<typeof parsePattern>; handler: Handler }>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://control.invalid');
  rt.log.start('control', req, res, url.pathname, url.search.replace(/^\?/, ''));
  const reply = (status: number, value: unknown) =>
    writeResponse(res, {
      status,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(value),
    });
  try {
    if (req.headers.authorization !== undefined) {
      req.resume();
      return await reply(403, {
        error: { code: 'FORBIDDEN', message: 'The control surface takes no credentials' },
      });
    }
    const method = req.method ?? 'GET';
    const segments = splitPath(url.pathname);
    for (const { pattern, handler } of table) {
      const params = matchPattern(pattern, method, segments);
      if (!params) continue;
      const body =
        method === 'GET' || method === 'DELETE'
          ? (req.resume(), {})
          : parseJsonObject(await readBody(req));
      const result = await handler({ body, params, query: url.searchParams });
      return await reply(200, { ok: true, data: result ?? null });
    }
    req.resume();
    await reply(404, {
      error: { code: 'NOT_FOUND', message: `No control route ${method} ${url.pathname}` },
    });
  } catch (error) {
    const status = error instanceof ApiError ? error.status : 400;
    const code = error instanceof ApiError ? error.code : 'BAD_REQUEST';
    await reply(status, {
      error: { code, message: error instanceof Error ? error.message : String(error) },
    });
  }
}
