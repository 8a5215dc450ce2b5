// The value a route handler returns, and how errors are shaped (per the errorShape variant).
import type { IncomingMessage } from 'node:http';
import type { UnknownsVariant } from './types.js';

export interface ApiResponse {
  status: number;
  headers?: Record<string, string>;
  /** Text or bytes; or an iterable of text chunks, streamed with chunked encoding. */
  body?: string | Buffer | Iterable<string>;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what = 'Resource'): ApiError =>
  new ApiError(404, 'NOT_FOUND', `${what} not found`);
export const validation = (message: string): ApiError =>
  new ApiError(400, 'VALIDATION_ERROR', message);

export function json(
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  };
}

export const ok = (data: unknown, meta?: unknown): ApiResponse =>
  json(200, meta === undefined ? { success: true, data } : { success: true, data, meta });

export const created = (data: unknown): ApiResponse => json(201, { success: true, data });

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"]/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[ch] ?? ch,
  );

/** Render an error in the body shape the variant chooses. */
export function errorResponse(
  error: ApiError,
  shape: UnknownsVariant['errorShape'] = 'envelope',
): ApiResponse {
  const headers = error.headers;
  switch (shape) {
    case 'flat':
      return json(error.status, { code: error.code, message: error.message }, headers);
    case 'string':
      return json(error.status, { error: error.code }, headers);
    case 'empty':
      return { status: error.status, headers };
    case 'html':
      return htmlError(error.status, error.message, headers);
    case 'text':
      return {
        status: error.status,
        headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
        body: `${error.code}: ${error.message}\n`,
      };
    default:
      return json(
        error.status,
        { success: false, error: { code: error.code, message: error.message } },
        headers,
      );
  }
}

export function htmlError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
): ApiResponse {
  return {
    status,
    headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
    body: `<!DOCTYPE html>\n<html><head><title>${status} Error</title></head><body><h1>${status}</h1><p>${escapeHtml(message)}</p><hr><center>gateway</center></body></html>\n`,
  };
}

const MAX_BODY_BYTES = 1_000_000;

export async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Parse a JSON object body; an empty body is {}. */
export function parseJsonObject(raw: Buffer): Record<string, unknown> {
  if (raw.length === 0) return {};
  let value: unknown;
  try {
    value = JSON.parse(raw.toString('utf8'));
  } catch {
    throw validation('Request body is not valid JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw validation('Request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}

export function headerRecord(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
