// .github/workflows/release.yml read as the runner reads it, its conditions and values evaluated
// with GitHub's own expression evaluator (@actions/expressions): which steps run for a pushed tag,
// a pre-release tag and a release made by hand; least privilege per job; the App's secret only in
// jobs behind the `release` environment; and the npm version check run as written.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import yaml from 'js-yaml';
import { ROOT } from '../cli/helpers.js';
import {
  condition,
  expandString,
  expressionsIn,
  type Contexts,
  type WorkflowStep,
} from '../helpers/workflow-expressions.js';

type Step = WorkflowStep;
interface Job {
  if?: string;
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  outputs?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  jobs: Record<string, Job>;
}

const workflow = yaml.load(
  readFileSync(join(ROOT, '.github', 'workflows', 'release.yml'), 'utf8'),
) as Workflow;
const { jobs } = workflow;

/** The step outputs scripts/release-files.mjs writes (test/release/release-files.test.ts). */
function filesOutputs(version: string): Record<string, string> {
  const prerelease = version.includes('-');
  return {
    version,
    tag: `v${version}`,
    major: `v${version.split('.')[0]}`,
    prerelease: String(prerelease),
    tarball: `tenant-scan-${version}.tgz`,
  };
}

/** The contexts of a run: the event, and the outputs of the jobs it needs. */
function run(event: 'push' | 'workflow_dispatch', ref: string, version: string): Contexts {
  const refName = ref.replace(/^refs\/(tags|heads)\//, '');
  const files = {
    outputs: Object.fromEntries(
      Object.entries(jobs.files?.outputs ?? {}).map(([name, value]) => [
        name,
        expandString(value, { steps: { files: { outputs: filesOutputs(version) } } }),
      ]),
    ),
  };
  return {
    github: {
      event_name: event,
      ref,
      ref_name: refName,
      repository: 'tenant-scan/tenant-scan',
      sha: 'c0ffee'.padEnd(40, '0'),
    },
    inputs: event === 'workflow_dispatch' ? { version } : {},
    vars: {},
    secrets: {},
    steps: {},
    needs: { files, tag: { outputs: { commit: 'a'.repeat(40) } } },
  };
}

/** Names of the steps of `job` that run in `contexts`. */
function stepsRunning(job: string, contexts: Contexts): string[] {
  return (jobs[job]?.steps ?? [])
    .filter((step) => condition(step.if, contexts))
    .map((step) => step.name ?? step.uses?.split('@')[0] ?? step.run ?? '');
}

const step = (job: string, name: string): Step => {
  const found = jobs[job]?.steps.find((s) => s.name === name);
  assert.ok(found, `${job}: a step "${name}"`);
  return found;
};

describe('the release workflow', () => {
  it('runs on a version tag and by hand with a version, and a release by hand only from main', () => {
    assert.deepEqual(Object.keys(workflow.on).sort(), ['push', 'workflow_dispatch']);
    const push = run('push', 'refs/tags/v1.2.3', '1.2.3');
    const byHand = run('workflow_dispatch', 'refs/heads/main', '1.2.3');
    const fromBranch = run('workflow_dispatch', 'refs/heads/feature', '1.2.3');
    assert.equal(condition(jobs.files?.if, push), true);
    assert.equal(condition(jobs.files?.if, byHand), true);
    assert.equal(condition(jobs.files?.if, fromBranch), false, 'not from another branch');
    // The other jobs need files (directly or not) and have no condition of their own that would
    // run them after it was skipped (no always() or !cancelled()).
    for (const [name, job] of Object.entries(jobs)) {
      if (name === 'files') continue;
      assert.ok([job.needs ?? []].flat().length > 0, `${name} needs another job`);
      assert.ok(!/always\(\)|cancelled\(\)/.test(job.if ?? ''), name);
    }
    // By hand, the run ends with the tag it pushed (an App's push starts the run that releases):
    // attest is skipped, and release and npm after it.
    assert.equal(condition(jobs.attest?.if, push), true);
    assert.equal(condition(jobs.attest?.if, byHand), false);
    assert.deepEqual([jobs.release?.needs].flat().includes('attest'), true);
    assert.deepEqual([jobs.npm?.needs].flat().includes('release'), true);
    const version = step('files', 'Build and check the release files').env?.VERSION;
    assert.equal(expandString(version, push), 'v1.2.3', 'the tag');
    assert.equal(expandString(version, byHand), '1.2.3', 'the version typed in');
  });

  it('a pushed tag is checked, not made; a release by hand makes the commit and pushes its tag', () => {
    const push = run('push', 'refs/tags/v1.2.3', '1.2.3');
    assert.deepEqual(stepsRunning('tag', push), [
      'actions/checkout',
      'Check that the pushed tag is at a release commit',
    ]);
    const byHand = run('workflow_dispatch', 'refs/heads/main', '1.2.3');
    assert.deepEqual(stepsRunning('tag', byHand), [
      'actions/checkout',
      'Make the release commit',
      'Token of the release App',
      'Push the tag',
    ]);
    const pushed = step('tag', 'Push the tag').env ?? {};
    const madeCommit = { ...byHand, steps: { make: { outputs: { commit: 'b'.repeat(40) } } } };
    assert.equal(expandString(pushed.COMMIT, madeCommit), 'b'.repeat(40));
    assert.equal(expandString(pushed.TAG, byHand), 'v1.2.3');
    const commit = jobs.tag?.outputs?.commit;
    assert.equal(expandString(commit, madeCommit), 'b'.repeat(40), 'made');
    const checked = { ...push, steps: { check: { outputs: { commit: 'c'.repeat(40) } } } };
    assert.equal(expandString(commit, checked), 'c'.repeat(40), 'checked');
  });

  it('a release moves its major tag; a pre-release does not, and goes to npm as next', () => {
    const release = run('push', 'refs/tags/v1.2.3', '1.2.3');
    assert.deepEqual(stepsRunning('release', release).slice(1), [
      'Publish the release',
      'Token of the release App',
      'Move the major tag to the release',
    ]);
    const publish = step('release', 'Publish the release').env ?? {};
    assert.equal(expandString(publish.PRERELEASE, release), 'false');
    const move = step('release', 'Move the major tag to the release').env ?? {};
    assert.equal(expandString(move.MAJOR, release), 'v1');
    assert.equal(expandString(move.COMMIT, release), 'a'.repeat(40), 'the release commit');
    const npm = step('npm', 'Publish with provenance').env ?? {};
    assert.equal(expandString(npm.DIST_TAG, release), 'latest');
    assert.equal(expandString(npm.TARBALL, release), 'tenant-scan-1.2.3.tgz');

    const candidate = run('push', 'refs/tags/v1.3.0-rc.1', '1.3.0-rc.1');
    assert.deepEqual(stepsRunning('release', candidate).slice(1), ['Publish the release']);
    assert.equal(expandString(publish.PRERELEASE, candidate), 'true');
    assert.equal(expandString(npm.DIST_TAG, candidate), 'next');
    const subjects = step('attest', 'Attest the CLI file and the npm tarball').with?.[
      'subject-path'
    ];
    assert.deepEqual(expandString(subjects, candidate).trim().split('\n'), [
      'release/tenant-scan.mjs',
      'release/tenant-scan-1.3.0-rc.1.tgz',
    ]);
  });

  it("each job's token has only what the job does; the App's key only behind the environment", () => {
    assert.deepEqual(workflow.permissions, {}, 'nothing by default');
    const permissions = Object.fromEntries(
      Object.entries(jobs).map(([name, job]) => [name, job.permissions]),
    );
    assert.deepEqual(permissions, {
      files: { contents: 'read' },
      tag: { contents: 'read' },
      attest: { 'id-token': 'write', attestations: 'write' },
      release: { contents: 'write' },
      npm: { 'id-token': 'write' },
    });
    for (const [name, job] of Object.entries(jobs)) {
      const secrets = expressionsIn(job).filter((e) => /\bsecrets\./.test(e));
      if (secrets.length > 0) assert.equal(job.environment, 'release', `${name} reads ${secrets}`);
    }
    assert.deepEqual(
      Object.entries(jobs)
        .filter(([, job]) => job.environment === 'release')
        .map(([name]) => name),
      ['tag', 'release', 'npm'],
    );
    for (const [name, job] of Object.entries(jobs)) {
      for (const s of job.steps.filter((s) => s.uses?.startsWith('actions/checkout@'))) {
        assert.equal(s.with?.['persist-credentials'], false, `${name}: no token left in .git`);
      }
    }
  });

  describe('the npm version check, as written', () => {
    let bin: string;
    before(() => {
      bin = mkdtempSync(join(tmpdir(), 'tenant-scan-npm-check-'));
    });
    after(() => rmSync(bin, { recursive: true, force: true }));

    function check(npmVersion: string) {
      const npm = join(bin, 'npm');
      writeFileSync(npm, `#!/bin/sh\necho ${npmVersion}\n`);
      chmodSync(npm, 0o755);
      const script =
        step('npm', 'Check that npm can publish through trusted publishing (11.5.1 or later)')
          .run ?? '';
      return spawnSync('bash', ['-e', '-c', script], {
        encoding: 'utf8',
        env: { PATH: `${bin}:/usr/bin:/bin` },
      });
    }

    it('refuses an npm older than 11.5.1 and takes 11.5.1 or later', () => {
      for (const old of ['10.9.2', '11.5.0', '9.99.99']) {
        const result = check(old);
        assert.equal(result.status, 1, old);
        assert.match(
          result.stdout,
          new RegExp(`::error::npm ${old.replace(/\./g, '\\.')} cannot publish`),
        );
      }
      for (const recent of ['11.5.1', '11.6.2', '11.10.0', '12.0.0']) {
        assert.equal(check(recent).status, 0, recent);
      }
    });
  });
});
