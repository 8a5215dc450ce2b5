// Writing the job's files: whole or not at all (temp file beside the target, then rename).

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { batched } from './json-text.js';

/** A file's text: one string, or pieces written one batch at a time (a large document is never
 *  one string in memory). */
export type FileContent = string | Iterable<string>;

/** Writes every byte of `data` at the handle's position (a write may take fewer than it is given:
 *  a full disk ends in an error, never in a file renamed into place short). */
export async function writeAll(handle: FileHandle, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  for (let at = 0; at < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, at, bytes.length - at);
    at += bytesWritten;
  }
}

async function writeContent(path: string, content: FileContent): Promise<void> {
  if (typeof content === 'string') return writeFile(path, content);
  const handle = await open(path, 'w');
  try {
    for (const batch of batched(content)) await writeAll(handle, batch);
  } finally {
    await handle.close();
  }
}

export async function writeFileAtomic(path: string, content: FileContent): Promise<string> {
  const target = resolve(path);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeContent(temp, content);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}

const WRITE_FAILURES: Record<string, string> = {
  ENOENT: 'its folder is gone',
  ENOTDIR: 'a part of its path is not a folder',
  EEXIST: 'a part of its path is a file, not a folder',
  EISDIR: 'it is a folder',
  EACCES: 'no write permission',
  EPERM: 'no write permission',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
};

/** Why a file could not be written, in words (not the temporary file's name the error holds). */
export function writeFailureWords(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code && WRITE_FAILURES[code]) return `${WRITE_FAILURES[code]} (${code})`;
  if (code) return code;
  return error instanceof Error ? error.message : String(error);
}

/** JSON of a (possibly large) array, one item per line: readable, and never one huge string. */
export function* jsonArray(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? '[\n' : ',\n'}  ${JSON.stringify(item)}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}

/** A file written piece by piece and still whole or not at all: the pieces go to a temp file beside
 *  the target (each write awaited, so no more than a piece is held), renamed over it at commit. */
export class AtomicFileWriter {
  private constructor(
    private readonly handle: FileHandle,
    private readonly temp: string,
    readonly target: string,
  ) {}

  static async open(path: string): Promise<AtomicFileWriter> {
    const target = resolve(path);
    await mkdir(dirname(target), { recursive: true });
    const temp = join(
      dirname(target),
      `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`,
    );
    return new AtomicFileWriter(await open(temp, 'wx'), temp, target);
  }

  async write(text: string): Promise<void> {
    if (text !== '') await this.handle.write(text);
  }

  /** Closes the file and puts it in place; returns its absolute path. */
  async commit(): Promise<string> {
    try {
      await this.handle.close();
      await rename(this.temp, this.target);
    } catch (error) {
      await rm(this.temp, { force: true });
      throw error;
    }
    return this.target;
  }

  /** Drops what was written: the target is left as it was. */
  async abort(): Promise<void> {
    await this.handle.close().catch(() => undefined);
    await rm(this.temp, { force: true });
  }
}
