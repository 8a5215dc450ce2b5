// scripts/release-files.mjs, the release workflow's local part, run as the workflow and CI run it
// on a commit of this repository's release inputs (package.json, README, CHANGELOG and the built
// dist/cli/): the CLI file, its sha256 and the npm tarball it writes are byte-identical to dist/,
// and each way a release could go out wrong stops it with one line.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { list } from 'tar';
import { assertBundleBuilt, ROOT } from '../cli/helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'release-files.mjs');
const DIST_CLI = join(ROOT, 'dist', 'cli');
const CHANGELOG_1_0_0 = `# Changelog

A test changelog.

## [Unreleased]

## [1.0.0] - 2026-11-26

### Added

- The first release, see [SECURITY.md](SECURITY.md).

[Unreleased]: https://github.com/tenant-scan/tenant-scan/compare/v1.0.0...HEAD
[1.0.0]: https://github.com/tenant-scan/tenant-scan/releases/tag/v1.0.0
`;

let work: string;
before(() => {
  assertBundleBuilt();
  work = mkdtempSync(join(tmpdir(), 'tenant-scan-release-files-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' });
}

/** A git repository holding the release inputs as committed here; `change` edits it first. */
function repository(name: string, change: (dir: string) => void = () => {}): string {
  const dir = join(work, name);
  for (const file of ['package.json', 'README.md', 'CHANGELOG.md']) {
    cpSync(join(ROOT, file), join(dir, file));
  }
  cpSync(DIST_CLI, join(dir, 'dist', 'cli'), { recursive: true });
  change(dir);
  git(dir, 'init', '-q');
  git(dir, 'add', '-A');
  git(dir, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-qm', 'inputs');
  return dir;
}

interface Run {
  code: number;
  stdout: string;
  stderr: string;
  out: string;
  outputs: Record<string, string>;
}

function releaseFiles(cwd: string, ...args: string[]): Promise<Run> {
  const out = join(cwd, '..', `${cwd.split('/').pop()}-out`);
  const outputFile = join(cwd, '..', `${cwd.split('/').pop()}-github-output`);
  writeFileSync(outputFile, '');
  const env = { ...process.env, GITHUB_OUTPUT: outputFile };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [SCRIPT, '--no-build', '--out', out, ...args],
      { cwd, env },
      (error, stdout, stderr) => {
        const outputs = Object.fromEntries(
          readFileSync(outputFile, 'utf8')
            .split('\n')
            .filter(Boolean)
            .map((line) => line.split('=') as [string, string]),
        );
        resolve({ code: error ? Number(error.code) : 0, stdout, stderr, out, outputs });
      },
    );
  });
}

/** The tarball's entries: path without npm's package/ prefix → bytes. */
async function entries(tarball: string): Promise<Map<string, Buffer>> {
  const found = new Map<string, Buffer>();
  await list({
    file: tarball,
    onReadEntry: (entry) => {
      const chunks: Buffer[] = [];
      entry.on('data', (chunk: Buffer) => chunks.push(chunk));
      entry.on('end', () => found.set(entry.path.replace(/^package\//, ''), Buffer.concat(chunks)));
    },
  });
  return found;
}

const builtDigest = () => readFileSync(join(DIST_CLI, 'index.js.sha256'), 'utf8').split(/\s/)[0];

describe('scripts/release-files.mjs', () => {
  it('a dry run writes the CLI file, its sha256 and the npm tarball, byte-identical to dist/', async () => {
    const run = await releaseFiles(repository('dry-run'), '--dry-run');
    assert.equal(run.code, 0, run.stderr);
    const cli = readFileSync(join(DIST_CLI, 'index.js'));
    assert.ok(readFileSync(join(run.out, 'tenant-scan.mjs')).equals(cli), 'the CLI file');
    const digest = createHash('sha256').update(cli).digest('hex');
    assert.equal(builtDigest(), digest, 'dist/ holds the digest of its CLI file');
    assert.equal(
      readFileSync(join(run.out, 'tenant-scan.mjs.sha256'), 'utf8'),
      `${digest}  tenant-scan.mjs\n`,
    );

    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const tarball = join(run.out, `tenant-scan-${version}.tgz`);
    const packed = await entries(tarball);
    const distFiles = execFileSync('git', ['ls-files', 'dist/cli'], { cwd: ROOT, encoding: 'utf8' })
      .trim()
      .split('\n');
    assert.deepEqual([...packed.keys()].sort(), ['README.md', ...distFiles, 'package.json'].sort());
    for (const file of distFiles) {
      assert.ok(packed.get(file)?.equals(readFileSync(join(ROOT, file))), `${file} in the tarball`);
    }
    assert.deepEqual(run.outputs, {
      version,
      tag: `v${version}`,
      major: `v${version.split('.')[0]}`,
      prerelease: 'false',
      tarball: `tenant-scan-${version}.tgz`,
    });
    const notes = readFileSync(join(run.out, 'release-notes.md'), 'utf8');
    assert.match(notes, new RegExp(`^${digest}  tenant-scan\\.mjs$`, 'm'));
    const tarballDigest = createHash('sha256').update(readFileSync(tarball)).digest('hex');
    assert.match(notes, new RegExp(`^${tarballDigest}  tenant-scan-${version}\\.tgz$`, 'm'));
    assert.match(
      notes,
      /^gh attestation verify tenant-scan\.mjs --repo tenant-scan\/tenant-scan --signer-workflow tenant-scan\/tenant-scan\/\.github\/workflows\/release\.yml$/m,
    );
  });

  it('a release takes its notes from its CHANGELOG section, links pointing at the tag', async () => {
    const dir = repository('release', (d) => {
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { version: string };
      writeFileSync(join(d, 'package.json'), JSON.stringify({ ...pkg, version: '1.0.0' }, null, 2));
      writeFileSync(join(d, 'CHANGELOG.md'), CHANGELOG_1_0_0);
    });
    const run = await releaseFiles(dir, '--version', 'v1.0.0');
    assert.equal(run.code, 0, run.stderr);
    const notes = readFileSync(join(run.out, 'release-notes.md'), 'utf8');
    assert.match(
      notes,
      /^### Added\n\n- The first release, see \[SECURITY\.md\]\(https:\/\/github\.com\/tenant-scan\/tenant-scan\/blob\/v1\.0\.0\/SECURITY\.md\)\.$/m,
    );
    assert.equal(run.outputs.major, 'v1');
    const other = await releaseFiles(dir, '--version', '1.0.1');
    assert.equal(other.code, 1);
    assert.match(
      other.stderr,
      /^release-files: the release is 1\.0\.1 but package\.json says 1\.0\.0/m,
    );
  });

  it('a release without its CHANGELOG section, or in a dirty work tree, stops', async () => {
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version as string;
    const dir = repository('no-section');
    const run = await releaseFiles(dir, '--version', version);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      new RegExp(`CHANGELOG\\.md has no section for ${version.replace(/\./g, '\\.')}`),
    );
    const dirty = repository('dirty', (d) => {
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { version: string };
      writeFileSync(join(d, 'package.json'), JSON.stringify({ ...pkg, version: '1.0.0' }, null, 2));
      writeFileSync(join(d, 'CHANGELOG.md'), CHANGELOG_1_0_0);
    });
    writeFileSync(join(dirty, 'stray.txt'), 'not committed');
    const stray = await releaseFiles(dirty, '--version', '1.0.0');
    assert.equal(stray.code, 1);
    assert.match(stray.stderr, /the work tree differs from the commit \(stray\.txt\)/);
  });

  it('dist/ unlike its commit, a digest unlike the file, a file the tarball should not hold: each stops', async () => {
    const stale = repository('stale');
    appendFileSync(join(stale, 'dist', 'cli', 'index.js'), '\n');
    const run = await releaseFiles(stale, '--dry-run');
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /dist\/ differs from the commit \(dist\/cli\/index\.js\): run `npm run build`/,
    );

    const digest = repository('digest', (d) => {
      writeFileSync(join(d, 'dist', 'cli', 'index.js.sha256'), `${'0'.repeat(64)}  index.js\n`);
    });
    const wrong = await releaseFiles(digest, '--dry-run');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /index\.js\.sha256 says 0{64}, the file's sha256 is [0-9a-f]{64}/);

    const extra = repository('extra', (d) => {
      const pkg = JSON.parse(readFileSync(join(d, 'package.json'), 'utf8')) as { files: string[] };
      const files = [...pkg.files, 'CHANGELOG.md'];
      writeFileSync(join(d, 'package.json'), JSON.stringify({ ...pkg, files }, null, 2));
    });
    const packed = await releaseFiles(extra, '--dry-run');
    assert.equal(packed.code, 1);
    assert.match(
      packed.stderr,
      /the npm tarball's files are not the expected ones: extra CHANGELOG\.md/,
    );
  });

  it('a CHANGELOG not in Keep a Changelog form stops, and so does a usage error', async () => {
    const dir = repository('changelog', (d) => {
      writeFileSync(join(d, 'CHANGELOG.md'), '# Changelog\n\n## Version one\n\n- a change\n');
    });
    const run = await releaseFiles(dir, '--dry-run');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /CHANGELOG\.md is not in Keep a Changelog form/);
    const usage = await releaseFiles(dir);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /give --version X\.Y\.Z, or --dry-run/);
  });
});
