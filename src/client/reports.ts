// Reports: status (address from a body field or a redirect), and the download of the presigned
// address: no Authorization or other API header ever goes there, redirects are followed by hand,
// bytes stream (download.ts) to a temp file beside the target with sha256 and length checked, then
// it is renamed. No fsync: the rename publishes the file whole to other processes and survives the
// process being killed; only a crash of the machine could leave it short, and a crashed runner is
// discarded. Any failure or abort removes the temp file. An expired address (403) is fetched
// afresh once.
import { randomUUID } from 'node:crypto';
import { readdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { abortReason, sleep } from './abort.js';
import { isLoopbackHost } from './config.js';
import { LocalAddressError, isLocalHostname } from './network.js';
import { header, isObject } from './envelope.js';
import { DownloadError, NetworkError, TimeoutError } from './errors.js';
import { describeAddress, sanitizeServerText } from './redact.js';
import { errorCode } from './retry.js';
import type { Dispatcher } from 'undici';
import { MAX_REPORT_BYTES, getIntoFile, type FileReply } from './download.js';
import {
  AnswerTooLarge,
  RequestDeadline,
  RequestTimeout,
  bytesText,
  seconds,
} from './transport.js';
import type { DownloadResult, JsonObject, ReportState, ReportStatus } from './types.js';

const STATES: Record<string, ReportState> = {
  ready: 'ready',
  rendering: 'rendering',
  orgnamerequired: 'orgNameRequired',
  locked: 'locked',
};

export function toReportState(status: unknown): ReportState {
  if (typeof status !== 'string') return 'unknown';
  return (
    STATES[
      status
        .trim()
        .toLowerCase()
        .replace(/[\s_-]+/g, '')
    ] ?? 'unknown'
  );
}

const ADDRESS_FIELDS = ['downloadUrl', 'url', 'presignedUrl', 'href'] as const;

/** A report status body, read tolerantly. `requestUrl` resolves a relative address. */
export function toReportStatus(raw: unknown, requestUrl: URL): ReportStatus {
  const obj: JsonObject = isObject(raw) ? raw : {};
  const status = typeof obj.status === 'string' ? obj.status : '';
  const address = ADDRESS_FIELDS.map((name) => obj[name]).find(
    (v): v is string => typeof v === 'string' && v !== '',
  );
  const downloadUrl = address ? absolute(address, requestUrl) : undefined;
  let state = toReportState(status);
  if (status === '' && downloadUrl) state = 'ready';
  return {
    status,
    state,
    downloadUrl,
    expiresAt: typeof obj.expiresAt === 'string' ? obj.expiresAt : undefined,
    raw: obj,
  };
}

/** A 302/303 from GET /scans/{id}/report: the address is the Location. */
export function reportStatusFromRedirect(
  location: string | undefined,
  requestUrl: URL,
): ReportStatus {
  const downloadUrl = location ? absolute(location, requestUrl) : undefined;
  return { status: '', state: downloadUrl ? 'ready' : 'unknown', downloadUrl, raw: {} };
}

function absolute(address: string, base: URL): string | undefined {
  try {
    return new URL(address, base).href;
  } catch {
    return undefined;
  }
}

export interface DownloadDeps {
  /** The client's dispatcher: proxies and extra CAs apply to the download too. */
  dispatcher: Dispatcher;
  userAgent: string;
  /** Silence timeout and whole-transfer deadline of each attempt (the client's request bounds). */
  timeoutMs: number;
  deadlineMs: number;
  /** A fresh report status (used first, and again once when the address has expired). */
  fetchStatus: (signal?: AbortSignal) => Promise<ReportStatus>;
  /** Whether the API is on a loopback, link-local or private network: only then may the report's
   *  address be on one (network.ts). */
  apiIsLocal: () => Promise<boolean>;
}

/** The presigned origin refused the address (403/401): usually it expired. */
class AddressRefused extends Error {
  constructor(readonly status: number) {
    super(`refused with HTTP ${status}`);
  }
}

const MAX_REDIRECTS = 5;
const NETWORK_ATTEMPTS = 3;
/** A download that passed its deadline is tried this many times in all (as an API read). */
const DEADLINE_ATTEMPTS = 2;

export async function downloadReport(
  scanId: string,
  path: string,
  deps: DownloadDeps,
  signal?: AbortSignal,
): Promise<DownloadResult> {
  const target = resolve(path);
  let address = await readyAddress(scanId, await deps.fetchStatus(signal), deps);
  let refreshed = false;
  let deadlines = 0;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fetchToFile(address, target, deps, signal);
    } catch (error) {
      if (signal?.aborted) throw abortReason(signal);
      if (error instanceof AddressRefused && !refreshed) {
        refreshed = true;
        address = await readyAddress(scanId, await deps.fetchStatus(signal), deps);
        continue;
      }
      if (error instanceof AddressRefused) {
        throw new DownloadError(
          `Report download for scan ${scanId} was refused (HTTP ${error.status}) even with a fresh address.`,
          { code: 'DOWNLOAD_REFUSED', status: error.status },
        );
      }
      // a silence cut to the request timeout is that timeout: tried twice, as a deadline is
      const isDeadline =
        error instanceof TimeoutError &&
        (error.code === 'REQUEST_TIMEOUT' || error.bound === 'request-timeout');
      if (isDeadline && ++deadlines >= DEADLINE_ATTEMPTS) throw error;
      if (error instanceof NetworkError && attempt < NETWORK_ATTEMPTS) {
        await sleep(500 * attempt, signal);
        continue;
      }
      throw error;
    }
  }
}

async function readyAddress(
  scanId: string,
  status: ReportStatus,
  deps: DownloadDeps,
): Promise<URL> {
  if (status.state !== 'ready' || !status.downloadUrl) {
    const why =
      status.state === 'ready'
        ? 'ready, but the server gave no download address'
        : `not ready (status "${sanitizeServerText(status.status, [], 50) || 'none'}")`;
    throw new DownloadError(`The report of scan ${scanId} is ${why}.`, {
      code: 'REPORT_NOT_READY',
    });
  }
  return safeDownloadUrl(status.downloadUrl, deps);
}

/** https (plain http to a loopback host only, like the API base URL), and not on a loopback,
 *  link-local or private network unless the API is on one. Checked for every redirect hop; names
 *  are checked again when they are resolved (the download dispatcher's guarded lookup). */
async function safeDownloadUrl(href: string, deps: DownloadDeps): Promise<URL> {
  const url = new URL(href);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new DownloadError(
      `Refusing a report download address that is not https: ${describeAddress(url)}.`,
      {
        code: 'INSECURE_DOWNLOAD_ADDRESS',
      },
    );
  }
  if (isLocalHostname(url.hostname) && !(await deps.apiIsLocal())) throw localAddress(url);
  return url;
}

function localAddress(url: URL, resolved?: string): DownloadError {
  const where = resolved ? ` (it resolves to ${resolved})` : '';
  return new DownloadError(
    `Refusing a report download address on a loopback, link-local or private network: ${describeAddress(url)}${where}; the API is not on one.`,
    { code: 'LOCAL_DOWNLOAD_ADDRESS' },
  );
}

const REDIRECT_STATUSES = [301, 302, 303, 307, 308];

/**
 * GET with no credentials, following redirects by hand (each hop also without credentials). Only a
 * 2xx body is written, to `temp`.
 */
async function getFollowingRedirects(
  address: URL,
  temp: string,
  deps: DownloadDeps,
  signal?: AbortSignal,
): Promise<FileReply> {
  let url = address;
  for (let hop = 0; ; hop++) {
    const reply = await getOrNetworkError(url, temp, deps, signal);
    const location = header(reply, 'location');
    if (!REDIRECT_STATUSES.includes(reply.status) || !location) return reply;
    if (hop >= MAX_REDIRECTS) {
      throw new DownloadError(`Too many redirects from ${describeAddress(address)}.`, {
        code: 'TOO_MANY_REDIRECTS',
      });
    }
    const next = URL.parse(location, url.href);
    if (!next) {
      throw new DownloadError(
        `Refusing a report download redirect from ${describeAddress(url)}: its Location is not an address.`,
        { code: 'INVALID_DOWNLOAD_ADDRESS' },
      );
    }
    url = await safeDownloadUrl(next.href, deps);
  }
}

async function getOrNetworkError(
  url: URL,
  temp: string,
  deps: DownloadDeps,
  signal?: AbortSignal,
): Promise<FileReply> {
  try {
    // Deliberately only these two headers: no Authorization, no API Accept/Content-Type.
    const headers = { 'user-agent': deps.userAgent, accept: '*/*' };
    const { timeoutMs, deadlineMs } = deps;
    const get = { url, headers, signal, timeoutMs, deadlineMs, maxBytes: MAX_REPORT_BYTES };
    return await getIntoFile(deps.dispatcher, get, temp);
  } catch (error) {
    if (signal?.aborted) throw abortReason(signal);
    if (error instanceof DownloadError || isFileSystemError(error)) throw error;
    const refused = localAddressCause(error);
    if (refused) throw localAddress(url, refused.address);
    if (error instanceof AnswerTooLarge) {
      throw new DownloadError(
        `Report download from ${describeAddress(url)}: the report is larger than the ${bytesText(error.capBytes)} cap; it was not downloaded.`,
        { code: 'REPORT_TOO_LARGE' },
      );
    }
    if (error instanceof RequestDeadline) {
      throw new TimeoutError(
        `Report download from ${describeAddress(url)}: no complete answer within ${seconds(error.deadlineMs)} (the request timeout).`,
        {
          code: 'REQUEST_TIMEOUT',
          method: 'GET',
          mayHaveBeenProcessed: false,
          bound: 'request-timeout',
        },
      );
    }
    if (error instanceof RequestTimeout) {
      throw new TimeoutError(`Report download from ${describeAddress(url)}: ${error.message}.`, {
        code: 'TIMEOUT',
        method: 'GET',
        mayHaveBeenProcessed: false,
        bound: error.bound,
      });
    }
    throw downloadNetworkError(url, error);
  }
}

/** The guarded lookup's refusal, as undici passes it on (itself or as a cause). */
function localAddressCause(error: unknown): LocalAddressError | undefined {
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    if (e instanceof LocalAddressError) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

function downloadNetworkError(url: URL, error: unknown): NetworkError {
  const code = errorCode(error) ?? 'NETWORK_ERROR';
  const text =
    error instanceof Error ? sanitizeServerText(error.message, [], 200) : 'network error';
  return new NetworkError(
    `Report download from ${describeAddress(url)} failed: ${text} (${code}).`,
    {
      code,
      method: 'GET',
      mayHaveBeenProcessed: false,
    },
  );
}

async function fetchToFile(
  address: URL,
  target: string,
  deps: DownloadDeps,
  signal?: AbortSignal,
): Promise<DownloadResult> {
  const temp = join(dirname(target), `${partialPrefix(target)}${randomUUID()}.part`);
  try {
    const reply = await getFollowingRedirects(address, temp, deps, signal);
    if (reply.status === 403 || reply.status === 401) throw new AddressRefused(reply.status);
    if (!reply.written) {
      throw new DownloadError(
        `Report download from ${describeAddress(address)} answered HTTP ${reply.status}.`,
        { code: 'DOWNLOAD_FAILED', status: reply.status },
      );
    }
    const { bytes, sha256 } = reply.written;
    const expected = contentLength(reply);
    if (expected !== undefined && bytes !== expected) {
      throw new DownloadError(`Report download was cut short: ${bytes} of ${expected} bytes.`, {
        code: 'DOWNLOAD_INCOMPLETE',
      });
    }
    await rename(temp, target);
    return {
      path: target,
      bytes,
      sha256,
      contentType: header(reply, 'content-type') ?? 'application/octet-stream',
    };
  } catch (error) {
    await rm(temp, { force: true });
    if (signal?.aborted) throw abortReason(signal);
    throw error;
  }
}

function contentLength(reply: FileReply): number | undefined {
  const value = header(reply, 'content-length');
  return value !== undefined && /^\d+$/.test(value) ? Number(value) : undefined;
}

function isFileSystemError(error: unknown): boolean {
  const code = errorCode(error);
  return (
    code !== undefined &&
    /^E(ACCES|PERM|NOENT|NOSPC|ROFS|EXIST|ISDIR|NOTDIR|DQUOT|MFILE)$/.test(code)
  );
}

function partialPrefix(target: string): string {
  return `.${basename(target)}.`;
}

const PARTIAL_SUFFIX = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.part$/;

/**
 * Removes what an interrupted download of `path` left beside it (its temp files), e.g. after the
 * process was killed mid-download, when its own clean-up could not run. Returns how many.
 */
export async function removePartialDownloads(path: string): Promise<number> {
  const target = resolve(path);
  const prefix = partialPrefix(target);
  let names: string[];
  try {
    names = await readdir(dirname(target));
  } catch {
    return 0;
  }
  const partial = names.filter(
    (name) => name.startsWith(prefix) && PARTIAL_SUFFIX.test(name.slice(prefix.length)),
  );
  await Promise.all(partial.map((name) => rm(join(dirname(target), name), { force: true })));
  return partial.length;
}
