// Writing the job's files: whole or not at all (temp file beside the target, then rename).

import { randomBytes } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

export async function writeFileAtomic(path: string, content: string): Promise<string> {
  const target = resolve(path);
  await mkdir(dirname(target), { recursive: true });
  const temp = join(dirname(target), `.${basename(target)}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(temp, content);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return target;
}

/** JSON of a (possibly large) array, one item per line: readable, and no single huge string op. */
export function jsonArray(items: readonly unknown[]): string {
  if (items.length === 0) return '[]\n';
  return `[\n${items.map((item) => `  ${JSON.stringify(item)}`).join(',\n')}\n]\n`;
}
