// The wire: one keep-alive undici dispatcher per client (through HTTPS_PROXY/HTTP_PROXY unless
// NO_PROXY says otherwise), extra CAs from NODE_EXTRA_CA_CERTS, and on every request an
// AbortSignal and three bounds whatever the far end does: a silence timeout (undici's
// headersTimeout and bodyTimeout: nothing received for that long), a total deadline (an answer that
// trickles forever still ends), and a size cap on the answer (one that never ends is not
// collected into memory). Redirects are never followed here: callers decide (the key must not
// cross origins).
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { abortReason } from './abort.js';
import type { HttpReply } from './envelope.js';
import type { Lookup } from './network.js';

/** The largest API answer read (results are paginated; 50,000 results in one page are ~30 MB). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /** Silence: the wait for the headers and each gap between body chunks. */
  timeoutMs: number;
  /** The whole exchange, from sending to the last byte of the answer. */
  deadlineMs: number;
  /** The largest answer read; default MAX_ANSWER_BYTES. */
  capBytes?: number;
  /** Takes a success answer's body as it arrives instead of gathering it (a list's pages). */
  sink?: BodySink;
}

/** What takes an answer's body a piece at a time (list-stream.ts cuts a list into its items). */
export interface BodySink {
  write(chunk: Buffer): void;
  /** What the caller is to see of the body once the sink took the rest. */
  end(): Buffer;
}

/** A sink refused what it was given (an item that is not one): the exchange ends with `reason`,
 *  which is the caller's answer, not a network failure to retry. */
export class SinkRefused extends Error {
  constructor(readonly reason: unknown) {
    super('the answer was refused');
  }
}

/** Which limit a request ran into: the request timeout (the whole exchange's, or a silence limit
 *  cut to it), which its setting moves, or the fixed silence limit, which no setting lengthens. */
export type TimeoutBound = 'request-timeout' | 'silence';

/** Nothing arrived for the request's silence limit (as opposed to the caller's signal). When that
 *  limit is the request timeout (never longer: the silence limit is cut to it), it says so. */
export class RequestTimeout extends Error {
  readonly bound: TimeoutBound;
  constructor(
    readonly timeoutMs: number,
    deadlineMs: number,
  ) {
    const bound: TimeoutBound = timeoutMs >= deadlineMs ? 'request-timeout' : 'silence';
    super(
      `nothing received for ${seconds(timeoutMs)}${bound === 'request-timeout' ? ' (the request timeout)' : ''}`,
    );
    this.bound = bound;
  }
}

/** The exchange was not complete within its deadline, however much kept arriving. `answered`:
 *  the answer had begun (its status and headers came); without it nothing came at all. */
export class RequestDeadline extends Error {
  constructor(
    readonly deadlineMs: number,
    readonly answered = true,
  ) {
    super(`${answered ? 'no complete answer' : 'no answer'} within ${seconds(deadlineMs)}`);
  }
}

/** The answer grew past the cap; the rest was not read. */
export class AnswerTooLarge extends Error {
  constructor(readonly capBytes: number) {
    super(`the answer exceeded ${bytesText(capBytes)}; stopped reading`);
  }
}

/** "120 s", "0.15 s": a limit to the millisecond (rounding it to a tenth said 0.1 s of 150 ms). */
export function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(3))} s`;
}

/** "64 MiB", "2 GiB", "1.5 KiB": a size as the docs state the caps. */
export function bytesText(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${Number.isInteger(value) ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A deadline for one exchange combined with the caller's signal. `clear` ends it once the
 *  exchange is over: a deadline left to run keeps its exchange reachable until it fires (5,000
 *  pages of a read, each held for the request timeout). */
export function withDeadline(
  deadlineMs: number,
  signal: AbortSignal | undefined,
): { signal: AbortSignal; expired: () => boolean; clear: () => void } {
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException('The deadline passed', 'TimeoutError')),
    deadlineMs,
  );
  timer.unref();
  return {
    signal: signal ? AbortSignal.any([signal, deadline.signal]) : deadline.signal,
    expired: () => deadline.signal.aborted,
    clear: () => clearTimeout(timer),
  };
}

/** The Content-Length header as a number, undefined when absent or not a number. */
export function declaredLength(
  headers: Record<string, string | string[] | undefined>,
): number | undefined {
  const value = headers['content-length'];
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : undefined;
}

/** undici's own silence timeouts: waiting for the headers, or for the next piece of the body. */
export function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

/** `lookup` resolves the names of direct connections (through a proxy, the proxy resolves them). */
export function createDispatcher(
  env: Record<string, string | undefined>,
  options: { lookup?: Lookup } = {},
): Dispatcher {
  const ca = extraCertificates(env);
  const tlsOptions = ca ? { ca } : undefined;
  const connect = options.lookup ? { ...tlsOptions, lookup: options.lookup } : tlsOptions;
  const common = { connect };
  const httpProxy = pick(env, 'HTTP_PROXY');
  const httpsProxy = pick(env, 'HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return new Agent(common);
  // Explicit '' keeps undici from reading process.env behind our back (env may be a test's own).
  return new EnvHttpProxyAgent({
    ...common,
    httpProxy: httpProxy ?? '',
    httpsProxy: httpsProxy ?? httpProxy ?? '',
    noProxy: pick(env, 'NO_PROXY') ?? '',
    requestTls: tlsOptions,
    proxyTls: tlsOptions,
  });
}

function pick(env: Record<string, string | undefined>, name: string): string | undefined {
  const value = env[name] ?? env[name.toLowerCase()];
  return value && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Node adds NODE_EXTRA_CA_CERTS to its default store only when the variable is set at process start,
 * and only for node:tls defaults. Reading the file here makes it work for undici whatever `env` the
 * client was given. Passing `ca` replaces the defaults, so they are included. An unreadable file is
 * ignored, as Node itself does (it only warns).
 */
export function extraCertificates(env: Record<string, string | undefined>): string[] | undefined {
  const file = pick(env, 'NODE_EXTRA_CA_CERTS');
  if (!file) return undefined;
  let extra: string;
  try {
    extra = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const defaults =
    typeof tls.getCACertificates === 'function'
      ? tls.getCACertificates('default')
      : [...tls.rootCertificates];
  return [...defaults, extra];
}

/** One exchange with the whole body read (at most capBytes); rejects with the caller's
 *  abort reason, a RequestTimeout, a RequestDeadline, an AnswerTooLarge, or the network error as
 *  undici raised it. */
export async function exchange(dispatcher: Dispatcher, req: WireRequest): Promise<HttpReply> {
  const deadline = withDeadline(req.deadlineMs, req.signal);
  let answered = false;
  try {
    const res = await request(req.url, {
      dispatcher,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: deadline.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    answered = true;
    const success = res.statusCode >= 200 && res.statusCode < 300;
    const body = await readCapped(
      res.body,
      declaredLength(res.headers),
      req.capBytes ?? MAX_ANSWER_BYTES,
      success ? req.sink : undefined,
    );
    return { status: res.statusCode, headers: res.headers, body };
  } catch (error) {
    if (req.signal?.aborted) throw abortReason(req.signal);
    if (error instanceof SinkRefused) throw error;
    if (deadline.expired()) throw new RequestDeadline(req.deadlineMs, answered);
    if (isUndiciTimeout(error)) throw new RequestTimeout(req.timeoutMs, req.deadlineMs);
    throw error;
  } finally {
    deadline.clear();
  }
}

/** The whole body (or, given a sink, what the sink leaves of it), or AnswerTooLarge as soon as it
 *  is (or says it will be) over `cap`: the rest is never read, and the connection is dropped. */
async function readCapped(
  body: Dispatcher.ResponseData['body'],
  declared: number | undefined,
  cap: number,
  sink: BodySink | undefined,
): Promise<Buffer> {
  if (declared !== undefined && declared > cap) {
    drop(body);
    throw new AnswerTooLarge(cap);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > cap) {
      drop(body);
      throw new AnswerTooLarge(cap);
    }
    if (!sink) chunks.push(chunk);
    else {
      try {
        sink.write(chunk);
      } catch (error) {
        drop(body);
        throw new SinkRefused(error);
      }
    }
  }
  return sink ? sink.end() : Buffer.concat(chunks, size);
}

/** The rest of a body not read: the connection is dropped (undici then reports the body as
 *  aborted, which is what was meant: nobody is left to hear it). */
function drop(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}
