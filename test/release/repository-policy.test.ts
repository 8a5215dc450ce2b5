// What a security team checks first besides the release: Dependabot for npm and GitHub Actions
// (weekly, grouped, with a cooldown; only options GitHub documents, since no linter of
// dependabot.yml runs offline), a CodeQL workflow for the code and the workflows, and a
// SECURITY.md that says where to report, which versions get fixes and what counts.
// (CHANGELOG.md's form is checked by scripts/release-files.mjs in CI's dry run.)
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import yaml from 'js-yaml';
import { ROOT } from '../cli/helpers.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The options of dependabot.yml (GitHub's "Dependabot options reference"). */
const TOP_LEVEL = [
  'version',
  'updates',
  'registries',
  'enable-beta-ecosystems',
  'multi-ecosystem-groups',
];
const UPDATE = [
  'package-ecosystem',
  'directory',
  'directories',
  'schedule',
  'allow',
  'assignees',
  'commit-message',
  'cooldown',
  'exclude-paths',
  'groups',
  'ignore',
  'insecure-external-code-execution',
  'labels',
  'milestone',
  'open-pull-requests-limit',
  'pull-request-branch-name',
  'rebase-strategy',
  'registries',
  'reviewers',
  'target-branch',
  'vendor',
  'versioning-strategy',
];
const GROUP = ['applies-to', 'dependency-type', 'patterns', 'exclude-patterns', 'update-types'];
const UPDATE_TYPES = ['major', 'minor', 'patch'];

interface Update {
  'package-ecosystem': string;
  directory?: string;
  schedule: { interval: string };
  cooldown?: { 'default-days'?: number };
  groups?: Record<string, Record<string, unknown>>;
  ignore?: Array<{ 'dependency-name': string; 'update-types'?: string[] }>;
}

/** Problems of a parsed dependabot.yml against the documented options. */
function dependabotProblems(config: Record<string, unknown>): string[] {
  const problems = Object.keys(config)
    .filter((key) => !TOP_LEVEL.includes(key))
    .map((key) => `unknown key ${key}`);
  if (config.version !== 2) problems.push('version must be 2');
  for (const [i, update] of ((config.updates ?? []) as Update[]).entries()) {
    const where = `updates[${i}]`;
    for (const key of Object.keys(update).filter((k) => !UPDATE.includes(k))) {
      problems.push(`${where}: unknown key ${key}`);
    }
    if (!update.directory && !('directories' in update)) problems.push(`${where}: no directory`);
    for (const [name, group] of Object.entries(update.groups ?? {})) {
      for (const key of Object.keys(group).filter((k) => !GROUP.includes(k))) {
        problems.push(`${where}.groups.${name}: unknown key ${key}`);
      }
      const types = (group['update-types'] ?? []) as string[];
      if (types.some((t) => !UPDATE_TYPES.includes(t)))
        problems.push(`${where}.groups.${name}: update-types`);
    }
  }
  return problems;
}

describe('dependency updates, static analysis and the security policy', () => {
  it('dependabot.yml: only documented options (the check can fail)', () => {
    assert.deepEqual(
      dependabotProblems({
        version: 2,
        updates: [{ 'package-ecosystem': 'npm', schedule: {}, group: {} }],
      }),
      ['updates[0]: unknown key group', 'updates[0]: no directory'],
    );
    const config = yaml.load(read('.github/dependabot.yml')) as Record<string, unknown>;
    assert.deepEqual(dependabotProblems(config), []);
  });

  it('dependabot.yml: npm and GitHub Actions, weekly, grouped, with a cooldown; Node majors by hand', () => {
    const { updates } = yaml.load(read('.github/dependabot.yml')) as { updates: Update[] };
    assert.deepEqual(updates.map((u) => u['package-ecosystem']).sort(), ['github-actions', 'npm']);
    for (const update of updates) {
      const name = update['package-ecosystem'];
      assert.equal(update.directory, '/', name);
      assert.equal(update.schedule.interval, 'weekly', name);
      assert.ok(Object.keys(update.groups ?? {}).length > 0, `${name} is grouped`);
      assert.ok(
        (update.cooldown?.['default-days'] ?? 0) >= 3,
        `${name} waits for a release to settle`,
      );
    }
    const npm = updates.find((u) => u['package-ecosystem'] === 'npm');
    const ignored = (npm?.ignore ?? []).map((i) => `${i['dependency-name']} ${i['update-types']}`);
    assert.deepEqual(ignored, [
      'node version-update:semver-major',
      '@types/node version-update:semver-major',
    ]);
  });

  it('CodeQL analyses the TypeScript and the workflows, on main, pull requests and weekly', () => {
    const workflow = yaml.load(read('.github/workflows/codeql.yml')) as {
      on: Record<string, unknown>;
      permissions: Record<string, string>;
      jobs: Record<
        string,
        { permissions: Record<string, string>; strategy: { matrix: { language: string[] } } }
      >;
    };
    assert.deepEqual(Object.keys(workflow.on).sort(), ['pull_request', 'push', 'schedule']);
    assert.deepEqual(workflow.permissions, {});
    const [job] = Object.values(workflow.jobs);
    assert.deepEqual(job?.strategy.matrix.language, ['actions', 'javascript-typescript']);
    assert.deepEqual(job?.permissions, { contents: 'read', 'security-events': 'write' });
  });

  it('SECURITY.md: private reporting, supported versions, and what counts (the guarantees)', () => {
    const policy = read('SECURITY.md');
    for (const heading of ['Reporting a vulnerability', 'Supported versions', 'What counts']) {
      assert.match(policy, new RegExp(`^## ${heading}$`, 'm'));
    }
    assert.match(
      policy,
      /https:\/\/github\.com\/tenant-scan\/tenant-scan\/security\/advisories\/new/,
    );
    assert.match(policy, /\]\(docs\/guarantees\.md\)/);
    assert.match(read('README.md'), /\]\(SECURITY\.md\)/, 'the README points at it');
  });
});
