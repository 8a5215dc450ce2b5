// The results file (the failed results as the service sent them, worst first) written while the
// results are read: each failed result goes to a file of its severity as its page streams in, and
// the files are joined, worst first, into the results file once the read is whole. A result's text
// is on disk, never all of them in memory: 250,000 results cost what one does.

import { closeSync, createReadStream, openSync, writeSync } from 'node:fs';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';
import { basename, dirname, join, resolve } from 'node:path';
import type { Finding, Severity } from '../../client/index.js';
import { SEVERITY_ORDER } from './findings.js';

/** Text gathered before a severity's file is written to: small, so that it is young garbage. */
const BATCH_CHARS = 32 * 1024;

interface Bucket {
  path: string;
  fd: number;
  pending: string[];
  pendingChars: number;
  count: number;
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
    bucket.count++;
    if (bucket.pendingChars >= BATCH_CHARS) flush(bucket);
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
      bucket = { path, fd: openSync(path, 'w', 0o600), pending: [], pendingChars: 0, count: 0 };
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
      await out.write('[');
      for (const severity of SEVERITY_ORDER) {
        const bucket = this.buckets.get(severity);
        if (!bucket || bucket.count === 0) continue;
        flush(bucket);
        for await (const chunk of createReadStream(bucket.path, { start: first ? 1 : 0 })) {
          await out.write(chunk as Buffer);
        }
        first = false;
      }
      await out.write(first ? ']\n' : '\n]\n');
    } finally {
      await out.close();
    }
  }
}

function flush(bucket: Bucket): void {
  if (bucket.pending.length === 0) return;
  writeSync(bucket.fd, bucket.pending.join(''));
  bucket.pending = [];
  bucket.pendingChars = 0;
}
