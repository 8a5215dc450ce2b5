// Where the job may write: a file that can be created or replaced (not a directory, a device, a
// pipe, nor under a directory that cannot be made), and for the Action, a place inside the roots
// the runner gives it. Checked before any request; nothing here writes but a probe it removes.
import { randomBytes, randomUUID } from 'node:crypto';
import { constants as fsConstants } from 'node:fs';
import {
  access,
  lstat,
  mkdir,
  open,
  readlink,
  realpath,
  rmdir,
  stat,
  unlink,
} from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { quoteValue } from './text.js';

interface Ancestor {
  path: string;
  isDirectory: boolean;
  /** A symbolic link that leads nowhere (to nothing, or round in a loop): no folder can be made
   *  through it, and where it points is not where it is. */
  brokenLink: boolean;
}

/** The nearest ancestor of `target` that exists (the file system root at worst). */
async function nearestExisting(target: string): Promise<Ancestor> {
  let path = dirname(target);
  for (;;) {
    const info = await stat(path).catch(() => undefined);
    if (info) return { path, isDirectory: info.isDirectory(), brokenLink: false };
    if (await lstat(path).catch(() => undefined)) {
      return { path, isDirectory: false, brokenLink: true };
    }
    const parent = dirname(path);
    if (parent === path) return { path, isDirectory: true, brokenLink: false };
    path = parent;
  }
}

/** The longest path a system call takes, its terminating NUL included (PATH_MAX: Linux 4096,
 *  macOS 1024; Node gives Windows its long-path form). */
const MAX_PATH_BYTES =
  process.platform === 'win32' ? 32_767 : process.platform === 'darwin' ? 1024 : 4096;

/** A name of at least `bytes` bytes (the longest a write will need), random, for a probe. */
function probeName(bytes = 0): string {
  const name = `.tenant-scan-probe-${randomBytes(8).toString('hex')}`;
  return name.length >= bytes ? name : name + 'x'.repeat(bytes - name.length);
}

/** The name of a probe as long as the longest temporary file a writer puts beside `fileName`:
 *  a report download's `.<name>.<uuid>.part` (files.ts writes a shorter `.<name>.<8 hex>.tmp`). The
 *  same form, so that a probe a kill left behind is cleared with a download's leftovers. */
function fileProbeName(fileName: string): string {
  return `.${fileName}.${randomUUID()}.part`;
}

/** Why no file named `fileName` can be made in `directory` (it is written as a temporary file
 *  beside the target, then renamed): a probe file with a name as long, removed at once.
 *  Permissions alone do not tell (root passes every access() check; /proc and read-only mounts
 *  refuse anyway), nor does the name's length (the file system's limit, in bytes). */
async function cannotMakeFileIn(directory: string, fileName: string): Promise<string | undefined> {
  // Random: many tenants' files are checked in one folder at the same moment.
  const probe = join(directory, fileProbeName(fileName));
  try {
    await (await open(probe, 'wx')).close();
    await unlink(probe);
    return undefined;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EROFS') return `${quoteValue(directory)} is on a read-only file system`;
    if (code === 'EACCES' || code === 'EPERM')
      return `no write permission in ${quoteValue(directory)}`;
    if (code === 'ENAMETOOLONG') return 'its name is too long for the file system (ENAMETOOLONG)';
    return `no file can be made in ${quoteValue(directory)}${code ? ` (${code})` : ''}`;
  }
}

/** Why the missing folders `missing` (names, outermost first) and then the file `fileName`
 *  cannot be made in `directory`: a probe folder named as long as the longest of them, the file
 *  probed inside it, both removed at once (a read-only mount or /proc cannot make either). */
async function cannotMakeFoldersIn(
  directory: string,
  missing: readonly string[],
  fileName: string,
): Promise<string | undefined> {
  let longest = 0;
  for (const name of missing) longest = Math.max(longest, Buffer.byteLength(name));
  const folder = join(directory, probeName(longest));
  try {
    await mkdir(folder);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENAMETOOLONG') {
      return 'a folder name in it is too long for the file system (ENAMETOOLONG)';
    }
    return `no directory can be made in ${quoteValue(directory)}`;
  }
  try {
    return await cannotMakeFileIn(folder, fileName);
  } finally {
    await rmdir(folder).catch(() => undefined);
  }
}

/** Why `path` cannot be written as a file, or undefined when it can: an existing directory,
 *  device, pipe or socket (symlinks followed), a path through a file or a link to nothing, missing
 *  directories that cannot be made, or a name or path too long once a temporary file's name is
 *  added. Missing directories are made later, when the file is written. */
export async function checkWritableFile(label: string, path: string): Promise<string | undefined> {
  const target = resolve(path);
  const shown = `${label} ${quoteValue(path)}`;
  const longest = join(dirname(target), fileProbeName(basename(target)));
  if (Buffer.byteLength(longest) >= MAX_PATH_BYTES) {
    return `${shown} cannot be written: the path is too long for the file system (ENAMETOOLONG)`;
  }
  const existing = await stat(target).catch(() => undefined);
  if (existing?.isDirectory()) return `${shown} is a directory; give a file path`;
  if (existing && !existing.isFile()) {
    return `${shown} is not a regular file (a device, a pipe or a socket); give a file path`;
  }
  const ancestor = await nearestExisting(target);
  if (ancestor.brokenLink) {
    return `${shown} cannot be written: ${quoteValue(ancestor.path)} is a symbolic link to nothing`;
  }
  if (!ancestor.isDirectory) return `${shown} is inside a file, not a directory`;
  if (existing) {
    try {
      await access(target, fsConstants.W_OK);
    } catch {
      return `${shown} is not writable (no write permission on ${quoteValue(basename(target))})`;
    }
  }
  const missing = relative(ancestor.path, dirname(target))
    .split(sep)
    .filter((name) => name !== '');
  const why =
    missing.length > 0
      ? await cannotMakeFoldersIn(ancestor.path, missing, basename(target))
      : await cannotMakeFileIn(ancestor.path, basename(target));
  return why ? `${shown} cannot be written: ${why}` : undefined;
}

/** How many links a path may pass through, as Linux's own limit (ELOOP past it). */
const MAX_LINKS = 40;

/** Where `path` really is: symlinks of its existing part followed, also a link that leads to
 *  nothing yet (it is where a folder made through it would be). */
async function realLocation(path: string, links = 0): Promise<string> {
  const target = resolve(path);
  const whole = await realpath(target).catch(() => undefined);
  if (whole) return whole;
  const ancestor = await nearestExisting(target);
  const rest = relative(ancestor.path, target);
  if (!ancestor.brokenLink) return join(await realpath(ancestor.path), rest);
  const pointsTo = await readlink(ancestor.path).catch(() => undefined);
  if (pointsTo === undefined || links >= MAX_LINKS) {
    // A loop: nothing can be made through it (checkWritableFile says so); judge where it is.
    return join(
      await realLocation(dirname(ancestor.path), links + 1),
      basename(ancestor.path),
      rest,
    );
  }
  const from = await realpath(dirname(ancestor.path));
  return realLocation(join(resolve(from, pointsTo), rest), links + 1);
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
