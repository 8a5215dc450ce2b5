// The response envelope: unwrap `data` (keeping `meta`), and turn any error body the contract allows
// ({success:false,error:{code,message}}, {code,message}, {error:"CODE"}, empty, HTML, text) into a
// typed error. Classification is by code before status: SCAN_PLAN_LIMIT_REACHED is a plan-limit
// error whatever the status it arrives with.
import {
  AuthenticationError,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TenantApiError,
  ValidationError,
  type ApiErrorDetails,
} from './errors.js';
import { parsedWithoutSecrets, sanitizeServerText } from './redact.js';
import type { JsonObject } from './types.js';

export interface HttpReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface CallContext {
  method: string;
  /** Route path relative to the base, no query. */
  path: string;
  /** Every secret the run holds (the key first): kept out of what the answer hands back. */
  secrets?: readonly string[];
  /** The address the request went to: origin and path, never a query. */
  address?: string;
}

export interface Unwrapped {
  data: unknown;
  meta?: JsonObject;
}

export interface ErrorBody {
  code?: string;
  message?: string;
  requestId?: string;
}

type ErrorClass = new (message: string, details: ApiErrorDetails) => TenantApiError;

export const PLAN_LIMIT_CODE = 'SCAN_PLAN_LIMIT_REACHED';

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function header(reply: Pick<HttpReply, 'headers'>, name: string): string | undefined {
  const value = reply.headers[name.toLowerCase()];
  return Array.isArray(value) ? value[0] : value;
}

export function parseJson(body: Buffer): unknown {
  return parseJsonText(body.toString('utf8'));
}

function parseJsonText(text: string): unknown {
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The parsed body without any secret of the run anywhere in it, in any form a reader would find
 *  it in (parsedWithoutSecrets: every string is looked at only when all of them at once hold one). */
function parseWithoutSecrets(body: Buffer, secrets: readonly string[] | undefined): unknown {
  return parseTextWithoutSecrets(body.toString('utf8'), secrets);
}

/** JSON text parsed without any secret of the run in it (as an answer's body is); undefined when
 *  the text is not JSON. Each element of a streamed list goes through here (requester.ts). */
export function parseTextWithoutSecrets(
  text: string,
  secrets: readonly string[] | undefined,
): unknown {
  const parsed = parseJsonText(text);
  if (!secrets || parsed === undefined) return parsed;
  return parsedWithoutSecrets(parsed, secrets);
}

/** `data` of a success envelope; a body without the envelope is taken as the data itself. No
 *  secret of the run is handed back: a service that echoes one gets [redacted] in its place. */
export function unwrapSuccess(reply: HttpReply, ctx: CallContext): Unwrapped {
  if (reply.body.length === 0 || reply.status === 204) return { data: null };
  const parsed = parseWithoutSecrets(reply.body, ctx.secrets);
  if (parsed === undefined) {
    throw new ServerError(
      `${ctx.method} ${ctx.path}: the server sent a body that is not JSON (HTTP ${reply.status}).`,
      {
        code: 'INVALID_RESPONSE',
        status: reply.status,
        requestId:
          sanitizeServerText(header(reply, 'x-request-id') ?? '', ctx.secrets, 100) || undefined,
        method: ctx.method,
        path: ctx.path,
        address: ctx.address,
        htmlPage: isHtmlReply(reply) || undefined,
      },
    );
  }
  if (isObject(parsed) && parsed.success === false) throw toApiError(reply, ctx);
  if (isObject(parsed) && 'data' in parsed) {
    return { data: parsed.data, meta: isObject(parsed.meta) ? parsed.meta : undefined };
  }
  return { data: parsed };
}

/** Code, message and request id from whatever error body arrived; never throws. */
export function readErrorBody(reply: HttpReply): ErrorBody {
  const parsed = parseJson(reply.body);
  const requestId = header(reply, 'x-request-id') ?? requestIdFromBody(parsed);
  if (isObject(parsed)) {
    const nested = isObject(parsed.error) ? parsed.error : undefined;
    const code =
      str(nested?.code) ??
      str(parsed.code) ??
      codeLike(parsed.error) ??
      str(parsed.errorCode) ??
      str(nested?.type);
    const message =
      str(nested?.message) ??
      str(parsed.message) ??
      str(parsed.error_description) ??
      str(parsed.detail);
    return { code, message, requestId };
  }
  if (typeof parsed === 'string') return { code: codeLike(parsed), message: parsed, requestId };
  return { message: textMessage(reply), requestId };
}

function requestIdFromBody(parsed: unknown): string | undefined {
  if (!isObject(parsed)) return undefined;
  const nested = isObject(parsed.error) ? parsed.error : undefined;
  return str(parsed.requestId) ?? str(nested?.requestId) ?? str(parsed.request_id);
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** `{error:"RATE_LIMITED"}`: a string that looks like a machine code. */
function codeLike(value: unknown): string | undefined {
  const s = str(value);
  return s && /^[A-Z][A-Z0-9_.-]{1,63}$/.test(s) ? s : undefined;
}

/** An HTML page (by its type, or a body that opens with a tag): a website or a gateway answered. */
export function isHtmlReply(reply: HttpReply): boolean {
  if (reply.body.length === 0) return false;
  const type = header(reply, 'content-type') ?? '';
  return /html/i.test(type) || /^\s*</.test(reply.body.subarray(0, 64).toString('utf8'));
}

function textMessage(reply: HttpReply): string | undefined {
  if (reply.body.length === 0) return undefined;
  if (isHtmlReply(reply)) {
    return `non-JSON error page (${header(reply, 'content-type') || 'html'})`;
  }
  return reply.body.subarray(0, 1024).toString('utf8');
}

export function errorCodeOf(reply: HttpReply): string | undefined {
  return readErrorBody(reply).code?.toUpperCase();
}

export function classifyError(status: number, code: string | undefined): ErrorClass {
  const c = code?.toUpperCase();
  if (c === PLAN_LIMIT_CODE) return PlanLimitError;
  if (status === 401) return AuthenticationError;
  if (status === 403) return PermissionError;
  if (status === 404 || c === 'NOT_FOUND') return NotFoundError;
  if (c === 'RATE_LIMITED' || status === 429) return RateLimitError;
  if (c === 'SERVICE_STARTING' || status === 503) return ServiceUnavailableError;
  if (c === 'VALIDATION_ERROR' || (status >= 400 && status < 500)) return ValidationError;
  return ServerError;
}

function defaultCode(status: number): string {
  const known: Record<number, string> = {
    400: 'VALIDATION_ERROR',
    401: 'UNAUTHORIZED',
    403: 'FORBIDDEN',
    404: 'NOT_FOUND',
    429: 'RATE_LIMITED',
    503: 'SERVICE_UNAVAILABLE',
  };
  return known[status] ?? `HTTP_${status}`;
}

const HINTS: Array<[ErrorClass, string]> = [
  [AuthenticationError, 'the API key was rejected: unknown or revoked'],
  [
    PermissionError,
    'the key may not do this: the route is not open to API keys, or the plan has no API access',
  ],
  [PlanLimitError, 'the plan’s scan quota is used up; not retried'],
];

export function toApiError(reply: HttpReply, ctx: CallContext): TenantApiError {
  const body = readErrorBody(reply);
  const requestId = body.requestId
    ? sanitizeServerText(body.requestId, ctx.secrets, 100)
    : undefined;
  const ErrorType = classifyError(reply.status, body.code);
  const code = sanitizeServerText(body.code ?? defaultCode(reply.status), ctx.secrets, 100);
  const hint = HINTS.find(([type]) => type === ErrorType)?.[1];
  const serverMessage = body.message ? sanitizeServerText(body.message, ctx.secrets) : undefined;
  const parts = [`${ctx.method} ${ctx.path} failed: HTTP ${reply.status} ${code}`];
  if (serverMessage) parts.push(`: ${serverMessage}`);
  if (hint) parts.push(`; ${hint}`);
  if (requestId) parts.push(` [request id ${requestId}]`);
  return new ErrorType(parts.join(''), {
    code,
    status: reply.status,
    requestId,
    method: ctx.method,
    path: ctx.path,
    address: ctx.address,
    serverMessage,
    htmlPage: isHtmlReply(reply) || undefined,
  });
}
