// The wire: one keep-alive undici dispatcher per client (through HTTPS_PROXY/HTTP_PROXY unless
// NO_PROXY says otherwise), extra CAs from NODE_EXTRA_CA_CERTS, a timeout (on silence, not on the
// whole exchange: undici's headersTimeout and bodyTimeout) and an AbortSignal on every request.
// Redirects are never followed here: callers decide (the key must not cross origins).
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import { Agent, EnvHttpProxyAgent, request, type Dispatcher } from 'undici';
import { abortReason } from './abort.js';
import type { HttpReply } from './envelope.js';

export interface WireRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  timeoutMs: number;
}

/** Nothing arrived for the request's timeout (as opposed to the caller's signal). */
export class RequestTimeout extends Error {
  constructor(readonly timeoutMs: number) {
    super(`nothing received for ${timeoutMs} ms`);
  }
}

/** undici's own silence timeouts: waiting for the headers, or for the next piece of the body. */
export function isUndiciTimeout(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}

export function createDispatcher(env: Record<string, string | undefined>): Dispatcher {
  const ca = extraCertificates(env);
  const tlsOptions = ca ? { ca } : undefined;
  const common = { connect: tlsOptions };
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

/** One exchange with the whole body read; rejects with the caller's abort reason, a RequestTimeout,
 *  or the network error as undici raised it. */
export async function exchange(dispatcher: Dispatcher, req: WireRequest): Promise<HttpReply> {
  try {
    const res = await request(req.url, {
      dispatcher,
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      headersTimeout: req.timeoutMs,
      bodyTimeout: req.timeoutMs,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    return { status: res.statusCode, headers: res.headers, body };
  } catch (error) {
    if (req.signal?.aborted) throw abortReason(req.signal);
    if (isUndiciTimeout(error)) throw new RequestTimeout(req.timeoutMs);
    throw error;
  }
}
