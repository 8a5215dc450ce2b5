// Reads the tenant settings file whole (bounded) and parses it; a missing or oversized file is
// one clear error before any request.

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { SettingsError } from '../common/settings-problems.js';
import { MAX_TENANT_FILE_BYTES, parseTenantFile, type TenantFile } from './file.js';

export interface LoadedFile {
  file: TenantFile;
  /** SHA-256 of its bytes (hex): a saved plan names the version of the file it was made from. */
  sha256: string;
}

/** `fileSetting`: how the face names another file ("--file <path>", "the file input"). */
export async function loadTenantFile(
  path: string,
  held: Parameters<typeof parseTenantFile>[2] = {},
  fileSetting?: string,
): Promise<LoadedFile> {
  let text: string;
  let sha256: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_TENANT_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_TENANT_FILE_BYTES) {
        throw new SettingsError([`${path} is larger than 1 MiB: it is not a tenant settings file`]);
      }
      const bytes = buffer.subarray(0, bytesRead);
      sha256 = createHash('sha256').update(bytes).digest('hex');
      text = bytes.toString('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (error instanceof SettingsError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a directory'
          : String(code ?? error);
    throw new SettingsError([
      `cannot read the tenant settings file ${path} (${why}): create it (see docs/tenant-settings.md) or name another${fileSetting ? ` with ${fileSetting}` : ''}`,
    ]);
  }
  return { file: parseTenantFile(path, text, held), sha256 };
}
