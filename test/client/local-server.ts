// A tiny node:http server for wire-precise client tests (resets, Retry-After, redirects), 127.0.0.1:0.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  at: number;
}

export interface LocalServer {
  origin: string;
  requests: Seen[];
  close(): Promise<void>;
}

export type Handler = (
  req: IncomingMessage,
  res: ServerResponse,
  seen: Seen,
  index: number,
) => unknown;

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const seen = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        at: Date.now(),
      };
      requests.push(seen);
      Promise.resolve(handler(req, res, seen, requests.length - 1)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export const ok = (res: ServerResponse, data: unknown, meta?: unknown) =>
  json(res, 200, meta === undefined ? { success: true, data } : { success: true, data, meta });

export const fail = (
  res: ServerResponse,
  status: number,
  code?: string,
  headers: Record<string, string> = {},
) =>
  json(
    res,
    status,
    { success: false, error: { code, message: `emulated ${code ?? status}` } },
    headers,
  );
