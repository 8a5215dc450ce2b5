// When to retry and how long to wait. Pure functions: the request loop (requester.ts) applies them.
//
// Rules (see README of the client in index.ts):
// - 429 (RATE_LIMITED or no code) and 503 SERVICE_STARTING: the server provably did not act, so
//   every method is retried, POST included, for as long as the time budget (maxElapsedMs) allows;
//   maxBusyAttempts is only a safety net.
// - SCAN_PLAN_LIMIT_REACHED (any status) and every other 4xx: never retried.
// - Bare 502/503/504, timeouts and connection failures: retried only when the request is safe to
//   repeat (GET/HEAD, and the idempotent PATCH/DELETE routes), or when the connection provably never
//   carried the request (refused, DNS failure, connect timeout). These keep maxAttempts, except
//   that nothing answering at all (refused, no such host) gets 3 attempts and a failed TLS
//   handshake 1: those say the address is wrong, and the user should hear it in seconds.
import type { RetryEvent, RetryPolicy } from './types.js';

export type RetryReason = RetryEvent['reason'];
export type ResolvedRetryPolicy = Required<RetryPolicy>;

export const DEFAULT_RETRY_POLICY: ResolvedRetryPolicy = {
  maxAttempts: 6,
  maxBusyAttempts: 1_000,
  maxElapsedMs: 120_000,
  baseDelayMs: 500,
  maxDelayMs: 30_000,
  retryAfterCapMs: 60_000,
};

export function resolveRetryPolicy(policy: RetryPolicy | undefined): ResolvedRetryPolicy {
  const merged = { ...DEFAULT_RETRY_POLICY };
  for (const [name, value] of Object.entries(policy ?? {})) {
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) {
      merged[name as keyof ResolvedRetryPolicy] = value;
    }
  }
  merged.maxAttempts = Math.max(1, Math.floor(merged.maxAttempts));
  merged.maxBusyAttempts = Math.max(1, Math.floor(merged.maxBusyAttempts));
  return merged;
}

/** Full jitter: a random delay in [0, min(maxDelay, base * 2^(attempt-1))]; attempt is 1-based. */
export function backoffDelayMs(
  attempt: number,
  policy: ResolvedRetryPolicy,
  random: () => number = Math.random,
) {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(random() * ceiling);
}

/** Retry-After as delta-seconds or an HTTP-date; undefined when absent or unreadable. */
export function parseRetryAfterMs(
  value: string | undefined,
  nowMs: number = Date.now(),
): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (text === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - nowMs);
}

/**
 * The wait before the next attempt. A server's Retry-After is honoured (up to the cap) plus a random
 * extra in [0, Retry-After] (at most maxDelayMs): a sliding window tells every refused client the
 * same instant, so a small jitter would bring them all back together. `minDelayMs` is what must be
 * waited at least (the Retry-After itself), for a caller that shortens the wait to fit its budget.
 */
export function retryDelay(
  attempt: number,
  policy: ResolvedRetryPolicy,
  retryAfterMs: number | undefined,
  random: () => number = Math.random,
): { delayMs: number; minDelayMs: number; fromRetryAfter: boolean } {
  if (retryAfterMs !== undefined && retryAfterMs > 0) {
    const honoured = Math.min(retryAfterMs, policy.retryAfterCapMs);
    const spread = Math.min(honoured, policy.maxDelayMs);
    return {
      delayMs: Math.round(honoured + random() * spread),
      minDelayMs: honoured,
      fromRetryAfter: true,
    };
  }
  return { delayMs: backoffDelayMs(attempt, policy, random), minDelayMs: 0, fromRetryAfter: false };
}

/** The server refused without acting (rate limit, warm-up): retried until the time budget ends. */
export function isServerBusy(reason: RetryReason): boolean {
  return reason === 'rate-limited' || reason === 'service-starting';
}

/** Why an HTTP error reply may be retried, or undefined when it must not be. */
export function retryReasonForReply(
  status: number,
  code: string | undefined,
  idempotent: boolean,
): RetryReason | undefined {
  const c = code?.toUpperCase();
  if (c === 'SCAN_PLAN_LIMIT_REACHED') return undefined;
  if (status === 429 && (c === undefined || c === 'RATE_LIMITED' || c === 'TOO_MANY_REQUESTS'))
    return 'rate-limited';
  if (status === 503 && c === 'SERVICE_STARTING') return 'service-starting';
  if (idempotent && (status === 502 || status === 503 || status === 504)) return 'server-error';
  return undefined;
}

/** Connection errors that prove the request never left: safe to retry whatever the method. */
const NEVER_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; depth < 4 && current && typeof current === 'object'; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** Nothing answers at the address (refused, no such host): a retry or two covers a restart, more
 *  only delays the line that says the address is wrong. */
const NOTHING_ANSWERS_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND']);
const NOTHING_ANSWERS_ATTEMPTS = 3;

/** The TLS handshake failed: a certificate that is not trusted, or not TLS at the far end. Trying
 *  again meets the same certificate. */
export function isTlsFailure(code: string | undefined): boolean {
  return (
    code !== undefined &&
    (/^(ERR_TLS_|ERR_SSL_|CERT_)/.test(code) ||
      [
        'DEPTH_ZERO_SELF_SIGNED_CERT',
        'SELF_SIGNED_CERT_IN_CHAIN',
        'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
        'UNABLE_TO_GET_ISSUER_CERT',
        'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
        'EPROTO',
      ].includes(code))
  );
}

/** Attempts in all for a connection that failed with `code`: fewer than the policy's when the
 *  failure says the address itself is wrong, so that line comes in seconds, not after a minute. */
export function connectionAttempts(code: string | undefined, policy: ResolvedRetryPolicy): number {
  if (isTlsFailure(code)) return 1;
  if (code !== undefined && NOTHING_ANSWERS_CODES.has(code)) {
    return Math.min(policy.maxAttempts, NOTHING_ANSWERS_ATTEMPTS);
  }
  return policy.maxAttempts;
}

export function provablyNotSent(error: unknown): boolean {
  const code = errorCode(error);
  return code !== undefined && NEVER_SENT_CODES.has(code);
}
