// Where the job may write: a file that can be created or replaced (not a directory, a device, a
// pipe, nor under a directory that cannot be made), and for the Action, a place inside the roots
// the runner gives it. Checked before any request; nothing here writes but a probe it removes.
import { randomBytes } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import { access, mkdtemp, open, realpath, rmdir, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { quoteValue } from './text.js';

/** The nearest ancestor of `target` that exists (the file system root at worst). */
async function nearestExisting(target: string): Promise<{ path: string; isDirectory: boolean }> {
  let path = dirname(target);
  for (;;) {
    const info = await stat(path).catch(() => undefined);
    if (info) return { path, isDirectory: info.isDirectory() };
    const parent = dirname(path);
    if (parent === path) return { path, isDirectory: true };
    path = parent;
  }
}

/** Whether a directory can be made in `directory` (a read-only mount or /proc cannot). */
async function canMakeDirectoryIn(directory: string): Promise<boolean> {
  try {
    await rmdir(await mkdtemp(join(directory, '.tenant-scan-probe-')));
    return true;
  } catch {
    return false;
  }
}

/** Why no file can be made in `directory` (it is written as a temporary file beside the target,
 *  then renamed): a probe file, removed at once. Permissions alone do not tell (root passes every
 *  access() check; /proc and read-only mounts refuse anyway). */
async function cannotMakeFileIn(directory: string): Promise<string | undefined> {
  // Random: many tenants' files are checked in one folder at the same moment.
  const probe = join(directory, `.tenant-scan-probe-${randomBytes(8).toString('hex')}`);
  try {
    await (await open(probe, 'wx')).close();
    await unlink(probe);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${quoteValue(directory)} is on a read-only file system`;
    if (code === 'EACCES' || code === 'EPERM')
      return `no write permission in ${quoteValue(directory)}`;
    return `no file can be made in ${quoteValue(directory)}${code ? ` (${code})` : ''}`;
  }
}

/** Why `path` cannot be written as a file, or undefined when it can: an existing directory,
 *  device, pipe or socket (symlinks followed), a path through a file, or missing directories that
 *  cannot be made. Missing directories are made later, when the file is written. */
export async function checkWritableFile(label: string, path: string): Promise<string | undefined> {
  const target = resolve(path);
  const shown = `${label} ${quoteValue(path)}`;
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) return `${shown} is a directory; give a file path`;
  if (existing && !existing.isFile()) {
    return `${shown} is not a regular file (a device, a pipe or a socket); give a file path`;
  }
  const ancestor = await nearestExisting(target);
  if (!ancestor.isDirectory) return `${shown} is inside a file, not a directory`;
  const missing = ancestor.path !== dirname(target);
  if (missing && !(await canMakeDirectoryIn(ancestor.path))) {
    return `${shown} cannot be written: no directory can be made in ${quoteValue(ancestor.path)}`;
  }
  if (existing) {
    try {
      await access(target, fsConstants.W_OK);
    } catch {
      return `${shown} is not writable (no write permission on ${quoteValue(basename(target))})`;
    }
  }
  const why = missing ? undefined : await cannotMakeFileIn(ancestor.path);
  return why ? `${shown} cannot be written: ${why}` : undefined;
}

/** Where `path` really is: symlinks of its existing part followed. */
async function realLocation(path: string): Promise<string> {
  const target = resolve(path);
  const whole = await realpath(target).catch(() => undefined);
  if (whole) return whole;
  const { path: ancestor } = await nearestExisting(target);
  return join(await realpath(ancestor), relative(ancestor, target));
}

export interface Root {
  /** "the workspace (GITHUB_WORKSPACE)" */
  name: string;
  path: string;
}

/** Why `path` is not inside one of the roots once symlinks are followed, or undefined. The line
 *  quotes `shown` (what the user wrote) when the path checked is derived from it. */
export async function checkInsideRoots(
  label: string,
  path: string,
  roots: readonly Root[],
  shown = path,
): Promise<string | undefined> {
  const real = await realLocation(path);
  for (const root of roots) {
    const base = await realpath(root.path).catch(() => resolve(root.path));
    if (real === base || real.startsWith(base.endsWith(sep) ? base : base + sep)) return undefined;
  }
  const where = roots.map((root) => root.name).join(' or ');
  return `${label} ${quoteValue(shown)} is outside ${where}: give a path inside it (a relative path is relative to the workspace)`;
}
