// One GET of a presigned address straight into a file. undici's stream() hands every body chunk to
// a Writable (no Readable and no async iterator between the socket and the file: ~10 % less CPU per
// byte than iterating `request()`'s body), which hashes it and batches it into ~1 MiB vectored
// writes. Non-2xx bodies (redirects, XML errors) are dropped. The caller owns the temp file's name,
// the length check, the rename and the clean-up.
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { stream } from './undici-parts.js';
import { DownloadError } from './errors.js';

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
  /** Only for a 2xx: what was written to the file (already fsynced). */
  written?: { bytes: number; sha256: string };
}

const WRITE_BATCH_BYTES = 1 << 20;
const SYNC_EVERY_BYTES = 64 << 20;
/** A redirect or error body longer than this is not read further: its status is all we need. */
const MAX_DROPPED_BYTES = 64 << 10;

/**
 * GETs `req.url`; a 2xx body goes into a new file at `temp` (created exclusively). When this
 * settles, the file is closed. On rejection the file may exist: the caller removes it.
 */
export async function getIntoFile(
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

/**
 * Hashes and writes as the bytes arrive: chunks are batched into ~1 MiB vectored writes (fewer
 * thread-pool round trips than one write per 64 KiB chunk), and every 64 MiB a background datasync
 * starts so the final fsync only has the tail left to flush. While a batch is being written the
 * Writable's buffer fills and undici pauses the socket, so memory stays bounded (backpressure).
 *
 * The chunks' memory is left to V8. Detaching each written chunk's ArrayBuffer (`transfer(0)`) cut
 * peak RSS by ~60 MiB but crashed undici now and then: it still holds views of some socket reads
 * after handing them over (an unshifted rest after a pause, at least), which is not ours to free.
 */
export class FileSink extends Writable {
  private file: FileHandle | undefined;
  private readonly hash = createHash('sha256');
  private bytes = 0;
  private batch: Buffer[] = [];
  private batched = 0;
  private unsynced = 0;
  private syncing: Promise<void> = Promise.resolve();

  constructor(private readonly path: string) {
    super({ highWaterMark: WRITE_BATCH_BYTES });
  }

  result(): { bytes: number; sha256: string } {
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  override _construct(callback: (error?: Error | null) => void): void {
    open(this.path, 'wx').then((file) => {
      this.file = file;
      callback();
    }, callback);
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (e?: Error | null) => void) {
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.batch.push(chunk);
    this.batched += chunk.length;
    if (this.batched < WRITE_BATCH_BYTES) return callback();
    this.flush().then(() => callback(), callback);
  }

  override _final(callback: (error?: Error | null) => void): void {
    // fsync before the caller renames, so the rename never publishes bytes that are not on disk.
    this.flush()
      .then(() => this.syncing)
      .then(() => this.file!.sync())
      .then(() => callback(), callback);
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const file = this.file;
    this.file = undefined;
    this.syncing
      .catch(() => undefined)
      .then(() => file?.close())
      .then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
  }

  private async flush(): Promise<void> {
    if (this.batched === 0) return;
    const batch = this.batch;
    const length = this.batched;
    this.batch = [];
    this.batched = 0;
    const { bytesWritten } = await this.file!.writev(batch);
    if (bytesWritten !== length) {
      throw new DownloadError(`Short write to ${this.path}.`, { code: 'WRITE_FAILED' });
    }
    this.unsynced += length;
    if (this.unsynced >= SYNC_EVERY_BYTES) {
      this.unsynced = 0;
      await this.syncing;
      this.syncing = this.file!.datasync();
    }
  }
}
