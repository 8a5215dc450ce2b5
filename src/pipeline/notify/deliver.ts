// One message to a webhook, bounded whatever the far end does: a silence timeout and a deadline
// per try, a small cap on the answer, a total budget, a 429 (or 503) honoured with its
// Retry-After within that budget, at most a few tries, and no redirect followed (the address is a
// secret: it goes to its own origin only). The outcome is data; nothing here throws or logs, and
// no word of the outcome holds the address.

import {
  redactSecrets,
  abortReason,
  sleep,
  parseRetryAfterMs,
  displayLine,
  createDispatcher,
  exchange,
  seconds,
  RequestDeadline,
  RequestTimeout,
  AnswerTooLarge,
} from '../../client/index.js';

export interface DeliveryOptions {
  env?: Record<string, string | undefined>;
  signal?: AbortSignal;
  /** Silence allowed per try (headers, then each piece of the answer). Default 10 s. */
  timeoutMs?: number;
  /** Every try and every wait between them. Default 30 s. */
  budgetMs?: number;
  /** Default 3. */
  maxTries?: number;
}

export type Delivery = { sent: true; tries: number } | { sent: false; why: string };

export const DEFAULT_NOTIFY_TIMEOUT_MS = 10_000;
export const DEFAULT_NOTIFY_BUDGET_MS = 30_000;
export const DEFAULT_NOTIFY_TRIES = 3;
/** A webhook answers "ok" or an error word: anything longer is not read. */
const ANSWER_CAP_BYTES = 16 * 1024;
/** Network errors after which the message provably never left: safe to send again. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** Posts `body` (JSON) to `webhook`. */
export async function deliver(
  webhook: string,
  body: string,
  options: DeliveryOptions = {},
): Promise<Delivery> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_NOTIFY_TIMEOUT_MS;
  const budget = AbortSignal.timeout(options.budgetMs ?? DEFAULT_NOTIFY_BUDGET_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, budget]) : budget;
  const dispatcher = createDispatcher(options.env ?? {});
  const started = Date.now();
  const left = () => (options.budgetMs ?? DEFAULT_NOTIFY_BUDGET_MS) - (Date.now() - started);
  const maxTries = options.maxTries ?? DEFAULT_NOTIFY_TRIES;
  try {
    for (let tries = 1; ; tries++) {
      const outcome = await tryOnce(webhook, body, { dispatcher, signal, timeoutMs, left });
      if (outcome.kind === 'sent') return { sent: true, tries };
      const why = withoutWebhook(outcome.why, webhook);
      if (outcome.kind === 'final' || tries >= maxTries)
        return { sent: false, why: tried(why, tries) };
      const waitMs = outcome.retryAfterMs ?? 1000 * tries;
      if (waitMs >= left()) {
        return { sent: false, why: tried(`${why}; the wait it asks for does not fit`, tries) };
      }
      await sleep(waitMs, signal);
    }
  } catch (error) {
    if (options.signal?.aborted) return { sent: false, why: 'the job was cancelled' };
    if (budget.aborted)
      return {
        sent: false,
        why: `no answer within ${seconds(options.budgetMs ?? DEFAULT_NOTIFY_BUDGET_MS)}`,
      };
    return { sent: false, why: withoutWebhook(errorWords(error), webhook) };
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
}

type TryOutcome =
  | { kind: 'sent' }
  /** Worth another try (after `retryAfterMs` when the far end said). */
  | { kind: 'again'; why: string; retryAfterMs?: number }
  | { kind: 'final'; why: string };

async function tryOnce(
  webhook: string,
  body: string,
  context: {
    dispatcher: ReturnType<typeof createDispatcher>;
    signal: AbortSignal;
    timeoutMs: number;
    left: () => number;
  },
): Promise<TryOutcome> {
  let reply;
  try {
    reply = await exchange(context.dispatcher, {
      method: 'POST',
      url: new URL(webhook),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body,
      signal: context.signal,
      timeoutMs: context.timeoutMs,
      deadlineMs: Math.max(1, Math.min(2 * context.timeoutMs, context.left())),
      capBytes: ANSWER_CAP_BYTES,
    });
  } catch (error) {
    if (context.signal.aborted) throw abortReason(context.signal);
    const code = (error as { code?: unknown }).code;
    const why = errorWords(error);
    return typeof code === 'string' && NOT_SENT_CODES.has(code)
      ? { kind: 'again', why }
      : { kind: 'final', why };
  }
  const { status } = reply;
  if (status >= 200 && status < 300) return { kind: 'sent' };
  const answer = displayLine(withoutWebhook(reply.body.toString('utf8'), webhook)).slice(0, 100);
  const said = answer === '' ? '' : `: ${answer}`;
  if (status >= 300 && status < 400) {
    return {
      kind: 'final',
      why: `the webhook answered with a redirect (HTTP ${status}), not followed`,
    };
  }
  if (status === 429 || status === 503) {
    const header = reply.headers['retry-after'];
    const retryAfterMs = parseRetryAfterMs(Array.isArray(header) ? header[0] : header);
    return { kind: 'again', why: `the webhook answered HTTP ${status}${said}`, retryAfterMs };
  }
  return { kind: 'final', why: `the webhook answered HTTP ${status}${said}` };
}

function errorWords(error: unknown): string {
  if (error instanceof RequestTimeout) return `no answer within ${seconds(error.timeoutMs)}`;
  if (error instanceof RequestDeadline || error instanceof AnswerTooLarge) return error.message;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  return displayLine(typeof code === 'string' ? `${code}: ${message}` : message).slice(0, 200);
}

function tried(why: string, tries: number): string {
  return tries > 1 ? `${why} (${tries} tries)` : why;
}

/** The address and every part of it that carries its signature (its path, its query, each query
 *  value and token-like path segment) never appear in a word of the outcome, in any form a reader
 *  would find them in: decoded, in another case, escaped, base64, reversed. */
export function withoutWebhook(text: string, webhook: string): string {
  return redactSecrets(text, [webhook], { replacement: '[webhook]' });
}
