// Small HTTP helpers for the emulator's own tests (real HTTP via global fetch).
import type { Emulator } from './types.js';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** Parsed JSON body, or undefined when the body is not JSON. */
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export async function call(
  emu: Emulator,
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const key = options.key === undefined ? emu.apiKey : options.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${emu.url}${path}`, {
    method,
    headers,
    redirect: 'manual',
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  return toReply(response);
}

export async function toReply(response: Response): Promise<Reply> {
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Call the control origin. */
export async function control(
  emu: Emulator,
  method: string,
  path: string,
  body?: unknown,
): Promise<Reply> {
  const response = await fetch(`${emu.controlOrigin}${path}`, {
    method,
    ...(body !== undefined
      ? { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
      : {}),
  });
  return toReply(response);
}

/** Trigger a scan and run the clock past its end; returns the scan id. */
export async function finishedScan(
  emu: Emulator,
  scanType = 'compliance',
  key?: string,
): Promise<string> {
  const reply = await call(emu, 'POST', '/tenants/me/scans', {
    body: { scanType },
    ...(key ? { key } : {}),
  });
  if (reply.status !== 201) throw new Error(`trigger failed: ${reply.status} ${reply.text}`);
  emu.advance(3_600_000);
  return reply.body.data.id as string;
}
