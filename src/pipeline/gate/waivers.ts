// The waivers file: YAML, a mapping whose `waivers` key holds a list of {check, reason, expires,
// owner?}. Read before any request; every problem is one line naming the file, the line and the
// fix. The YAML parser (waivers-yaml.ts) loads only when there is a file to read.

import { readFile, stat } from 'node:fs/promises';
import type { Waiver } from './judge.js';
import { quoteValue } from '../common/text.js';
import { SettingsError } from '../common/settings-problems.js';

/** Looked for when no waivers file is named (relative to the working directory). */
export const DEFAULT_WAIVERS_FILE = '.tenant-scan/waivers.yml';
/** A waivers file is a short list: anything larger is not one. */
export const MAX_WAIVERS_FILE_BYTES = 1024 * 1024;

/** The waivers of `path`; throws SettingsError listing every problem. */
export async function readWaivers(path: string): Promise<Waiver[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new SettingsError([
      `waivers file ${quoteValue(path)} was not found: give the path of an existing file`,
    ]);
  }
  if (info.size > MAX_WAIVERS_FILE_BYTES) {
    throw new SettingsError([
      `waivers file ${quoteValue(path)} is larger than 1 MiB: it is not a waivers file`,
    ]);
  }
  const { parseWaivers } = await import('./waivers-yaml.js');
  return parseWaivers(path, await readFile(path, 'utf8'));
}
