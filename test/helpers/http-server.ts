// Small HTTP plumbing shared by the stand-ins: listen on 127.0.0.1:0, read bodies, record requests.
import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request as a stand-in received it, kept for assertions. */
export interface RecordedRequest {
  method: string;
  /** Path and query, as sent (e.g. `/repos/o/r/check-runs?x=1`). */
  url: string;
  /** Path without the query. */
  path: string;
  /** Lower-cased header names, as Node parses them (includes `authorization` when sent). */
  headers: IncomingHttpHeaders;
  /** Raw body bytes (empty when none was sent). */
  body: Buffer;
  /** The status the stand-in answered with. */
  status?: number;
  /** The body the stand-in answered with (utf8). */
  responseBody?: string;
  /** When it arrived (ms since the epoch). */
  receivedAt?: number;
}

export type RequestHandler = (
  request: RecordedRequest,
  raw: IncomingMessage,
) => Promise<HandlerResult> | HandlerResult;

export interface HandlerResult {
  status: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export interface RunningServer {
  /** Origin, e.g. `http://127.0.0.1:41234`. */
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** Starts a server on 127.0.0.1 port 0 that records each request into `log` before handling it. */
export async function startRecordingServer(
  log: RecordedRequest[],
  handle: RequestHandler,
): Promise<RunningServer> {
  const server = createServer((raw, response) => {
    void (async () => {
      const url = raw.url ?? '/';
      const receivedAt = Date.now();
      const recorded: RecordedRequest = {
        method: raw.method ?? 'GET',
        url,
        path: url.split('?')[0] ?? '/',
        headers: raw.headers,
        body: await readBody(raw),
        receivedAt,
      };
      log.push(recorded);
      let result: HandlerResult;
      try {
        result = await handle(recorded, raw);
      } catch (error) {
        result = json(500, { message: `stand-in bug: ${(error as Error).message}` });
      }
      recorded.status = result.status;
      recorded.responseBody = Buffer.from(result.body ?? '').toString('utf8');
      response.writeHead(result.status, result.headers ?? {});
      response.end(result.body ?? '');
    })();
  });
  // Node closes an idle keep-alive socket after 5 s, and a client told `timeout=5` reuses it for up
  // to 4 s: under heavy load its timer fires late and it writes to a socket the server has just
  // closed (Octokit reports such a transport error as status 500). GitHub keeps connections far
  // longer; so does the stand-in. close() still ends every connection at once.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

export function json(status: number, value: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
    body: JSON.stringify(value),
  } satisfies HandlerResult;
}

/** Parses a recorded JSON body; throws a readable error when it is not JSON. */
export function jsonBody(request: RecordedRequest): unknown {
  const text = request.body.toString('utf8');
  return text === '' ? undefined : JSON.parse(text);
}
