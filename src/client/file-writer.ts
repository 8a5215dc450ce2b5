// A new file written from a stream of chunks: each chunk is hashed and copied into one of two
// reused ~2 MiB buffers, so the caller may hand over views of memory it reuses at once (a socket's
// read buffer) and no chunk outlives the call. While one buffer is being written (in calls of at
// most 128 KiB, on libuv's pool) the other fills; when both are full the caller is told to pause
// (backpressure), so memory stays at ~4 MiB whatever the file's size.
//
// No fsync: the caller's rename publishes the file whole to other processes and survives this
// process being killed (the kernel has the bytes); only a crash of the machine itself could leave
// a renamed file short, and a CI runner that crashed is discarded with its disk. Syncing 500 MB
// doubled the download's time (bench/README.md).
import { createHash } from 'node:crypto';
import { close, open, write } from 'node:fs';
import { promisify } from 'node:util';
import { DownloadError } from './errors.js';

/** A buffer is written once it holds this much... */
const BATCH_BYTES = 1 << 20;
/** ...and has room for this much more: a whole read of the caller's (direct-get.ts reads up to
 *  1 MiB; fewer, larger reads cost ~8 % less CPU than 256 KiB ones) fits while the other buffer is
 *  still being written, so nothing is copied twice. */
export const WRITER_SLACK_BYTES = 1 << 20;
const CAPACITY = BATCH_BYTES + WRITER_SLACK_BYTES;
/**
 * No write() call is larger than this. On kernels that cache files in large pages (ext4 since
 * Linux 6.16) a 1 MiB call asks for 1 MiB pages, and on a VM whose free memory goes back to the
 * host (free page reporting, as on Firecracker) those come from memory the host has taken back:
 * each costs a host fault, and writing 500 MiB took mostly 0.6-0.8 s (up to 1.35 s) instead of
 * 0.1 s. Calls of 128 KiB are served from small pages and stayed at ~0.12 s (bench/README.md).
 */
const WRITE_CALL_BYTES = 128 * 1024;

const openFile = promisify(open);
const closeFile = promisify(close);

export interface Written {
  bytes: number;
  sha256: string;
}

export class FileWriter {
  private readonly hash = createHash('sha256');
  private bytes = 0;
  /** Where the next batch goes: the calls of a batch are written at explicit offsets. */
  private fileLength = 0;
  private filling: Buffer = Buffer.allocUnsafe(CAPACITY);
  private filled = 0;
  private spare: Buffer | undefined = Buffer.allocUnsafe(CAPACITY);
  /** Bytes that arrived while both buffers were full (at most the rest of one chunk). */
  private overflow: Buffer[] = [];
  private writing: Promise<void> | undefined;
  private failure: Error | undefined;
  private fd: number | undefined;

  private constructor(
    fd: number,
    private readonly path: string,
  ) {
    this.fd = fd;
  }

  /** Creates `path` (never overwrites: 'wx'). */
  static async create(path: string): Promise<FileWriter> {
    return new FileWriter(await openFile(path, 'wx'), path);
  }

  /** Hashes and takes a copy of `chunk`. False: stop feeding until `writable()` resolves. */
  append(chunk: Uint8Array): boolean {
    if (this.failure) throw this.failure;
    this.hash.update(chunk);
    this.bytes += chunk.length;
    this.copyIn(chunk);
    return !this.mustWait();
  }

  /** Resolves once `append` may be called again; rejects if a write failed. */
  async writable(): Promise<void> {
    while (!this.failure && this.mustWait()) await this.writing;
    if (this.failure) throw this.failure;
  }

  /** Writes what is left. */
  async finish(): Promise<Written> {
    await this.writable();
    await this.writing;
    if (this.filled > 0 && !this.failure) {
      this.startWrite();
      await this.writing;
    }
    if (this.failure) throw this.failure;
    return { bytes: this.bytes, sha256: this.hash.digest('hex') };
  }

  /** Closes the file; safe to call more than once and after a failure. */
  async close(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    if (fd === undefined) return;
    await this.writing;
    await closeFile(fd);
  }

  private mustWait(): boolean {
    return this.overflow.length > 0 || (this.filled >= BATCH_BYTES && this.writing !== undefined);
  }

  private copyIn(chunk: Uint8Array): void {
    let offset = 0;
    while (offset < chunk.length) {
      if (this.filled >= BATCH_BYTES && !this.writing) this.startWrite();
      const room = CAPACITY - this.filled;
      if (room === 0) {
        // Both buffers are full: the caller fed more than a read after being told to wait.
        this.overflow.push(Buffer.from(chunk.subarray(offset)));
        return;
      }
      const count = Math.min(room, chunk.length - offset);
      this.filling.set(
        count === chunk.length ? chunk : chunk.subarray(offset, offset + count),
        this.filled,
      );
      this.filled += count;
      offset += count;
    }
    if (this.filled >= BATCH_BYTES && !this.writing) this.startWrite();
  }

  private startWrite(): void {
    const buffer = this.filling;
    const length = this.filled;
    this.filling = this.spare!;
    this.spare = undefined;
    this.filled = 0;
    this.writing = this.writeAll(buffer, length).then(
      () => this.written(buffer),
      (error: Error) => {
        this.failure ??= error;
        this.overflow = [];
        this.spare = buffer;
        this.writing = undefined;
      },
    );
  }

  /** The batch goes out as `WRITE_CALL_BYTES` calls at their own offsets, all at once: the pool's
   *  threads take them without a round trip through this (busy) thread between calls. */
  private async writeAll(buffer: Buffer, length: number): Promise<void> {
    const fd = this.fd;
    if (fd === undefined)
      throw new DownloadError(`${this.path} was closed.`, { code: 'WRITE_FAILED' });
    const position = this.fileLength;
    this.fileLength += length;
    const calls: Promise<void>[] = [];
    for (let offset = 0; offset < length; offset += WRITE_CALL_BYTES) {
      const count = Math.min(WRITE_CALL_BYTES, length - offset);
      calls.push(this.writeCall(fd, buffer.subarray(offset, offset + count), position + offset));
    }
    // Every call settles before the batch does: the file may be closed right after a failure.
    const failed = (await Promise.allSettled(calls)).find((call) => call.status === 'rejected');
    if (failed) throw failed.reason;
  }

  private async writeCall(fd: number, bytes: Buffer, position: number): Promise<void> {
    const bytesWritten = await new Promise<number>((resolve, reject) =>
      write(fd, bytes, 0, bytes.length, position, (error, n) =>
        error ? reject(error) : resolve(n),
      ),
    );
    if (bytesWritten !== bytes.length) {
      throw new DownloadError(`Short write to ${this.path}.`, { code: 'WRITE_FAILED' });
    }
  }

  private written(buffer: Buffer): void {
    this.spare = buffer;
    this.writing = undefined;
    if (this.filled >= BATCH_BYTES) this.startWrite();
    const waiting = this.overflow;
    this.overflow = [];
    for (const rest of waiting) this.copyIn(rest);
  }
}
