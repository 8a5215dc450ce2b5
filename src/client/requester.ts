// One API call, end to end: pace, send with the key, retry what the rules allow, unwrap or map to a
// typed error. Everything that talks to the API origin goes through here.
import type { Dispatcher } from 'undici';
import { abortReason, sleep } from './abort.js';
import { routeUrl, type ResolvedConfig } from './config.js';
import {
  errorCodeOf,
  header,
  parseTextWithoutSecrets,
  toApiError,
  unwrapSuccess,
  type CallContext,
  type HttpReply,
  type Unwrapped,
} from './envelope.js';
import { NetworkError, ServerError, TimeoutError, type TenantApiError } from './errors.js';
import type { Pacer, Turn } from './pacer.js';
import type { ServerClock } from './server-time.js';
import { describeAddress, sanitizeServerText } from './redact.js';
import {
  connectionAttempts,
  errorCode,
  isServerBusy,
  parseRetryAfterMs,
  provablyNotSent,
  retryDelay,
  retryReasonForReply,
  type ResolvedRetryPolicy,
  type RetryReason,
} from './retry.js';
import {
  AnswerTooLarge,
  RequestDeadline,
  RequestTimeout,
  SinkRefused,
  exchange,
  type BodySink,
} from './transport.js';
import { LIST_MARKER, ListSplitter, type ListItemSink } from './list-stream.js';
import type { RetryEvent } from './types.js';

export interface ApiCall {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'HEAD';
  /** Route path relative to the base URL, e.g. "/scans/abc". */
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  signal?: AbortSignal;
  /** Safe to send twice. Default: GET/HEAD/PUT/DELETE yes, POST/PATCH no (routes opt in). */
  idempotent?: boolean;
  /** Statuses handed back as they are instead of raised (e.g. a report's 302/303). */
  passThrough?: (status: number) => boolean;
  /** The largest answer read (default MAX_ANSWER_BYTES): a paginated read's budget left. */
  capBytes?: number;
  /** A list answer's items are handed to a sink of each attempt as they arrive (list-stream.ts),
   *  and the answer's `data` holds a marker in the list's place (`markedList`). */
  listItems?: () => ListItemSink;
}

export interface RequesterDeps {
  config: ResolvedConfig;
  policy: ResolvedRetryPolicy;
  dispatcher: Dispatcher;
  pacer: Pacer;
  onRetry?: (event: RetryEvent) => void;
  /** Records the Date header of every API response. */
  serverClock?: ServerClock;
}

/** Failures so far of one call, counted apart: busy answers are bounded by time, others by count. */
interface RetryBudget {
  started: number;
  busy: number;
  other: number;
  /** Attempts that passed the request timeout: a far end that slow gets one more try, not five. */
  deadlines: number;
}

/** A read that passed its deadline is tried again this many times at most. */
const DEADLINE_RETRIES = 1;

const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'PUT', 'DELETE']);

export class Requester {
  constructor(private readonly deps: RequesterDeps) {}

  /** The unwrapped `data` (and `meta`) of a successful call. */
  async call(call: ApiCall): Promise<Unwrapped> {
    return this.unwrap(await this.send(call), call);
  }

  unwrap(reply: HttpReply, call: ApiCall): Unwrapped {
    return unwrapSuccess(reply, this.context(call));
  }

  /** The reply of a successful (2xx or passed-through) call, after retries; typed error otherwise. */
  async send(call: ApiCall): Promise<HttpReply> {
    const { pacer } = this.deps;
    const idempotent = call.idempotent ?? IDEMPOTENT_METHODS.has(call.method);
    const budget: RetryBudget = { started: Date.now(), busy: 0, other: 0, deadlines: 0 };
    let fateUnknownBefore = false;
    for (let attempt = 1; ; attempt++) {
      const turn = await pacer.acquire(call.signal);
      let reply: HttpReply;
      try {
        reply = await exchange(this.deps.dispatcher, this.wireRequest(call));
        this.deps.serverClock?.observe(header(reply, 'date'));
      } catch (error) {
        if (call.signal?.aborted) throw abortReason(call.signal);
        if (error instanceof SinkRefused) throw error.reason;
        if (error instanceof AnswerTooLarge) throw this.tooLarge(call, error, idempotent);
        const failure = this.networkFailure(call, error, idempotent, attempt);
        if (error instanceof RequestDeadline && ++budget.deadlines > DEADLINE_RETRIES) {
          throw failure.error;
        }
        if (
          !failure.retryable ||
          budget.other + 1 >= connectionAttempts(errorCode(error), this.deps.policy) ||
          !(await this.backOff(call, { attempt, turn }, budget, networkReason(error), undefined))
        ) {
          throw failure.error;
        }
        fateUnknownBefore ||= !provablyNotSent(error);
        continue;
      }
      if (isSuccess(reply.status) || call.passThrough?.(reply.status)) {
        turn.succeeded();
        return reply;
      }
      if (call.method === 'DELETE' && reply.status === 404 && fateUnknownBefore) {
        // An earlier attempt whose answer was lost (or was a 5xx) did the deletion.
        return { status: 204, headers: reply.headers, body: Buffer.alloc(0) };
      }
      const reason = retryReasonForReply(reply.status, errorCodeOf(reply), idempotent);
      if (!reason || !(await this.backOff(call, { attempt, turn }, budget, reason, reply))) {
        throw toApiError(reply, this.context(call));
      }
      // A bare 5xx may come after the service acted (a gateway gave up waiting for it).
      fateUnknownBefore ||= reason === 'server-error';
    }
  }

  private wireRequest(call: ApiCall) {
    const { config } = this.deps;
    const headers: Record<string, string> = {
      authorization: `Bearer ${config.apiKey}`,
      accept: 'application/json',
      'user-agent': config.userAgent,
    };
    let body: string | undefined;
    if (call.body !== undefined) {
      body = JSON.stringify(call.body);
      headers['content-type'] = 'application/json';
    }
    return {
      method: call.method,
      url: routeUrl(config.baseUrl, call.path, call.query),
      headers,
      body,
      signal: call.signal,
      timeoutMs: config.timeoutMs,
      deadlineMs: config.requestTimeoutMs,
      capBytes: call.capBytes,
      sink: call.listItems ? this.listSink(call.listItems()) : undefined,
    };
  }

  /** A list answer cut into its items as it streams in, each parsed without the key. */
  private listSink(items: ListItemSink): BodySink {
    const secrets = this.deps.config.secrets;
    const splitter = new ListSplitter(
      { element: (list, text) => items.item(list, parseTextWithoutSecrets(text, secrets)) },
      LIST_MARKER,
    );
    return {
      write(chunk) {
        items.received(chunk.length);
        splitter.write(chunk);
      },
      end: () => splitter.end(),
    };
  }

  /** Not retried: a second read would be as large. The server did answer, so a write it answered
   *  happened, though its answer is unknown: like a lost answer, it may have been processed. */
  private tooLarge(call: ApiCall, error: AnswerTooLarge, idempotent: boolean): TenantApiError {
    const where = `${call.method} ${call.path}`;
    const details = { code: 'ANSWER_TOO_LARGE', method: call.method, path: call.path };
    if (idempotent) return new ServerError(`${where}: ${error.message}`, details);
    return new NetworkError(
      `${where}: ${error.message}. The server answered, so it may have acted; the request was NOT sent again: check the current state before retrying.`,
      { ...details, mayHaveBeenProcessed: true },
    );
  }

  /**
   * Waits before the next attempt if the budget allows; false when it does not. "The server did not
   * act" answers (429, 503 warm-up) are bounded by time (maxElapsedMs, the wait shortened to fit if
   * the server's Retry-After still does) with maxBusyAttempts as a safety net; other failures by
   * maxAttempts too. A 429 also slows the whole client down (pacer).
   */
  private async backOff(
    call: ApiCall,
    { attempt, turn }: { attempt: number; turn: Turn },
    budget: RetryBudget,
    reason: RetryReason,
    reply: HttpReply | undefined,
  ): Promise<boolean> {
    const { policy, onRetry } = this.deps;
    // Retried until the deadline only when the server said so (a code or a Retry-After): a bare
    // 429 with an unreadable body might be a quota error that never clears.
    const busy = isServerBusy(reason) && reply !== undefined && saidItIsBusy(reply);
    const failures = busy ? ++budget.busy : ++budget.other;
    if (failures >= (busy ? policy.maxBusyAttempts : policy.maxAttempts)) return false;
    const retryAfterMs = reply ? parseRetryAfterMs(header(reply, 'retry-after')) : undefined;
    const planned = retryDelay(failures, policy, retryAfterMs);
    const remainingMs = policy.maxElapsedMs - (Date.now() - budget.started);
    const delayMs = busy ? Math.min(planned.delayMs, remainingMs) : planned.delayMs;
    if (delayMs > remainingMs || delayMs < planned.minDelayMs) return false;
    const { fromRetryAfter } = planned;
    if (reason === 'rate-limited') turn.throttled(delayMs);
    const event: RetryEvent = {
      method: call.method,
      path: call.path,
      attempt,
      delayMs,
      reason,
      status: reply?.status,
      fromRetryAfter,
    };
    try {
      onRetry?.(event);
    } catch {
      // A logging hook must not break the call.
    }
    await sleep(delayMs, call.signal);
    return true;
  }

  private networkFailure(
    call: ApiCall,
    error: unknown,
    idempotent: boolean,
    attempt: number,
  ): { error: TenantApiError; retryable: boolean } {
    const notSent = provablyNotSent(error);
    const retryable = idempotent || notSent;
    const mayHaveBeenProcessed = !notSent && !idempotent;
    const timedOut = error instanceof RequestTimeout || error instanceof RequestDeadline;
    const what =
      error instanceof RequestTimeout
        ? error.message
        : error instanceof RequestDeadline
          ? `${error.message} (the request timeout)`
          : this.describe(error);
    const where = `${call.method} ${call.path}`;
    const message = mayHaveBeenProcessed
      ? `${where}: ${what} after the request was sent. The server may have processed it, so it was NOT sent ` +
        `again (repeating it could act twice, e.g. start a second scan); check the current state before retrying.`
      : `${where}: ${what}${attempt > 1 ? `, after ${attempt} attempts` : ''}.`;
    const details = {
      code:
        error instanceof RequestDeadline
          ? 'REQUEST_TIMEOUT'
          : error instanceof RequestTimeout
            ? 'TIMEOUT'
            : (errorCode(error) ?? 'NETWORK_ERROR'),
      method: call.method,
      path: call.path,
      address: this.context(call).address,
      mayHaveBeenProcessed,
    };
    const bound = error instanceof RequestTimeout ? error.bound : 'request-timeout';
    const wrapped = timedOut
      ? new TimeoutError(message, { ...details, bound })
      : new NetworkError(message, details);
    (wrapped as { cause?: unknown }).cause = timedOut
      ? undefined
      : safeCause(error, this.deps.config.secrets);
    return { error: wrapped, retryable };
  }

  private describe(error: unknown): string {
    const code = errorCode(error);
    const text =
      error instanceof Error
        ? sanitizeServerText(error.message, this.deps.config.secrets, 200)
        : 'network error';
    return code && !text.includes(code)
      ? `network error ${code} (${text})`
      : `network error (${text})`;
  }

  private context(call: ApiCall): CallContext {
    return {
      method: call.method,
      path: call.path,
      secrets: this.deps.config.secrets,
      address: describeAddress(routeUrl(this.deps.config.baseUrl, call.path)),
    };
  }
}

function isSuccess(status: number): boolean {
  return status >= 200 && status < 300;
}

/** The underlying error without anything that could carry the key (undici errors do not, but a
 *  proxy's message might echo headers). */
function safeCause(error: unknown, secrets: readonly string[]): Error {
  const message = error instanceof Error ? error.message : String(error);
  const cause = new Error(sanitizeServerText(message, secrets, 500));
  const code = errorCode(error);
  if (code) (cause as { code?: string }).code = code;
  return cause;
}

function saidItIsBusy(reply: HttpReply): boolean {
  return errorCodeOf(reply) !== undefined || header(reply, 'retry-after') !== undefined;
}

/** A slow answer is a timeout, not a network error: the retry line says which. */
function networkReason(error: unknown): 'timeout' | 'network' {
  return error instanceof RequestTimeout || error instanceof RequestDeadline
    ? 'timeout'
    : 'network';
}
