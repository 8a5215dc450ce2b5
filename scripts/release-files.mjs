#!/usr/bin/env node
// The release's files, made and checked without GitHub: the part of .github/workflows/release.yml
// that CI runs too (.ci/run, as a dry run).
//
//  1. the version: the tag's (vX.Y.Z) is package.json's; CHANGELOG.md parses as Keep a Changelog
//     (keep-a-changelog's parser refuses any other shape) and has that version's section (a dry
//     run may take Unreleased's): the release notes;
//  2. builds (`npm run build`) and checks that dist/ is what is committed: the bundle is what the
//     source builds (a release also needs a clean work tree);
//  3. the CLI file's sha256 is the one committed beside it (dist/cli/index.js.sha256);
//  4. `npm pack`: the tarball holds exactly package.json, the README, the licence and the
//     committed files of dist/cli/, each byte-identical to the work tree;
//  5. writes to --out: tenant-scan.mjs (dist/cli/index.js), tenant-scan.mjs.sha256,
//     tenant-scan-X.Y.Z.tgz, release-notes.md; and, under GitHub Actions, the step outputs
//     version, tag, major, prerelease, tarball.
// Exits 1 with one line per problem, 2 on a usage error.
//
// Usage: node scripts/release-files.mjs (--version X.Y.Z | --dry-run) [--no-build] [--out DIR]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { parser } from 'keep-a-changelog';
import semver from 'semver';
import { list } from 'tar';
import { fail, runScript, UsageError } from './release-errors.mjs';

export const CLI_FILE = 'dist/cli/index.js';
export const ASSET = 'tenant-scan.mjs';
const REPOSITORY = 'tenant-scan/tenant-scan';

/** Runs a command in `cwd`; its stdout, or a ReleaseError naming it. */
function run(cwd, command, args, { inherit = false } = {}) {
  const result = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    stdio: inherit ? ['ignore', 'inherit', 'inherit'] : 'pipe',
  });
  if (result.status !== 0) {
    const detail = (result.stderr ?? '').trim().split('\n').at(-1) ?? '';
    fail(`${command} ${args.join(' ')} failed (exit ${result.status}) ${detail}`.trim());
  }
  return result.stdout ?? '';
}

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

/** The version asked for (a tag's vX.Y.Z or X.Y.Z), checked against package.json. */
export function checkVersion(asked, packageVersion) {
  const version = String(asked).replace(/^v/, '');
  if (semver.valid(version) !== version) fail(`"${asked}" is not a version like 1.2.3`);
  if (version !== packageVersion) {
    fail(`the release is ${version} but package.json says ${packageVersion}: bump one of them`);
  }
  const prerelease = semver.prerelease(version) !== null;
  return { version, tag: `v${version}`, major: `v${semver.major(version)}`, prerelease };
}

/** The version's section of CHANGELOG.md (Unreleased's in a dry run without one), as notes. */
export function releaseNotes(text, version, dryRun) {
  let changelog;
  try {
    changelog = parser(text);
  } catch (error) {
    fail(`CHANGELOG.md is not in Keep a Changelog form: ${error.message}`);
  }
  changelog.format = 'markdownlint';
  const release = changelog.findRelease(version) ?? (dryRun ? changelog.findRelease() : undefined);
  if (!release) {
    fail(
      `CHANGELOG.md has no section for ${version}: \`npx changelog --format markdownlint --release --version ${version}\` makes Unreleased that release`,
    );
  }
  if (release.isEmpty()) fail(`CHANGELOG.md's section for ${version} lists no change`);
  return release.toString(changelog).replace(/^## .*\n+/, '');
}

/** A release page resolves no relative link: point them at the files of the released tag. */
export function absoluteLinks(markdown, tag) {
  return markdown.replace(
    /\]\((?![a-z][a-z0-9+.-]*:|#)([^)\s]+)\)/gi,
    (_match, path) =>
      `](https://github.com/${REPOSITORY}/blob/${tag}/${path.replace(/^\.\//, '')})`,
  );
}

/** dist/ as committed (and, for a release, the whole work tree clean). */
function checkCommitted(cwd, wholeTree) {
  const changed = run(cwd, 'git', [
    'status',
    '--porcelain',
    '--untracked-files=all',
    ...(wholeTree ? [] : ['--', 'dist']),
  ]);
  if (changed.trim() !== '') {
    const files = changed
      .split('\n')
      .filter(Boolean)
      .map((line) => line.slice(3));
    const where = wholeTree ? 'the work tree' : 'dist/';
    fail(
      `${where} differs from the commit (${files.join(', ')}): run \`npm run build\` and commit dist/ with the source`,
    );
  }
}

/** The CLI file's digest, checked against the one committed beside it. */
function checkDigest(cwd) {
  const digest = sha256(readFileSync(join(cwd, CLI_FILE)));
  const committed = readFileSync(join(cwd, `${CLI_FILE}.sha256`), 'utf8').split(/\s/)[0];
  if (committed !== digest)
    fail(`${CLI_FILE}.sha256 says ${committed}, the file's sha256 is ${digest}`);
  return digest;
}

/** Entries of a tarball: path (without npm's package/ prefix) → bytes. */
async function tarballEntries(file) {
  const entries = new Map();
  await list({
    file,
    onReadEntry: (entry) => {
      const chunks = [];
      entry.on('data', (chunk) => chunks.push(chunk));
      entry.on('end', () =>
        entries.set(entry.path.replace(/^package\//, ''), Buffer.concat(chunks)),
      );
    },
  });
  return entries;
}

/** npm pack into `out`; the tarball must hold exactly the expected files, byte for byte. */
async function pack(cwd, out) {
  const [packed] = JSON.parse(
    run(cwd, 'npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out]),
  );
  const tarball = join(out, packed.filename);
  const tracked = run(cwd, 'git', ['ls-files', '--', 'dist/cli']).trim().split('\n');
  const licence = run(cwd, 'git', ['ls-files', '--', 'LICENSE*', 'LICENCE*']).trim().split('\n');
  const expected = ['package.json', 'README.md', ...licence, ...tracked].filter(Boolean).sort();
  const entries = await tarballEntries(tarball);
  const found = [...entries.keys()].sort();
  const extra = found.filter((path) => !expected.includes(path));
  const missing = expected.filter((path) => !found.includes(path));
  if (extra.length || missing.length) {
    fail(
      `the npm tarball's files are not the expected ones: extra ${extra.join(', ') || 'none'}; missing ${missing.join(', ') || 'none'}`,
    );
  }
  for (const [path, bytes] of entries) {
    if (path !== 'package.json' && !bytes.equals(readFileSync(join(cwd, path)))) {
      fail(`${path} in the npm tarball differs from the work tree's`);
    }
  }
  return {
    tarball,
    filename: packed.filename,
    files: found,
    digest: sha256(readFileSync(tarball)),
  };
}

function verifyText({ tag }, files) {
  return [
    '',
    '## Verify',
    '',
    'Every file below was built by the release workflow from the tagged commit and has a build',
    'provenance attestation; the release itself is immutable.',
    '',
    '```sh',
    `gh release verify ${tag} --repo ${REPOSITORY}`,
    `gh attestation verify ${ASSET} --repo ${REPOSITORY} --signer-workflow ${REPOSITORY}/.github/workflows/release.yml`,
    '```',
    '',
    '```text',
    ...files.map(({ name, digest }) => `${digest}  ${name}`),
    '```',
    '',
  ].join('\n');
}

function writeOutputs(release, tarball) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const { version, tag, major, prerelease } = release;
  const lines = { version, tag, major, prerelease: String(prerelease), tarball };
  appendFileSync(
    file,
    Object.entries(lines)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(''),
  );
}

/** Makes and checks the release files; returns what it wrote. */
export async function releaseFiles({ cwd, version, dryRun, build, out }) {
  const pkg = JSON.parse(readFileSync(join(cwd, 'package.json'), 'utf8'));
  const release = checkVersion(version ?? pkg.version, pkg.version);
  const notes = releaseNotes(
    readFileSync(join(cwd, 'CHANGELOG.md'), 'utf8'),
    release.version,
    dryRun,
  );
  if (build) run(cwd, 'npm', ['run', 'build'], { inherit: true });
  checkCommitted(cwd, !dryRun);
  const digest = checkDigest(cwd);
  mkdirSync(out, { recursive: true });
  const packed = await pack(cwd, out);
  copyFileSync(join(cwd, CLI_FILE), join(out, ASSET));
  writeFileSync(join(out, `${ASSET}.sha256`), `${digest}  ${ASSET}\n`);
  const assets = [
    { name: ASSET, digest },
    { name: packed.filename, digest: packed.digest },
  ];
  const body = absoluteLinks(notes, release.tag).trimEnd() + '\n' + verifyText(release, assets);
  writeFileSync(join(out, 'release-notes.md'), body);
  writeOutputs(release, packed.filename);
  return { ...release, digest, tarball: packed.filename, files: packed.files };
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      version: { type: 'string' },
      'dry-run': { type: 'boolean', default: false },
      'no-build': { type: 'boolean', default: false },
      out: { type: 'string', default: 'release' },
    },
  });
  if (!values.version && !values['dry-run'])
    throw new UsageError('give --version X.Y.Z, or --dry-run');
  return values;
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  const made = await releaseFiles({
    cwd: process.cwd(),
    version: options.version,
    dryRun: options['dry-run'],
    build: !options['no-build'],
    out: resolve(options.out),
  });
  const what = `${made.tag}${options['dry-run'] ? ' (dry run)' : ''}`;
  console.log(`${what}: ${ASSET} sha256 ${made.digest}`);
  console.log(`${made.tarball}: ${made.files.join(', ')}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runScript('release-files', main);
}
