// Reports: status (a redirect is never followed with the key), generate, the list, the download.

import { routeUrl, segment, type ResolvedConfig } from '../config.js';
import { header } from '../envelope.js';
import { ServerError } from '../errors.js';
import { MAX_PAGES, nextCursorOf, tolerantList } from '../lists.js';
import { downloadReport, reportStatusFromRedirect, toReportStatus } from '../reports.js';
import type { ApiCall } from '../requester.js';
import type {
  ReportListItem,
  ReportListPage,
  ReportStatus,
  RequestOptions,
  TenantClient,
} from '../types.js';
import type { Dispatcher } from 'undici';
import type { ResourceApi } from './api.js';

export interface DownloadContext {
  config: ResolvedConfig;
  /** The guarded dispatcher for addresses the service chose (made on the first download). */
  dispatcher(): Dispatcher;
  apiIsLocal: () => Promise<boolean>;
}

export function reportsResource(
  api: ResourceApi,
  downloads: DownloadContext,
): TenantClient['reports'] {
  const { config } = downloads;
  const status = async (scanId: string, o?: RequestOptions): Promise<ReportStatus> => {
    const path = `/scans/${segment(scanId)}/report`;
    const call: ApiCall = { method: 'GET', path, signal: o?.signal, passThrough: isRedirect };
    const reply = await api.requester.send(call);
    const requestUrl = routeUrl(config.baseUrl, path);
    // Redirects are never followed with the key: the address is handed to the download, which
    // fetches it without any credential.
    if (isRedirect(reply.status))
      return reportStatusFromRedirect(header(reply, 'location'), requestUrl);
    return toReportStatus(api.requester.unwrap(reply, call).data, requestUrl);
  };
  const listPage = async (cursor?: number, o?: RequestOptions): Promise<ReportListPage> => {
    const { data, meta } = await api.requester.call({
      method: 'GET',
      path: '/tenants/me/reports',
      query: { cursor },
      signal: o?.signal,
    });
    return { items: tolerantList(data) as ReportListItem[], nextCursor: nextCursorOf(meta) };
  };
  return {
    status,
    generate: (scanId, o) =>
      api.object({
        method: 'POST',
        path: `/scans/${segment(scanId)}/report/generate`,
        signal: o?.signal,
      }),
    listPage,
    list: (o) => iterateReports(listPage, o),
    download: (scanId, path, o) =>
      downloadReport(
        scanId,
        path,
        {
          dispatcher: downloads.dispatcher(),
          apiIsLocal: downloads.apiIsLocal,
          userAgent: config.userAgent,
          timeoutMs: config.timeoutMs,
          deadlineMs: config.requestTimeoutMs,
          fetchStatus: (signal) => status(scanId, { signal }),
        },
        o?.signal,
      ),
  };
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
