// Client options: validation (before any request), base URL resolution, route URL building.
import { ConfigError, ValidationError } from './errors.js';
import type { ClientOptions } from './types.js';

/** Kept equal to package.json's version (a test checks it); the bundle carries no package.json. */
export const CLIENT_VERSION = '0.1.0';

export const API_KEY_PREFIX = 'ak_live_';

/** Defaults of the two bounds on every request (see transport.ts). */
export const DEFAULT_SILENCE_TIMEOUT_MS = 30_000;
export const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;

export interface ResolvedConfig {
  apiKey: string;
  /** The key and every other secret the run holds (ClientOptions.secrets): kept out of answers
   *  and messages. */
  secrets: readonly string[];
  /** Normalised base URL without a trailing slash. */
  baseUrl: string;
  env: Record<string, string | undefined>;
  /** Silence: never longer than the request timeout. */
  timeoutMs: number;
  /** The whole exchange of one request (each attempt). */
  requestTimeoutMs: number;
  userAgent: string;
}

/** Throws ConfigError for a missing or malformed key or base URL. Never echoes the key. */
export function validateClientOptions(options: ClientOptions): ResolvedConfig {
  if (options === null || typeof options !== 'object')
    throw new ConfigError('Client options are required.');
  const env = options.env ?? process.env;
  validateApiKey(options.apiKey);
  // The seed gives the service's address only as a placeholder ({base_url}): there is no default.
  const address = options.baseUrl ?? nonEmpty(env.SERVICE_API_URL);
  if (address === undefined) {
    throw new ConfigError('No API address: pass baseUrl or set SERVICE_API_URL.');
  }
  const baseUrl = validateBaseUrl(address);
  const requestTimeoutMs = positiveMs(
    'requestTimeoutMs',
    options.requestTimeoutMs,
    DEFAULT_REQUEST_TIMEOUT_MS,
  );
  const silenceMs = positiveMs('timeoutMs', options.timeoutMs, DEFAULT_SILENCE_TIMEOUT_MS);
  const config = {
    baseUrl,
    timeoutMs: Math.min(silenceMs, requestTimeoutMs),
    requestTimeoutMs,
    userAgent: userAgent(options.userAgentSuffix),
  } as ResolvedConfig;
  // Not enumerable: a config that gets logged or serialised does not carry the key along (nor the
  // environment, which usually holds SERVICE_API_KEY).
  Object.defineProperty(config, 'apiKey', { value: options.apiKey, enumerable: false });
  // The run's own list when it holds the key already: every tenant's client shares one, compiled
  // once for redaction.
  const others = options.secrets ?? [];
  const secrets = others.includes(options.apiKey) ? others : [options.apiKey, ...others];
  Object.defineProperty(config, 'secrets', { value: secrets, enumerable: false });
  Object.defineProperty(config, 'env', { value: env, enumerable: false });
  return config;
}

function positiveMs(name: string, value: number | undefined, fallback: number): number {
  const ms = value ?? fallback;
  if (!Number.isFinite(ms) || ms <= 0) {
    throw new ConfigError(`${name} must be a positive number of milliseconds.`);
  }
  return ms;
}

function validateApiKey(apiKey: unknown): void {
  if (typeof apiKey !== 'string' || apiKey.length === 0) {
    throw new ConfigError('An API key is required (SERVICE_API_KEY); none was given.');
  }
  if (/\s/.test(apiKey)) {
    throw new ConfigError('The API key contains whitespace; check for a stray space or newline.');
  }
  if (!apiKey.startsWith(API_KEY_PREFIX)) {
    throw new ConfigError(`The API key must start with "${API_KEY_PREFIX}".`);
  }
  if (apiKey.length === API_KEY_PREFIX.length) {
    throw new ConfigError(`The API key has nothing after "${API_KEY_PREFIX}".`);
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value !== undefined && value.trim() !== '' ? value.trim() : undefined;
}

export function validateBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(
      `The API base URL is not a valid URL: ${JSON.stringify(raw.slice(0, 200))}.`,
    );
  }
  if (url.username || url.password)
    throw new ConfigError('The API base URL must not carry credentials.');
  if (url.search || url.hash)
    throw new ConfigError('The API base URL must not carry a query or fragment.');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopbackHost(url.hostname))) {
    throw new ConfigError(
      `The API base URL must use https (plain http is allowed only for loopback hosts): ${url.origin}.`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** 127.0.0.0/8, ::1 and localhost (plus *.localhost, which resolves to loopback by RFC 6761). */
export function isLoopbackHost(hostname: string): boolean {
  // As URL gives it: lower-case, IPv4 in dotted decimal (127.1 → 127.0.0.1), IPv6 compressed
  // (::ffff:127.0.0.1 → ::ffff:7f00:1); the written-out forms are read too.
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  const name = host.replace(/\.$/, ''); // `localhost.`, fully qualified, is the same name
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)) return true;
  return (
    host === '::1' ||
    host === '0:0:0:0:0:0:0:1' ||
    /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(host) ||
    /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host)
  );
}

function userAgent(suffix: string | undefined): string {
  const base = `tenant-scan/${CLIENT_VERSION}`;
  const clean = suffix?.replace(/[^\x20-\x7e]/g, '').trim();
  return clean ? `${base} ${clean}` : base;
}

/** Joins a route path to the base URL's path (`new URL('/x', base)` would drop the base path). */
export function routeUrl(
  baseUrl: string,
  path: string,
  query?: Record<string, string | number | undefined>,
): URL {
  const url = new URL(baseUrl.replace(/\/+$/, '') + '/' + path.replace(/^\/+/, ''));
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url;
}

/** Ids the service makes (scan ids, report ids) that are safe anywhere: a shell word, a file name,
 *  an output, a Markdown line. Letters, digits and `-_.:`, at most 128, not only dots. */
export function isPlainIdentifier(value: unknown): value is string {
  return (
    typeof value === 'string' && /^[A-Za-z0-9_.:-]{1,128}$/.test(value) && !/^\.+$/.test(value)
  );
}

/** The longest id put in a route path. */
const MAX_SEGMENT_CHARS = 1024;

/** Whether an id can name a resource in a route path at all (segment() accepts it). */
export function isAddressable(value: unknown): value is string {
  if (typeof value !== 'string' || value === '' || value.length > MAX_SEGMENT_CHARS) return false;
  if (value === '.' || value === '..') return false;
  return !LONE_SURROGATE.test(value); // encodeURIComponent throws on one
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Encodes one path segment (an id) so it cannot escape its place in the route: `.` and `..` would
 *  climb the path even encoded (URLs treat %2E%2E as ..), so they are refused. */
export function segment(value: string): string {
  if (!isAddressable(value)) {
    throw new ValidationError('An id is required for this call (one path segment, not . or ..).', {
      code: 'INVALID_ARGUMENT',
    });
  }
  return encodeURIComponent(value);
}
