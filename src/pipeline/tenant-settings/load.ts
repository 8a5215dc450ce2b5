// Reads the tenant settings file whole (bounded) and parses it; a missing or oversized file is
// one clear error before any request.

import { open } from 'node:fs/promises';
import { SettingsError } from '../common/settings-problems.js';
import { MAX_TENANT_FILE_BYTES, parseTenantFile, type TenantFile } from './file.js';

export async function loadTenantFile(
  path: string,
  held: Parameters<typeof parseTenantFile>[2] = {},
): Promise<TenantFile> {
  let text: string;
  try {
    const handle = await open(path, 'r');
    try {
      const buffer = Buffer.alloc(MAX_TENANT_FILE_BYTES + 1);
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      if (bytesRead > MAX_TENANT_FILE_BYTES) {
        throw new SettingsError([`${path} is larger than 1 MiB: it is not a tenant settings file`]);
      }
      text = buffer.subarray(0, bytesRead).toString('utf8');
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
      `cannot read the tenant settings file ${path} (${why}): create it (see docs/tenant-settings.md) or name another`,
    ]);
  }
  return parseTenantFile(path, text, held);
}
