// The presigned download origin: no Authorization header, valid signature, not expired; streams bytes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { drained } from './drain.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { timingSafeEqual } from 'node:crypto';
import type { Runtime } from './runtime.js';
import type { Fault } from './types.js';
import { splitPath } from './route-pattern.js';
import { allocChunk, ReportBytes } from './report-bytes.js';
import { reportStatus } from './routes/reports.js';
import { retryAfterHeader } from './faults.js';
import { isPaceFault, PacedBody } from './body-pace.js';
import { isHostileFault, writeHostile } from './hostile-body.js';

export function createDownloadHandler(rt: Runtime) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    void handle(rt, req, res).catch(() => res.destroy());
  };
}

/** An S3-style XML error, as object stores answer. */
function xmlError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): void {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>\n`;
  res.writeHead(status, {
    'content-type': 'application/xml',
    'content-length': Buffer.byteLength(body),
    ...headers,
  });
  res.end(body);
}

async function handle(rt: Runtime, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://download.invalid');
  const entry = rt.log.start('download', req, res, url.pathname, url.search.replace(/^\?/, ''));
  req.resume();
  const method = req.method ?? 'GET';
  const segments = splitPath(url.pathname);
  const fault = rt.faults.take(method, segments);
  if (fault) entry.fault = fault.kind;
  if (fault?.kind === 'reset' && fault.when === 'before') return void req.socket.resetAndDestroy();
  if (fault?.kind === 'status') {
    return xmlError(
      res,
      fault.status,
      fault.code ?? 'InternalError',
      'Injected fault',
      retryAfterHeader(fault.retryAfter),
    );
  }
  if (fault?.kind === 'delay') await sleep(fault.ms);

  if (
    (method !== 'GET' && method !== 'HEAD') ||
    segments.length !== 2 ||
    segments[0] !== 'download'
  ) {
    return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
  }
  if (req.headers.authorization !== undefined) {
    return xmlError(
      res,
      403,
      'InvalidRequest',
      'Only one auth mechanism allowed; a presigned request must not carry an Authorization header.',
    );
  }
  const scanId = decodeURIComponent(segments[1] ?? '');
  const expires = Number(url.searchParams.get('expires'));
  const signature = url.searchParams.get('signature') ?? '';
  if (!Number.isFinite(expires) || !signatureMatches(rt.signature(scanId, expires), signature)) {
    return xmlError(res, 403, 'SignatureDoesNotMatch', 'The request signature does not match.');
  }
  if (Date.now() > expires) return xmlError(res, 403, 'AccessDenied', 'Request has expired');
  const scan = rt.store.scans.get(scanId);
  const tenant = scan && rt.store.tenants.get(scan.tenantId);
  if (
    !scan ||
    !tenant ||
    scan.deleted ||
    !scan.report ||
    reportStatus(rt, scan, tenant.name) !== 'ready'
  ) {
    return xmlError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
  }
  if (isHostileFault(fault) && method === 'GET') return writeHostile(res, fault, 'pdf');
  const size = scan.report.sizeBytes;
  const paced = isPaceFault(fault) && method === 'GET' ? new PacedBody(res, fault, size) : null;
  await paced?.beforeHead();
  if (res.destroyed) return;
  res.writeHead(200, {
    'content-type': 'application/pdf',
    'content-length': String(size),
    'content-disposition': `attachment; filename="report-${scanId}.pdf"`,
    etag: `"${scanId}"`,
  });
  if (method === 'HEAD') return void res.end();
  // A paced body's headers go out now, not with its first (maybe held back) bytes.
  if (paced) res.flushHeaders();
  await stream(
    res,
    new ReportBytes(rt.settings.seed, scanId, size),
    cutAt(fault, size),
    fault?.kind === 'reset',
    paced,
  );
}

/** Where a truncate or reset fault ends the body: half of it, or a truncate's own byte. */
function cutAt(fault: Fault | null, size: number): number {
  if (fault?.kind === 'truncate' && fault.atByte !== undefined) {
    return Math.max(0, Math.min(fault.atByte, size - 1));
  }
  return fault?.kind === 'truncate' || fault?.kind === 'reset' ? Math.floor(size / 2) : Infinity;
}

function signatureMatches(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

const POOL_SIZE = 4;

/**
 * Write the report through a small pool of reused chunk buffers: a buffer is filled again only
 * after the socket has flushed it, so memory stays flat however large the report. After `limit`
 * bytes the connection is dropped (fault injection). A paced body (slow-body, stall) is written
 * through `paced`, one pool buffer at a time: a buffer is reused once its bytes are flushed.
 */
async function stream(
  res: ServerResponse,
  source: ReportBytes,
  limit: number,
  reset: boolean,
  paced: PacedBody | null,
): Promise<void> {
  const free: Buffer[] = Array.from({ length: POOL_SIZE }, allocChunk);
  let waiting: (() => void) | null = null;
  const release = (chunk: Buffer) => {
    free.push(chunk);
    waiting?.();
    waiting = null;
  };
  let sent = 0;
  while (!source.done && sent < limit) {
    if (res.destroyed) return;
    if (free.length === 0) await new Promise<void>((resolve) => (waiting = resolve));
    const chunk = free.pop()!;
    const length = Math.min(source.fill(chunk), limit - sent);
    sent += length;
    if (paced) {
      const alive = await paced.write(chunk.subarray(0, length));
      release(chunk);
      if (!alive) return;
      continue;
    }
    const flowing = res.write(chunk.subarray(0, length), () => release(chunk));
    if (!flowing) await drained(res);
  }
  if (sent < source.size) {
    await new Promise<void>((resolve) => res.write('', () => resolve()));
    if (reset) res.socket?.resetAndDestroy();
    else res.socket?.destroy();
    return;
  }
  res.end();
}
