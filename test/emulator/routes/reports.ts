// Reports: status lifecycle, generation with credit accounting, list with an integer cursor.
import { ApiError, json, ok, validation, type ApiResponse } from '../http-response.js';
import { scanStateAt } from '../scan-lifecycle.js';
import type { ScanRecord } from '../store.js';
import type { Runtime } from '../runtime.js';
import { findScan } from './scans.js';
import { nonNegativeInt } from './results.js';
import type { RequestContext, Route } from './route.js';

export type ReportStatus = 'locked' | 'rendering' | 'ready' | 'orgNameRequired';

const REPORT_PAGE_SIZE = 20;
const MAX_PAGE_SIZE = 100;

export function reportStatus(rt: Runtime, scan: ScanRecord, orgName: string | null): ReportStatus {
  if (!scan.report) return orgName === null ? 'orgNameRequired' : 'locked';
  return rt.clock.now() < scan.report.requestedAtMs + rt.settings.reportRenderMs
    ? 'rendering'
    : 'ready';
}

function readyAtIso(rt: Runtime, scan: ScanRecord): string | null {
  return scan.report ? rt.clock.iso(scan.report.requestedAtMs + rt.settings.reportRenderMs) : null;
}

function getReport(ctx: RequestContext): ApiResponse {
  const scan = findScan(ctx);
  const status = reportStatus(ctx.rt, scan, ctx.tenant.name);
  if (status !== 'ready') {
    return ok({
      scanId: scan.id,
      status,
      ...(status === 'locked' ? { creditRequired: creditRequired(ctx) } : {}),
    });
  }
  const { url, expiresAt } = ctx.rt.presignedUrl(scan.id);
  const address = ctx.rt.variant.downloadAddress ?? 'downloadUrl';
  const body = { scanId: scan.id, status, generatedAt: readyAtIso(ctx.rt, scan), expiresAt };
  if (address === 'redirect302' || address === 'redirect303') {
    return json(
      address === 'redirect302' ? 302 : 303,
      { success: true, data: body },
      { location: url },
    );
  }
  return ok({ ...body, [address]: url });
}

function creditRequired(ctx: RequestContext): boolean {
  return ctx.tenant.allowanceUsed >= ctx.tenant.plan.reportAllowance;
}

function generateReport(ctx: RequestContext): ApiResponse {
  const scan = findScan(ctx);
  const { tenant, rt } = ctx;
  if (scan.report) {
    return ok({
      scanId: scan.id,
      status: reportStatus(rt, scan, tenant.name),
      creditConsumed: false,
    });
  }
  if (scanStateAt(scan, rt.clock.now()).status !== 'completed') {
    throw new ApiError(
      409,
      'SCAN_NOT_COMPLETED',
      'A report can be generated for a completed scan only',
    );
  }
  if (tenant.name === null) {
    throw new ApiError(
      409,
      'ORG_NAME_REQUIRED',
      'Set the organisation name in the dashboard before generating a report',
    );
  }
  let creditConsumed = false;
  if (tenant.allowanceUsed < tenant.plan.reportAllowance) {
    tenant.allowanceUsed++;
  } else if (tenant.creditsSpent < tenant.plan.reportCredits) {
    tenant.creditsSpent++;
    creditConsumed = true;
  } else {
    throw new ApiError(
      402,
      'REPORT_CREDITS_EXHAUSTED',
      'No report allowance or credits left; buy credits in the dashboard',
    );
  }
  scan.report = {
    requestedAtMs: rt.clock.now(),
    creditConsumed,
    sizeBytes: rt.settings.reportSizeBytes,
  };
  return json(202, {
    success: true,
    data: { scanId: scan.id, status: 'rendering', creditConsumed },
  });
}

function listReports(ctx: RequestContext): ApiResponse {
  const cursor = nonNegativeInt(ctx.query.get('cursor'), 'cursor', 0);
  const limit = nonNegativeInt(ctx.query.get('limit'), 'limit', REPORT_PAGE_SIZE);
  if (limit < 1 || limit > MAX_PAGE_SIZE)
    throw validation(`limit must be between 1 and ${MAX_PAGE_SIZE}`);
  const withReports = ctx.rt.store
    .scansOf(ctx.tenant.id)
    .filter((s) => !s.deleted && s.report)
    .sort((a, b) => (a.report?.requestedAtMs ?? 0) - (b.report?.requestedAtMs ?? 0));
  const page = withReports.slice(cursor, cursor + limit).map((scan) => {
    const status = reportStatus(ctx.rt, scan, ctx.tenant.name);
    return {
      scanId: scan.id,
      scanType: scan.scanType,
      status,
      generatedAt: status === 'ready' ? readyAtIso(ctx.rt, scan) : null,
    };
  });
  const nextCursor = cursor + limit < withReports.length ? cursor + limit : null;
  return ok(page, { nextCursor, total: withReports.length });
}

export const reportRoutes: Route[] = [
  { route: 'GET /scans/:id/report', handle: getReport },
  { route: 'POST /scans/:id/report/generate', handle: generateReport },
  { route: 'GET /tenants/me/reports', handle: listReports },
];
