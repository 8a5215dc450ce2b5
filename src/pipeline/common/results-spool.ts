// The results file (the failed results as the service sent them, worst first) written while the
// results are read: each failed result goes to a file of its severity as its page streams in, and
// the files are joined, worst first, into the results file once the read is whole. A result's text
// is on disk, never all of them in memory: 250,000 results cost what one does.

import { closeSync, createReadStream, ftruncateSync, openSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import type { Finding, Severity } from '../../client/index.js';
import { writeAll } from './files.js';
import { SEVERITY_ORDER } from './findings.js';

/** Text gathered before a severity's file is written to: small, so that it is young garbage. */
const BATCH_CHARS = 32 * 1024;

interface Bucket {
  path: string;
  fd: number;
  pending: string[];
  pendingChars: number;
  /** The pending text's UTF-8 bytes. */
  pendingBytes: number;
  count: number;
  /** Bytes written to its file. */
  size: number;
  /** What counted at the last mark, a page retried goes back to it: the results, the bytes of
   *  file and pending text together, and the pending lines then (valid until the next flush). */
  marked: { count: number; bytes: number; pending: number };
}

export class ResultsSpool {
  private readonly target: string;
  private readonly stem: string;
  private readonly buckets = new Map<Severity, Bucket>();

  /** A spool for the results file at `path`, its folder made (never synchronously: a folder that
   *  cannot be made, under /proc, would hold the process past a signal). */
  static async open(path: string): Promise<ResultsSpool> {
    await mkdir(dirname(resolve(path)), { recursive: true });
    return new ResultsSpool(path);
  }

  /** `path`: the results file; the severities' files are made beside it, in its folder. */
  private constructor(path: string) {
    this.target = resolve(path);
    this.stem = join(
      dirname(this.target),
      `.${basename(this.target)}.${randomBytes(4).toString('hex')}`,
    );
  }

  /** A failed result, as read (its key already taken out by the client). */
  add(finding: Finding, severity: Severity): void {
    const bucket = this.bucket(severity);
    const line = `,\n  ${JSON.stringify(finding)}`;
    bucket.pending.push(line);
    bucket.pendingChars += line.length;
    bucket.pendingBytes += Buffer.byteLength(line);
    bucket.count++;
    if (bucket.pendingChars >= BATCH_CHARS) flush(bucket);
  }

  /** What was added so far counts (a page was accepted whole). Nothing is written for it: a page
   *  of one result each must not cost a write each. */
  mark(): void {
    for (const bucket of this.buckets.values()) {
      const bytes = bucket.size + bucket.pendingBytes;
      bucket.marked = { count: bucket.count, bytes, pending: bucket.pending.length };
    }
  }

  /** What was added since the last mark does not count (a page's answer streams in again). */
  rollback(): void {
    for (const bucket of this.buckets.values()) {
      const { marked } = bucket;
      if (bucket.count === marked.count) continue; // nothing added since the mark
      bucket.count = marked.count;
      if (marked.bytes <= bucket.size) {
        // Written since the mark: the file goes back to it, and nothing pending counts.
        if (marked.bytes < bucket.size) ftruncateSync(bucket.fd, marked.bytes);
        bucket.size = marked.bytes;
        bucket.pending = [];
      } else {
        // Nothing written since the mark: its pending lines are the ones that count.
        bucket.pending = bucket.pending.slice(0, marked.pending);
      }
      bucket.pendingBytes = marked.bytes - bucket.size;
      bucket.pendingChars = bucket.pending.reduce((sum, line) => sum + line.length, 0);
    }
  }

  /** Writes the results file whole (temporary file, then rename) and returns its path. */
  async finish(): Promise<string> {
    const temp = `${this.stem}.tmp`;
    try {
      await this.join(temp);
      await rename(temp, this.target);
      return this.target;
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    } finally {
      await this.discard();
    }
  }

  /** Removes the severities' files (a read that is not whole, or after finish). */
  async discard(): Promise<void> {
    const paths = [...this.buckets.values()].map((bucket) => {
      closeSync(bucket.fd);
      return bucket.path;
    });
    this.buckets.clear();
    await Promise.all(paths.map((path) => rm(path, { force: true })));
  }

  private bucket(severity: Severity): Bucket {
    let bucket = this.buckets.get(severity);
    if (!bucket) {
      const path = `${this.stem}.${severity}.tmp`;
      const fd = openSync(path, 'w', 0o600);
      const marked = { count: 0, bytes: 0, pending: 0 };
      bucket = {
        path,
        fd,
        pending: [],
        pendingChars: 0,
        pendingBytes: 0,
        count: 0,
        size: 0,
        marked,
      };
      this.buckets.set(severity, bucket);
    }
    return bucket;
  }

  /** `[`, each severity's results worst first (the first result without its leading comma), `]`:
   *  the text the results file always had (one result a line). */
  private async join(temp: string): Promise<void> {
    const out = await open(temp, 'w', 0o644);
    try {
      let first = true;
      await writeAll(out, '[');
      for (const severity of SEVERITY_ORDER) {
        const bucket = this.buckets.get(severity);
        if (!bucket || bucket.count === 0) continue;
        flush(bucket);
        for await (const chunk of createReadStream(bucket.path, { start: first ? 1 : 0 })) {
          await writeAll(out, chunk as Buffer);
        }
        first = false;
      }
      await writeAll(out, first ? ']\n' : '\n]\n');
    } finally {
      await out.close();
    }
  }
}

/** Writes the bucket's pending text at the end of its file, every byte of it. */
function flush(bucket: Bucket): void {
  if (bucket.pending.length === 0) return;
  const text = bucket.pending.join('');
  const length = bucket.pendingBytes;
  // The text as it is; only a short write needs a copy of its bytes.
  let written = writeSync(bucket.fd, text, bucket.size, 'utf8');
  if (written < length) {
    const bytes = Buffer.from(text);
    while (written < length) {
      written += writeSync(bucket.fd, bytes, written, length - written, bucket.size + written);
    }
  }
  bucket.size += length;
  bucket.pendingBytes = 0;
  bucket.pending = [];
  bucket.pendingChars = 0;
}
