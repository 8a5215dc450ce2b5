// Writing the job's files: whole or not at all (temp file beside the target, then rename).

import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { batched } from './json-text.js';

/** A file's text: one string, or pieces written one batch at a time (a large document is never
 *  one string in memory). */
export type FileContent = string | Iterable<string>;

async function writeContent(path: string, content: FileContent): Promise<void> {
  if (typeof content === 'string') return writeFile(path, content);
  const handle = await open(path, 'w');
  try {
    for (const batch of batched(content)) await handle.write(batch);
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

/** JSON of a (possibly large) array, one item per line: readable, and never one huge string. */
export function* jsonArray(items: Iterable<unknown>): Generator<string> {
  let first = true;
  for (const item of items) {
    yield `${first ? '[\n' : ',\n'}  ${JSON.stringify(item)}`;
    first = false;
  }
  yield first ? '[]\n' : '\n]\n';
}
