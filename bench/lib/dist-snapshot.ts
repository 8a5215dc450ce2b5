// A private copy of dist/: other engineers rebuild dist/ (which wipes it) while a benchmark runs;
// the benchmark must measure one bundle from start to end.
import { execFileSync } from 'node:child_process';
import { cp, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../test/helpers/runner.js';

export interface DistSnapshot {
  dir: string;
  /** The action's main entry inside the copy. */
  main: string;
  remove(): Promise<void>;
}

export async function snapshotDist(): Promise<DistSnapshot> {
  const source = join(PROJECT_ROOT, 'dist');
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-bench-dist-'));
  await cp(source, dir, { recursive: true });
  const main = join(dir, 'index.js');
  await stat(main).catch(() => {
    throw new Error('dist/index.js is missing: run `npm run build` first');
  });
  return { dir, main, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * The committed dist/ of the last commit before the client and the Action stood on the libraries'
 * public APIs (issue 14): the hand-made toolkit.ts, undici's internal files, the raw-socket download
 * and the V8 flag. Measured beside today's dist/ in the same run, it shows what their removal cost.
 */
export const BEFORE_LIBRARIES_COMMIT = 'b839a39';

/** dist/ as committed at `commit` (git archive), in a temp dir. */
export async function snapshotDistAt(commit: string): Promise<DistSnapshot> {
  const dir = await mkdtemp(join(tmpdir(), `tenant-scan-bench-dist-${commit}-`));
  execFileSync(
    'sh',
    ['-c', `git archive ${commit} dist | tar -x -C "$1" --strip-components=1`, 'sh', dir],
    {
      cwd: PROJECT_ROOT,
    },
  );
  const main = join(dir, 'index.js');
  return { dir, main, remove: () => rm(dir, { recursive: true, force: true }) };
}

export interface ChunkSize {
  file: string;
  bytes: number;
}

/** The main step's bundle: dist/index.js and the chunks beside it (loaded on demand by import()). */
export async function mainBundleSizes(
  dir: string,
): Promise<{ main: ChunkSize; chunks: ChunkSize[] }> {
  const names = (await readdir(dir)).filter((n) => n.endsWith('.js'));
  const sizes = await Promise.all(
    names.map(async (file) => ({ file, bytes: (await stat(join(dir, file))).size })),
  );
  const main = sizes.find((s) => s.file === 'index.js');
  if (!main) throw new Error(`${dir}/index.js is missing`);
  return { main, chunks: sizes.filter((s) => s !== main).sort((a, b) => b.bytes - a.bytes) };
}
