// Where the job's files go (docs/guarantees.md, "Paths"; src/pipeline/common/output-paths.ts),
// over generated paths in a fresh sandbox per run: a workspace and RUNNER_TEMP (each spelled as
// given, through a link or with a trailing slash), a sibling whose name starts like the workspace,
// a folder outside, and links in the workspace to each (to a folder or a file, relative or
// absolute, to nothing, round in a loop). A path is segments of those names, `..`, `.`, empty
// segments, new names (lookalikes of `..`, Windows forms, long names up to and past the file
// system's 255 bytes, in ASCII and in three-byte characters), with or without a trailing slash.
//
// The oracle does not ask the code where a path is: it writes the file with the job's own writer
// and then looks for the bytes, walking the sandbox without following links. A path the check lets
// through is written whole (and a report's longer temporary name fits beside it), lands inside a
// root, and leaves the rest of the sandbox as it was; a path it refuses is one the writer could not
// write, or would have written outside the roots, or one that leads through links to a folder or
// out of the roots (refused as documented, though the writer would only replace the link). Paths outside the sandbox (`/etc/…`, `/dev/…`,
// `/proc/…`, `/`) are never written: the Action refuses them.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import {
  mkdir,
  mkdtemp,
  open,
  readFile,
  readdir,
  realpath,
  rm,
  stat,
  symlink,
  unlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { writeFileAtomic } from '../../../src/pipeline/common/files.js';
import { checkInsideRoots, checkWritableFile } from '../../../src/pipeline/common/output-paths.js';
import { writableRoots } from '../../../src/github/runner-paths.js';
import { propertyParameters } from '../../helpers/property.js';

const MARK = `tenant-scan output ${randomUUID()}\n`;

/** The sandbox of one run: its real path and the places in it. */
interface Sandbox {
  root: string;
  ws: string;
  tmp: string;
}

/** Links in the workspace and RUNNER_TEMP: [where, points to (relative to the sandbox, or as is)]. */
const LINKS: Array<[string, string]> = [
  ['ws/to-out', '@/out'],
  ['ws/to-out-file', '@/out/file.txt'],
  ['ws/to-sub', 'sub'],
  ['ws/to-tmp', '@/tmp'],
  ['ws/to-wsx', '../wsx'],
  ['ws/up', '..'],
  ['ws/dangling', '@/out/nothing-yet'],
  ['ws/dangling-in', '@/ws/nothing-yet'],
  ['ws/dangling-rel', '../out/none'],
  ['ws/loop', '@/ws/loop'],
  ['ws/sub/back-out', '../../out/dir'],
  ['tmp/to-ws', '@/ws'],
  ['ws-link', '@/ws'],
];

async function makeSandbox(): Promise<Sandbox> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'paths-property-')));
  for (const dir of ['ws/sub/deep', 'tmp', 'wsx', 'out/dir']) {
    await mkdir(join(root, dir), { recursive: true });
  }
  await writeFile(join(root, 'ws/sub/existing.sarif'), 'old');
  await writeFile(join(root, 'out/file.txt'), 'outside');
  for (const [where, to] of LINKS) {
    await symlink(to.startsWith('@/') ? join(root, to.slice(2)) : to, join(root, where));
  }
  return { root, ws: join(root, 'ws'), tmp: join(root, 'tmp') };
}

/** Every entry of the sandbox (links not followed) with a file's content. */
async function listing(root: string): Promise<Map<string, string>> {
  const entries = new Map<string, string>();
  for (const entry of await readdir(root, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    entries.set(
      path,
      entry.isFile() ? await readFile(path, 'utf8') : entry.isDirectory() ? '/' : '@',
    );
  }
  return entries;
}

const within = (path: string, base: string) => path === base || path.startsWith(base + sep);

const longName = (char: string, count: number) => char.repeat(count);

/** One segment of a path. */
const segment = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...LINKS.map(([where]) => basename(where))) },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      'sub',
      'deep',
      'existing.sarif',
      'out',
      'ws',
      'wsx',
      'tmp',
      'dir',
      'file.txt',
    ),
  },
  { weight: 3, arbitrary: fc.constantFrom('..', '.', '') },
  {
    weight: 3,
    arbitrary: fc.constantFrom(
      'report.pdf',
      'new',
      'x.sarif',
      'with space',
      '．．',
      '‥',
      '..\u200b',
      '%2e%2e',
      '..\\..',
      'C:\\Windows',
      'C:',
      '\\\\server\\share',
      '…',
      'ｗｓ',
      'WS',
      'ws ',
      '-',
    ),
  },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.constantFrom(200, 211, 212, 213, 241, 242, 255, 256, 300).map((n) => longName('a', n)),
      fc.constantFrom(60, 66, 70, 85, 86).map((n) => longName('．', n)),
    ),
  },
);

/** Where a path starts: a place in the sandbox, or the machine's own. */
const START = [
  'ws',
  'ws-link',
  'tmp',
  '',
  'out',
  'wsx',
  '/',
  '/etc',
  '/dev',
  '/proc/self',
] as const;

const drawnPath = fc.record({
  start: fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom<(typeof START)[number]>('ws', 'ws-link', 'tmp') },
    { weight: 2, arbitrary: fc.constantFrom(...START) },
  ),
  segments: fc.array(segment, { maxLength: 5, size: 'medium' }),
  /** Folders of 200 bytes inserted after the start, the last of them `tail` bytes: from about 19
   *  on, the path passes Linux's 4,096 bytes (PATH_MAX) with a temporary file's name. */
  depth: fc.oneof(
    { weight: 4, arbitrary: fc.constant(0) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 22 }) },
    { weight: 1, arbitrary: fc.integer({ min: 18, max: 21 }) },
  ),
  tail: fc.integer({ min: 1, max: 255 }),
  trailingSlash: fc.boolean(),
});

const drawnRoots = fc.record({
  workspace: fc.constantFrom('ws', 'ws-link', 'ws/'),
  runnerTemp: fc.constantFrom('tmp', 'tmp/', undefined),
});

type DrawnPath = typeof drawnPath extends fc.Arbitrary<infer T> ? T : never;

/** The path as a user would write it: segments joined by hand, nothing normalised. */
function spelled(box: Sandbox, drawn: DrawnPath): string {
  const { start, segments, depth, tail, trailingSlash } = drawn;
  const head = start.startsWith('/') ? start : start === '' ? box.root : join(box.root, start);
  const deep = Array.from({ length: depth }, (_, i) =>
    `${i}`.padEnd(i === depth - 1 ? tail : 200, 'd'),
  );
  const text = [head, ...deep, ...segments].join('/');
  return trailingSlash ? `${text}/` : text;
}

/** Where the bytes the writer wrote are: every file holding them. */
async function landings(root: string): Promise<string[]> {
  const found: string[] = [];
  for (const [path, content] of await listing(root)) if (content === MARK) found.push(path);
  return found;
}

/** Whether a file named as a report download's temporary file fits beside `file`. */
async function reportTempFits(file: string): Promise<boolean> {
  const temp = join(dirname(file), `.${basename(file)}.${randomUUID()}.part`);
  try {
    await (await open(temp, 'wx')).close();
    await unlink(temp);
    return true;
  } catch {
    return false;
  }
}

describe('the job writes its files where the runner lets a step write (docs/guarantees.md, Paths)', () => {
  it('a path passes the check exactly when the file is written whole inside the workspace or RUNNER_TEMP', async () => {
    await fc.assert(
      fc.asyncProperty(
        drawnRoots,
        drawnPath,
        fc.constantFrom('action', 'cli'),
        async (drawn, drawnP, face) => {
          const box = await makeSandbox();
          try {
            const env = {
              GITHUB_WORKSPACE: join(box.root, drawn.workspace),
              RUNNER_TEMP:
                drawn.runnerTemp === undefined ? undefined : join(box.root, drawn.runnerTemp),
            };
            const path = spelled(box, drawnP);
            const verdict =
              face === 'action'
                ? ((await checkInsideRoots('report-path', path, writableRoots(env))) ??
                  (await checkWritableFile('report-path', path)))
                : await checkWritableFile('--output', path);
            if (!within(resolve(path), box.root)) {
              if (face === 'action')
                assert.ok(verdict !== undefined, `${path} left the sandbox yet passed`);
              return;
            }
            // The documented refusals that a write would not show (it replaces a link with the
            // file): a path that leads to a folder, or through links to a place outside the roots.
            const notAFile = await stat(resolve(path)).then(
              (info) => !info.isFile(),
              () => false,
            );
            const roots =
              face === 'action' ? [box.ws, ...(env.RUNNER_TEMP ? [box.tmp] : [])] : [box.root];
            const leadsOutside = await realpath(resolve(path)).then(
              (real) => !roots.some((root) => within(real, root)),
              () => false,
            );
            const before = await listing(box.root);
            const atomic = await writeFileAtomic(path, MARK).then(
              () => true,
              () => false,
            );
            const landed = await landings(box.root);
            // Written whole by every writer: a report download's temporary name is the longest.
            // (Beside the path as given, which is what the writers use: a link in it may be longer.)
            const written = atomic && landed.length === 1 && (await reportTempFits(resolve(path)));
            const inside = landed.length === 1 && roots.some((root) => within(landed[0]!, root));
            if (verdict === undefined) {
              assert.ok(
                written,
                `${path} passed the check but could not be written (a report's temporary name too)`,
              );
              assert.ok(inside, `${path} passed the check but was written to ${landed.join(', ')}`);
              const after = await listing(box.root);
              for (const [entry, content] of before) {
                if (entry === landed[0]) continue;
                assert.equal(after.get(entry), content, `${entry} changed`);
              }
              for (const entry of after.keys()) {
                if (before.has(entry)) continue;
                assert.ok(
                  roots.some((root) => within(entry, root)),
                  `${path}: ${entry} was made outside`,
                );
              }
            } else {
              assert.ok(
                notAFile || leadsOutside || !written || !inside,
                `${path} was refused (${verdict}) yet writes fine inside a root`,
              );
            }
          } finally {
            await rm(box.root, { recursive: true, force: true });
          }
        },
      ),
      propertyParameters(150),
    );
  });
});
