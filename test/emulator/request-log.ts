// Every request seen by the three origins, with its headers, oldest first; and `apiRequests`, the
// view of it that tests ask for most.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Emulator, LoggedRequest } from './types.js';
import { headerRecord } from './http-response.js';

export class RequestLog {
  private entries: LoggedRequest[] = [];

  constructor(private readonly limit: number) {}

  /** Log a request now; its status is filled in when the response head is written (0 if never). */
  start(
    origin: LoggedRequest['origin'],
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: string,
  ): LoggedRequest {
    const entry: LoggedRequest = {
      at: Date.now(),
      origin,
      method: req.method ?? 'GET',
      path,
      query,
      headers: headerRecord(req),
      status: 0,
    };
    this.entries.push(entry);
    if (this.entries.length > this.limit) this.entries.splice(0, this.entries.length - this.limit);
    // Record the status as soon as the head is written, so a client that has read the whole
    // response can rely on the log; a connection dropped before any head leaves 0.
    // How long the exchange lasted: until the response ended or the connection closed.
    res.once('close', () => (entry.durationMs = Date.now() - entry.at));
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
    res.writeHead = ((...args: unknown[]) => {
      const result = writeHead(...args);
      entry.status = res.statusCode;
      return result;
    }) as unknown as ServerResponse['writeHead'];
    return entry;
  }

  all(): LoggedRequest[] {
    return this.entries.map((e) => ({ ...e, headers: { ...e.headers } }));
  }

  clear(): void {
    this.entries = [];
  }
}

/** The requests the API origin saw (not the download or control origins), optionally only those
 *  of one method and a path matching `path`. */
export function apiRequests(emulator: Emulator, method?: string, path?: RegExp): LoggedRequest[] {
  return emulator
    .requests()
    .filter((r) => r.origin === 'api')
    .filter((r) => (method ? r.method === method : true))
    .filter((r) => (path ? path.test(r.path) : true));
}
