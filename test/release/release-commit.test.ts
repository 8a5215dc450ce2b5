// scripts/release-commit.mjs in a temporary git repository holding this repository's Action and
// workflows: the release commit's reusable workflows call the Action (and the roll-up) at its
// parent commit, which holds the same Action; nothing else differs; the commit is the same when
// made again; --check tells a release commit from any other; the workflows still lint and pin.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { pinProblems, usesIn } from '../helpers/action-pins.js';
import { ROOT } from '../cli/helpers.js';

const SCRIPT = join(ROOT, 'scripts', 'release-commit.mjs');
const LINT = join(ROOT, 'scripts', 'lint-workflows.mjs');
const WORKFLOWS = [
  '.github/workflows/tenant-scan.yml',
  '.github/workflows/tenant-scan-tenants.yml',
];
const OWN = /^tenant-scan\/tenant-scan(\/rollup|\/tenants)?@/;

interface Step {
  uses?: string;
}
interface Workflow {
  jobs: Record<string, { steps?: Step[] }>;
}

let work: string;
before(() => {
  work = mkdtempSync(join(tmpdir(), 'tenant-scan-release-commit-'));
});
after(() => rmSync(work, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();
}

function commitAll(cwd: string, message: string): string {
  git(cwd, 'add', '-A');
  const who = ['-c', 'user.name=maintainer', '-c', 'user.email=m@example.com'];
  execFileSync('git', [...who, 'commit', '-qm', message], {
    cwd,
    env: { ...process.env, GIT_COMMITTER_DATE: '2026-11-20T10:00:00Z' },
  });
  return git(cwd, 'rev-parse', 'HEAD');
}

/** A repository with the Action's metadata, stand-ins of its bundles and the workflows. */
function repository(name: string): { dir: string; head: string } {
  const dir = join(work, name);
  for (const file of [
    'action.yml',
    'rollup/action.yml',
    'tenants/action.yml',
    ...WORKFLOWS,
    '.github/workflows/ci.yml',
  ]) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  for (const bundle of [
    'dist/index.js',
    'dist/post/index.js',
    'dist/rollup/index.js',
    'dist/tenants/index.js',
    'dist/tenants-post/index.js',
  ]) {
    mkdirSync(dirname(join(dir, bundle)), { recursive: true });
    writeFileSync(join(dir, bundle), `// ${bundle}\n`);
  }
  git(join(dir), 'init', '-q');
  return { dir, head: commitAll(dir, 'the Action') };
}

function releaseCommit(cwd: string, ...args: string[]) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [SCRIPT, ...args], { cwd }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout: stdout.trim(), stderr });
    });
  });
}

const ownUses = (workflow: Workflow) =>
  Object.values(workflow.jobs)
    .flatMap((job) => job.steps ?? [])
    .map((step) => step.uses ?? '')
    .filter((uses) => OWN.test(uses));

describe('scripts/release-commit.mjs', () => {
  it('makes a commit on top whose workflows call the Action at it, and nothing else', async () => {
    const { dir, head } = repository('make');
    const made = await releaseCommit(dir, '--version', '1.2.3', '--tag');
    assert.equal(made.code, 0, made.stderr);
    const release = made.stdout;
    assert.match(release, /^[0-9a-f]{40}$/);
    assert.equal(git(dir, 'rev-list', '--parents', '-n', '1', release), `${release} ${head}`);
    assert.equal(git(dir, 'rev-parse', 'v1.2.3^{commit}'), release, 'tagged');
    assert.deepEqual(
      git(dir, 'diff', '--name-only', head, release).split('\n'),
      [...WORKFLOWS].sort(),
    );
    assert.equal(git(dir, 'rev-parse', 'HEAD'), head, 'HEAD stays');
    assert.equal(git(dir, 'status', '--porcelain'), '', 'work tree and index untouched');

    for (const path of WORKFLOWS) {
      const before = yaml.load(git(dir, 'show', `${head}:${path}`)) as Workflow;
      const text = git(dir, 'show', `${release}:${path}`);
      const pinned = ownUses(yaml.load(text) as Workflow);
      assert.equal(pinned.length, ownUses(before).length, `${path}: every call of the Action`);
      assert.ok(pinned.length > 0);
      for (const uses of pinned)
        assert.match(uses, new RegExp(`^tenant-scan/tenant-scan(/rollup|/tenants)?@${head}$`));
      assert.equal(text.split(`@${head} # v1.2.3\n`).length - 1, pinned.length, 'with the version');
      assert.deepEqual(pinProblems(usesIn(path, text)), [], `${path} pins`);
    }
    assert.ok(
      ownUses(yaml.load(git(dir, 'show', `${release}:${WORKFLOWS[1]}`)) as Workflow).some((u) =>
        u.startsWith(`tenant-scan/tenant-scan/rollup@${head}`),
      ),
      'the roll-up sub-action too',
    );
    // The commit named holds the Action those workflows run.
    for (const file of [
      'action.yml',
      'rollup/action.yml',
      'dist/index.js',
      'dist/rollup/index.js',
      'tenants/action.yml',
      'dist/tenants/index.js',
    ]) {
      git(dir, 'cat-file', '-e', `${head}:${file}`);
    }

    const again = await releaseCommit(dir, '--version', '1.2.3');
    assert.equal(again.stdout, release, 'made again, the same commit');
    const fromRelease = await releaseCommit(dir, '--version', '1.2.3', '--from', release);
    assert.equal(fromRelease.stdout, release, 'from a release commit, that commit');
  });

  it('the released workflows pass actionlint', async () => {
    const { dir } = repository('lint');
    const release = (await releaseCommit(dir, '--version', '1.2.3')).stdout;
    const out = join(work, 'lint-out');
    for (const path of WORKFLOWS) {
      mkdirSync(dirname(join(out, path)), { recursive: true });
      writeFileSync(join(out, path), git(dir, 'show', `${release}:${path}`) + '\n');
    }
    const files = WORKFLOWS.map((path) => join(out, path));
    const result = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--liftoff-only', LINT, '--no-action', ...files],
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, stdout }),
      );
    });
    assert.equal(result.code, 0, result.stdout);
  });

  it('--check accepts the release commit only, for its version', async () => {
    const { dir, head } = repository('check');
    const release = (await releaseCommit(dir, '--version', '2.0.0')).stdout;
    const ok = await releaseCommit(dir, '--version', 'v2.0.0', '--check', '--from', release);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(ok.stdout, release);

    const notRelease = await releaseCommit(dir, '--version', '2.0.0', '--check', '--from', head);
    assert.equal(notRelease.code, 1);
    assert.match(
      notRelease.stderr,
      /^release-commit: [0-9a-f]{40} is not the release commit of v2\.0\.0: /m,
    );
    assert.match(notRelease.stderr, /npm run release:commit -- --version 2\.0\.0 --tag/);

    const otherVersion = await releaseCommit(
      dir,
      '--version',
      '2.0.1',
      '--check',
      '--from',
      release,
    );
    assert.equal(otherVersion.code, 1);
    assert.match(
      otherVersion.stderr,
      /in \.github\/workflows\/tenant-scan-tenants\.yml, \.github\/workflows\/tenant-scan\.yml/,
    );

    // A commit that pins the workflows as a release does, but changes the Action too.
    git(dir, 'checkout', '-q', release);
    writeFileSync(join(dir, 'dist', 'index.js'), '// something else\n');
    git(dir, 'commit', '-q', '--amend', '-a', '--no-edit');
    const tampered = await releaseCommit(dir, '--version', '2.0.0', '--check');
    assert.equal(tampered.code, 1);
    assert.match(
      tampered.stderr,
      /differs from the release commit of [0-9a-f]{40} in dist\/index\.js/,
    );
  });

  it('refuses a workflow that calls no Action, a commit without the Action, a bad version', async () => {
    const { dir } = repository('refuse');
    writeFileSync(join(dir, WORKFLOWS[0]!), 'on: workflow_call\njobs: {}\n');
    commitAll(dir, 'no call');
    const noCall = await releaseCommit(dir, '--version', '1.0.0');
    assert.equal(noCall.code, 1);
    assert.match(noCall.stderr, /tenant-scan\.yml calls no tenant-scan\/tenant-scan action/);

    const { dir: bare } = repository('no-bundle');
    rmSync(join(bare, 'dist', 'rollup'), { recursive: true });
    commitAll(bare, 'no roll-up bundle');
    const noAction = await releaseCommit(bare, '--version', '1.0.0');
    assert.equal(noAction.code, 1);
    assert.match(noAction.stderr, /has no dist\/rollup\/index\.js, which rollup\/action\.yml runs/);

    const usage = await releaseCommit(dir, '--version', 'one');
    assert.equal(usage.code, 2);
  });
});
