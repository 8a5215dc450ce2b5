// Builds the entries with ncc: src/main.ts → dist/, src/post.ts → dist/post/, src/cli.ts →
// dist/cli/, src/rollup.ts → dist/rollup/, src/rotate-key.ts → dist/rotate-key/, src/settings.ts →
// dist/settings/, src/tenants.ts → dist/tenants/, src/tenants-post.ts → dist/tenants-post/ (an entry whose source does not exist yet is skipped).
// Not minified, so that a change to src/ is a change of a few lines in dist/ (minified, every rebuild
// rewrote megabytes of long lines: a session's commits grew past what may be submitted); V8 parses
// lazily, so the start-up costs the same (bench/README.md "Start-up"). The third-party licences sit
// beside each bundle. dist/ is wiped first so no stale chunk survives.
// ncc writes dist/**/package.json {"type":"module"}: the bundles are ESM and need it (keep it).
//
// Two steps: tsc emits the entries' import graph as ESM JavaScript (--noCheck: type-checking is
// `npm run typecheck`'s job; the report page's script and style are put in as text), then ncc
// bundles that JavaScript. ncc's own TypeScript loader either
// type-checks every file of tsconfig's include (tests too) or, with --transpile-only, turns
// NodeNext modules into CommonJS, which cannot load the ESM-only toolkit.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createHash } from 'node:crypto';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const ncc = join(root, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const dist = join(root, 'dist');
/** Inside the project so that ncc resolves packages from its node_modules. */
const staging = join(root, 'node_modules', '.cache', 'tenant-scan-build');
/** Bundles are written here, then swapped in for dist/ at once (tests may be running dist/). */
const stagedDist = join(staging, 'dist');

const entries = [
  { source: 'src/main.ts', out: 'dist' },
  { source: 'src/post.ts', out: 'dist/post' },
  { source: 'src/cli.ts', out: 'dist/cli' },
  { source: 'src/rollup.ts', out: 'dist/rollup' },
  { source: 'src/rotate-key.ts', out: 'dist/rotate-key' },
  { source: 'src/settings.ts', out: 'dist/settings' },
  { source: 'src/tenants.ts', out: 'dist/tenants' },
  { source: 'src/tenants-post.ts', out: 'dist/tenants-post' },
];

const TSC_OPTIONS = [
  '--module',
  'NodeNext',
  '--moduleResolution',
  'NodeNext',
  '--target',
  'ES2023',
  '--lib',
  'ES2023',
  '--types',
  'node',
  '--skipLibCheck',
  '--esModuleInterop',
  '--resolveJsonModule',
  '--verbatimModuleSyntax',
  '--noCheck',
  '--rootDir',
  'src',
  '--outDir',
  join(staging, 'src'),
];

function run(command, args) {
  const result = spawnSync(process.execPath, [command, ...args], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0)
    throw new Error(`${relative(root, command)} failed (exit ${result.status})`);
}

function emitJavaScript(sources) {
  rmSync(staging, { recursive: true, force: true });
  run(tsc, [...TSC_OPTIONS, ...sources]);
}

/**
 * The report page's script and style (src/render/html/page/) go into the bundles as text: the
 * module that reads them at start from source (assets.js, as tsc emitted it) is replaced by one
 * holding what its loader makes of them, so a bundle reads no file. The loader is run from its
 * emitted JavaScript, copied to an .mjs file (the staging folder is under node_modules, where a
 * plain .js is not an ES module).
 */
async function inlinePageAssets() {
  const html = join(staging, 'src', 'render', 'html');
  const emitted = join(html, 'assets.js');
  if (!existsSync(emitted)) return;
  const loader = join(staging, 'page-assets.mjs');
  writeFileSync(loader, readFileSync(join(html, 'page-assets.js')));
  const { loadPageAssets } = await import(pathToFileURL(loader).href);
  const assets = loadPageAssets(join(root, 'src', 'render', 'html', 'page'));
  writeFileSync(
    emitted,
    `// The report page's script and style, from src/render/html/page/ (scripts/build.mjs).\nexport const PAGE_ASSETS = ${JSON.stringify(assets)};\n`,
  );
  rmSync(loader);
}

function checkModuleType() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  if (pkg.type !== 'module') {
    // Without it ncc silently builds CommonJS that dies at start (see shared runner-facts).
    throw new Error('package.json must have "type": "module" for ncc to build ESM bundles');
  }
}

/**
 * The CLI ships as one file (docs/cli.md: other CIs download just dist/cli/index.js and pin its
 * sha256), but ncc splits dynamic imports into chunks. esbuild merges them back into the entry:
 * a dynamically imported module becomes a lazily initialised one, so the entry's Node-version check
 * still runs before undici loads. The digest is written beside it.
 */
/**
 * ncc's chunk loader imports `"./" + __nccwpck_require__.u(id)`, so esbuild's glob takes in every
 * file beside the entry, the entry itself too; an entry that may be imported dynamically is wrapped
 * as a lazily initialised module, and V8 then parses its 1.2 MB twice at every start (0.08 CPU-s a
 * run). Spelling the loader's file name out (`u(id)` is `id + ".index.js"`, checked) narrows the
 * glob to the chunks. Either pattern missing fails the build instead of a slower bundle.
 */
function chunksOnly(entry) {
  const loader = /import\(\s*"\.\/"\s*\+\s*__nccwpck_require__\.u\((\w+)\)\s*\)/g;
  const chunkName =
    /__nccwpck_require__\.u\s*=\s*\(?(\w+)\)?\s*=>\s*\{(?:\s|\/\*+\/|\/\/[^\n]*)*return\s+""\s*\+\s*\1\s*\+\s*"\.index\.js"/;
  return {
    name: 'chunks-only',
    setup(build) {
      build.onLoad({ filter: /\.js$/ }, (args) => {
        if (args.path !== entry) return undefined;
        const code = readFileSync(entry, 'utf8');
        const loads = code.match(loader)?.length ?? 0;
        if (loads !== 1 || !chunkName.test(code)) {
          throw new Error(`ncc's chunk loader changed shape (${loads} loads): update chunksOnly`);
        }
        return { contents: code.replace(loader, 'import("./"+$1+".index.js")'), loader: 'js' };
      });
    },
  };
}

async function singleFile(target) {
  const entry = join(target, 'index.js');
  await build({
    entryPoints: [entry],
    outfile: entry,
    allowOverwrite: true,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    keepNames: true,
    legalComments: 'inline',
    logLevel: 'warning',
    plugins: [chunksOnly(entry)],
  });
  for (const chunk of readdirSync(target).filter((file) => /^\d+\.index\.js$/.test(file))) {
    rmSync(join(target, chunk));
  }
  const digest = createHash('sha256').update(readFileSync(entry)).digest('hex');
  writeFileSync(`${entry}.sha256`, `${digest}  index.js\n`);
}

async function bundle({ source, out }) {
  const emitted = join(staging, source.replace(/\.ts$/, '.js'));
  const target = join(stagedDist, relative('dist', out));
  run(ncc, [
    'build',
    emitted,
    '-o',
    target,
    '--license',
    'licenses.txt',
    '--no-source-map-register',
    '-q',
  ]);
  if (out === 'dist/cli') await singleFile(target);
  const marker = join(target, 'package.json');
  if (!existsSync(marker) || JSON.parse(readFileSync(marker, 'utf8')).type !== 'module') {
    throw new Error(
      `${join(out, 'package.json')} with {"type":"module"} is missing: the bundle would not run`,
    );
  }
  console.log(`built ${source} → ${out}/index.js`);
}

/** One build at a time: the staging path is fixed (it shapes the bundle's module ids). */
function acquireLock() {
  const lock = `${staging}.lock`;
  mkdirSync(dirname(lock), { recursive: true });
  const waitUntil = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      closeSync(openSync(lock, 'wx'));
      process.on('exit', () => rmSync(lock, { force: true }));
      return;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      const stale = Date.now() - statSync(lock, { throwIfNoEntry: false })?.mtimeMs > 5 * 60_000;
      if (stale) rmSync(lock, { force: true });
      else if (Date.now() > waitUntil) throw new Error(`another build holds ${lock}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
}

checkModuleType();
acquireLock();
const present = entries.filter((entry) => existsSync(join(root, entry.source)));
for (const entry of entries) {
  if (!present.includes(entry)) console.log(`skipped ${entry.source} (no such file yet)`);
}
emitJavaScript(present.map((entry) => entry.source));
await inlinePageAssets();
for (const entry of present) await bundle(entry);
rmSync(dist, { recursive: true, force: true });
renameSync(stagedDist, dist);
rmSync(staging, { recursive: true, force: true });
