// Writes an ApiResponse to a socket, whole or deliberately broken (fault injection).
import type { ServerResponse } from 'node:http';
import { drained } from './drain.js';
import type { ApiResponse } from './http-response.js';
import { PacedBody, type PaceFault } from './body-pace.js';

function isStream(body: ApiResponse['body']): body is Iterable<string> {
  return body !== undefined && typeof body !== 'string' && !Buffer.isBuffer(body);
}

export async function writeResponse(res: ServerResponse, response: ApiResponse): Promise<void> {
  const { body } = response;
  if (isStream(body)) {
    res.writeHead(response.status, response.headers);
    for (const chunk of body) {
      if (res.destroyed) return;
      if (!res.write(chunk)) await drained(res);
    }
    res.end();
    return;
  }
  const bytes =
    body === undefined ? Buffer.alloc(0) : Buffer.isBuffer(body) ? body : Buffer.from(body);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(bytes.length) });
  res.end(bytes);
}

function bodyBytes(response: ApiResponse): Buffer {
  const { body } = response;
  if (body === undefined) return Buffer.alloc(0);
  if (Buffer.isBuffer(body)) return body;
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from([...body].join(''));
}

/** Headers promise the whole body (Content-Length), then the connection ends after a prefix of it. */
export function writeTruncated(res: ServerResponse, response: ApiResponse): void {
  const bytes = bodyBytes(response);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(bytes.length) });
  res.flushHeaders();
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.socket?.destroy());
}

/** The handler ran; part of the response went out, then the socket is reset. */
export function writeThenReset(res: ServerResponse, response: ApiResponse): void {
  const bytes = bodyBytes(response);
  res.writeHead(response.status, { ...response.headers, 'content-length': String(bytes.length) });
  res.flushHeaders();
  res.write(bytes.subarray(0, Math.min(16, Math.floor(bytes.length / 2))), () => {
    res.socket?.resetAndDestroy();
  });
}

/** The whole body with its real Content-Length, trickled or held back part-way (slow-body, stall). */
export async function writePaced(
  res: ServerResponse,
  response: ApiResponse,
  fault: PaceFault,
): Promise<void> {
  const bytes = bodyBytes(response);
  const body = new PacedBody(res, fault, bytes.length);
  await body.beforeHead();
  if (res.destroyed) return;
  res.writeHead(response.status, { ...response.headers, 'content-length': String(bytes.length) });
  res.flushHeaders();
  if (await body.write(bytes)) res.end();
}
