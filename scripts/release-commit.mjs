#!/usr/bin/env node
// The release commit: the reusable workflows of a release call the Action by commit, not by tag.
//
// On main, .github/workflows/tenant-scan.yml and tenant-scan-tenants.yml call
// `tenant-scan/tenant-scan@v1` (and `…/rollup@v1`, `…/tenants@v1`): a caller who pins such a workflow by SHA would
// still run whatever `v1` points to, with their key. A commit cannot name itself, so the release
// commit R is made on top of the commit C being released: R's workflows call the Action at C
// (`tenant-scan/tenant-scan@<C> # vX.Y.Z`), C holds the same Action as R, and nothing else
// differs. The release tag vX.Y.Z (and vX) point at R.
//
// R is made with git plumbing (a temporary index; the work tree, index and HEAD are untouched),
// with a fixed author and C's date, so making it again gives the same commit.
//
// Usage: node scripts/release-commit.mjs --version X.Y.Z [--from REV] [--tag]
//          makes R from REV (default HEAD; REV itself when it already is a release commit of
//          that version) and prints its SHA; --tag also tags it vX.Y.Z.
//        node scripts/release-commit.mjs --version X.Y.Z --check [--from REV]
//          checks that REV (default HEAD) is the release commit of its parent for that version.
// Exits 1 with one line on a problem, 2 on a usage error.
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { fail, ReleaseError, runScript, UsageError } from './release-errors.mjs';

export const WORKFLOWS = [
  '.github/workflows/tenant-scan.yml',
  '.github/workflows/tenant-scan-tenants.yml',
];
/** The action metadata files of the Action; the files their runs name must be at C too. */
const ACTIONS = ['action.yml', 'rollup/action.yml'];
const USES_OWN_ACTION =
  /^(\s*(?:-\s+)?uses:\s*)(tenant-scan\/tenant-scan(?:\/(?:rollup|tenants))?)@\S+(?:\s+#.*)?$/gm;
const IDENTITY = {
  name: 'github-actions[bot]',
  email: '41898282+github-actions[bot]@users.noreply.github.com',
};

function git(cwd, args, { input, env } = {}) {
  const result = spawnSync('git', args, {
    cwd,
    input,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) {
    fail(`git ${args.join(' ')} failed: ${(result.stderr ?? '').trim().split('\n').at(-1)}`);
  }
  return result.stdout;
}

const exists = (cwd, object) =>
  spawnSync('git', ['cat-file', '-e', object], { cwd, stdio: 'ignore' }).status === 0;

/** The workflow's text with every call of the Action (and roll-up) at `commit`. */
export function pinOwnAction(text, commit, version) {
  let count = 0;
  const pinned = text.replace(USES_OWN_ACTION, (_line, prefix, action) => {
    count += 1;
    return `${prefix}${action}@${commit} # v${version}`;
  });
  return { pinned, count };
}

/** `commit` holds the Action: its metadata files and the files their runs name. */
function checkHoldsAction(cwd, commit) {
  for (const metadata of ACTIONS) {
    if (!exists(cwd, `${commit}:${metadata}`)) fail(`${commit} has no ${metadata}: no Action`);
    const text = git(cwd, ['show', `${commit}:${metadata}`]);
    const dir = metadata.includes('/') ? metadata.slice(0, metadata.lastIndexOf('/') + 1) : '';
    for (const [, entry] of text.matchAll(/^\s+(?:main|pre|post):\s*['"]?([^'"\s]+)/gm)) {
      const path = join(dir, entry);
      if (!exists(cwd, `${commit}:${path}`))
        fail(`${commit} has no ${path}, which ${metadata} runs`);
    }
  }
}

/** The tree of the release commit of `commit`: its own, with the workflows pinned to it. */
function releaseTree(cwd, commit, version) {
  checkHoldsAction(cwd, commit);
  const index = mkdtempSync(join(tmpdir(), 'tenant-scan-release-index-'));
  const env = { GIT_INDEX_FILE: join(index, 'index') };
  try {
    git(cwd, ['read-tree', commit], { env });
    for (const path of WORKFLOWS) {
      const { pinned, count } = pinOwnAction(
        git(cwd, ['show', `${commit}:${path}`]),
        commit,
        version,
      );
      if (count === 0) fail(`${path} calls no tenant-scan/tenant-scan action: nothing to pin`);
      const blob = git(cwd, ['hash-object', '-w', '--stdin'], { input: pinned }).trim();
      const mode = git(cwd, ['ls-tree', commit, '--', path]).split(' ')[0];
      git(cwd, ['update-index', '--cacheinfo', `${mode},${blob},${path}`], { env });
    }
    return git(cwd, ['write-tree'], { env }).trim();
  } finally {
    rmSync(index, { recursive: true, force: true });
  }
}

const resolveCommit = (cwd, rev) => git(cwd, ['rev-parse', '--verify', `${rev}^{commit}`]).trim();

/** Whether `candidate` is the release commit of its (only) parent for `version`. */
function isReleaseCommit(cwd, candidate, version) {
  const [, ...parents] = git(cwd, ['rev-list', '--parents', '-n', '1', candidate])
    .trim()
    .split(' ');
  if (parents.length !== 1) return { ok: false, why: `it has ${parents.length} parents, not 1` };
  const [parent] = parents;
  const expected = releaseTree(cwd, parent, version);
  const actual = git(cwd, ['rev-parse', `${candidate}^{tree}`]).trim();
  if (expected === actual) return { ok: true, parent };
  const differ = git(cwd, ['diff', '--name-only', expected, actual]).trim().split('\n');
  return {
    ok: false,
    why: `it differs from the release commit of ${parent} in ${differ.join(', ')}`,
  };
}

/** Whether `commit` is a release commit already (making one again from it is then a no-op). */
function alreadyReleaseCommit(cwd, commit, version) {
  if (!exists(cwd, `${commit}^`)) return false;
  try {
    return isReleaseCommit(cwd, commit, version).ok;
  } catch (error) {
    if (error instanceof ReleaseError) return false; // its parent holds no Action to release
    throw error;
  }
}

/** Makes (or finds) the release commit of `from` for `version`. */
export function makeReleaseCommit({ cwd, version, from = 'HEAD' }) {
  const commit = resolveCommit(cwd, from);
  if (alreadyReleaseCommit(cwd, commit, version)) {
    return { commit, actionCommit: resolveCommit(cwd, `${commit}^`) };
  }
  const tree = releaseTree(cwd, commit, version);
  const date = `@${git(cwd, ['log', '-1', '--format=%ct', commit]).trim()} +0000`;
  const env = {
    GIT_AUTHOR_NAME: IDENTITY.name,
    GIT_AUTHOR_EMAIL: IDENTITY.email,
    GIT_AUTHOR_DATE: date,
    GIT_COMMITTER_NAME: IDENTITY.name,
    GIT_COMMITTER_EMAIL: IDENTITY.email,
    GIT_COMMITTER_DATE: date,
  };
  const message = [
    `Release v${version}`,
    '',
    'The reusable workflows call the Action at the parent of this commit,',
    `${commit}, which holds the same Action: a workflow pinned by`,
    'commit runs an Action pinned by commit.',
    '',
  ].join('\n');
  const args = ['commit-tree', '--no-gpg-sign', tree, '-p', commit];
  const release = git(cwd, args, { input: message, env }).trim();
  return { commit: release, actionCommit: commit };
}

export function checkReleaseCommit({ cwd, version, from = 'HEAD' }) {
  const commit = resolveCommit(cwd, from);
  const verdict = isReleaseCommit(cwd, commit, version);
  if (!verdict.ok) {
    fail(
      `${commit} is not the release commit of v${version}: ${verdict.why}. Make it with \`npm run release:commit -- --version ${version} --tag\` and push that tag`,
    );
  }
  return { commit, actionCommit: verdict.parent };
}

function tag(cwd, name, commit) {
  const existing = spawnSync('git', ['rev-parse', '--verify', '-q', `refs/tags/${name}^{commit}`], {
    cwd,
    encoding: 'utf8',
  }).stdout.trim();
  if (existing && existing !== commit) fail(`tag ${name} exists and points at ${existing}`);
  if (!existing) git(cwd, ['tag', name, commit]);
}

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      version: { type: 'string' },
      from: { type: 'string', default: 'HEAD' },
      check: { type: 'boolean', default: false },
      tag: { type: 'boolean', default: false },
    },
  });
  const version = values.version?.replace(/^v/, '');
  if (!version || !/^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/.test(version)) {
    throw new UsageError('give --version X.Y.Z');
  }
  return { ...values, version };
}

function main() {
  const options = parseOptions(process.argv.slice(2));
  const cwd = process.cwd();
  const made = options.check
    ? checkReleaseCommit({ cwd, ...options })
    : makeReleaseCommit({ cwd, ...options });
  if (options.tag && !options.check) tag(cwd, `v${options.version}`, made.commit);
  if (process.env.GITHUB_OUTPUT) {
    const lines = `commit=${made.commit}\naction-commit=${made.actionCommit}\n`;
    appendFileSync(process.env.GITHUB_OUTPUT, lines);
  }
  console.log(made.commit);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await runScript('release-commit', main);
}
