// One GET of a presigned address straight into a file. Without a proxy it goes over our own
// connection with one reused read buffer (direct-get.ts: the fast, small path). Through a proxy it
// goes through undici (which tunnels and authenticates), whose stream() hands every body chunk to
// a Writable over the same FileWriter. Non-2xx bodies (redirects, XML errors) are dropped. The
// caller owns the temp file's name, the length check, the rename and the clean-up.
import { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { stream } from './undici-parts.js';
import { directGetIntoFile, type DirectTls } from './direct-get.js';
import { FileWriter } from './file-writer.js';

export interface FileGet {
  url: URL;
  headers: Record<string, string>;
  /** Bounds the wait for the headers and each gap between body chunks, not the whole transfer. */
  timeoutMs: number;
  signal?: AbortSignal;
}

export interface FileReply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Only for a 2xx: what was written to the file. */
  written?: { bytes: number; sha256: string };
}

/** A redirect or error body longer than this is not read further: its status is all we need. */
const MAX_DROPPED_BYTES = 64 << 10;

/** How downloads leave this machine: straight to the origin, or through the client's proxy. */
export type DownloadRoute = { direct: DirectTls } | { proxy: Dispatcher };

/**
 * GETs `req.url`; a 2xx body goes into a new file at `temp` (created exclusively). When this
 * settles, the file is closed. On rejection the file may exist: the caller removes it.
 */
export function getIntoFile(route: DownloadRoute, req: FileGet, temp: string): Promise<FileReply> {
  return 'direct' in route
    ? directGetIntoFile(req, route.direct, temp)
    : getThroughDispatcher(route.proxy, req, temp);
}

async function getThroughDispatcher(
  dispatcher: Dispatcher,
  req: FileGet,
  temp: string,
): Promise<FileReply> {
  let reply: FileReply | undefined;
  let sink: FileSink | undefined;
  try {
    await stream(
      dispatcher,
      req.url,
      {
        method: 'GET',
        headers: req.headers,
        signal: req.signal,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
      },
      ({ statusCode, headers }) => {
        reply = { status: statusCode, headers };
        if (statusCode < 200 || statusCode >= 300) return dropBody();
        sink = new FileSink(temp);
        return sink;
      },
    );
  } catch (error) {
    if (sink) await closed(sink);
    if (!(error instanceof BodyDropped) || !reply) throw error;
  }
  if (!reply) throw new Error('the response ended without headers');
  if (!sink) return reply;
  await closed(sink);
  return { ...reply, written: sink.result() };
}

/** undici settles on 'finish' (or an error); the file handle is closed by the destroy that
 *  follows, which this makes sure of (destroying a destroyed stream is a no-op). */
function closed(writable: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (writable.closed) return resolve();
    writable.once('close', () => resolve());
    writable.destroy();
  });
}

class BodyDropped extends Error {}

function dropBody(): Writable {
  let seen = 0;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      callback(seen > MAX_DROPPED_BYTES ? new BodyDropped('body not read') : null);
    },
  });
}

/** undici's body into a FileWriter: the writer copies each chunk, so undici's views of its socket
 *  reads are never kept; while both of the writer's buffers are busy, undici is paused. */
export class FileSink extends Writable {
  private writer: FileWriter | undefined;
  private written: { bytes: number; sha256: string } | undefined;

  constructor(private readonly path: string) {
    super({ highWaterMark: 1 << 20 });
  }

  result(): { bytes: number; sha256: string } {
    if (!this.written) throw new Error('the file is not finished');
    return this.written;
  }

  override _construct(callback: (error?: Error | null) => void): void {
    FileWriter.create(this.path).then((writer) => {
      this.writer = writer;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (e?: Error | null) => void) {
    try {
      if (this.writer!.append(chunk)) return callback();
    } catch (error) {
      return callback(error as Error);
    }
    this.writer!.writable().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.writer!.finish().then((written) => {
      this.written = written;
      callback();
    }, callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const writer = this.writer;
    this.writer = undefined;
    if (!writer) return callback(error);
    writer.close().then(
      () => callback(error),
      (closeError: Error) => callback(error ?? closeError),
    );
  }
}
