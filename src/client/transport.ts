// The wire: one keep-alive undici dispatcher per client (through HTTPS_PROXY/HTTP_PROXY unless
// NO_PROXY says otherwise), extra CAs from NODE_EXTRA_CA_CERTS, a timeout (on silence, not on the
// whole exchange) and an AbortSignal on every request. Redirects are never followed here: callers
// decide (the key must not cross origins).
import { readFileSync } from 'node:fs';
import * as tls from 'node:tls';
import type { Dispatcher } from 'undici';
import { Agent, EnvHttpProxyAgent, request } from './undici-parts.js';
import { abortReason } from './abort.js';
import type { HttpReply } from './envelope.js';
import type { DownloadRoute } from './download.js';

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

/**
 * Fires when nothing arrived for `ms`: bounds the wait for the headers and each gap between body
 * chunks, not the whole exchange, so a large answer that keeps flowing on a slow link is not cut
 * (and then re-requested) as if it had stalled.
 */
class SilenceTimeout {
  private readonly controller = new AbortController();
  private lastProgress = performance.now();
  private timer: NodeJS.Timeout;

  constructor(private readonly ms: number) {
    this.timer = setTimeout(() => this.check(), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  progress(): void {
    this.lastProgress = performance.now();
  }

  stop(): void {
    clearTimeout(this.timer);
  }

  private check(): void {
    const quiet = performance.now() - this.lastProgress;
    if (quiet >= this.ms) this.controller.abort(new RequestTimeout(this.ms));
    else this.timer = setTimeout(() => this.check(), this.ms - quiet);
  }
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

/** Report downloads go straight to the storage origin, unless a proxy is configured: then through
 *  the dispatcher, which tunnels and applies NO_PROXY. */
export function downloadRoute(
  env: Record<string, string | undefined>,
  dispatcher: Dispatcher,
): DownloadRoute {
  if (pick(env, 'HTTP_PROXY') || pick(env, 'HTTPS_PROXY')) return { proxy: dispatcher };
  return { direct: { ca: extraCertificates(env) } };
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
  const silence = new SilenceTimeout(req.timeoutMs);
  const signal = req.signal ? AbortSignal.any([req.signal, silence.signal]) : silence.signal;
  try {
    const res = await request(dispatcher, req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: req.headers,
      body: req.body,
      signal,
    });
    silence.progress();
    const chunks: Buffer[] = [];
    for await (const chunk of res.body as AsyncIterable<Buffer>) {
      silence.progress();
      chunks.push(chunk);
    }
    return { status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) };
  } catch (error) {
    if (req.signal?.aborted) throw abortReason(req.signal);
    if (silence.signal.aborted) throw new RequestTimeout(req.timeoutMs);
    throw error;
  } finally {
    silence.stop();
  }
}
