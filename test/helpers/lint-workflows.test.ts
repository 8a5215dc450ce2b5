import { strict as assert } from 'node:assert';
import { execFile } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const SCRIPT = fileURLToPath(new URL('../../scripts/lint-workflows.mjs', import.meta.url));
const fixture = (path: string) =>
  fileURLToPath(new URL(`../fixtures/lint/${path}`, import.meta.url));

function lint(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--liftoff-only', SCRIPT, ...args], (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
  });
}

describe('scripts/lint-workflows.mjs', () => {
  test('a good action.yml and a workflow using it pass', async () => {
    const result = await lint([
      '--action',
      fixture('good/action.yml'),
      fixture('good/workflow.yml'),
    ]);
    assert.equal(result.code, 0, result.stdout + result.stderr);
    assert.match(result.stdout, /ok: 1 workflow file\(s\) and action.yml/);
  });

  test('actionlint findings in a workflow fail the run with file:line:col', async () => {
    const result = await lint(['--no-action', fixture('bad/workflow.yml')]);
    assert.equal(result.code, 1);
    assert.match(
      result.stdout,
      /workflow\.yml:8:\d+: "github\.event\.pull_request\.title" is potentially untrusted/,
    );
    assert.match(result.stdout, /workflow\.yml:11:\d+: undefined variable "secret"/);
    assert.match(result.stdout, /workflow\.yml:12:\d+: .*\[syntax-check\]/);
  });

  test('steps using the action are checked against its declared inputs', async () => {
    const result = await lint([
      '--action',
      fixture('good/action.yml'),
      fixture('bad/workflow.yml'),
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /input "api_key" is not declared in action\.yml/);
    assert.match(result.stdout, /required input "api-key" is not given/);
  });

  test('a bad action.yml reports each metadata problem', async () => {
    const result = await lint([
      '--action',
      fixture('bad/action.yml'),
      fixture('good/workflow.yml'),
    ]);
    assert.equal(result.code, 1);
    for (const expected of [
      /description is required \[/,
      /inputs\.api-key: a description is required/,
      /inputs\.api-key\.required must be true or false/,
      /inputs\.timeout-minutes: unknown key "defualt"/,
      /outputs\.verdict: a description is required/,
      /runs\.using must be "node24", found "node20"/,
      /runs\.main: dist\/missing\.js does not exist/,
      /branding\.color must be one of/,
      /branding\.icon "key" is not a supported Feather icon/,
    ]) {
      assert.match(result.stdout, expected);
    }
  });

  test('an action.yml that is not valid YAML is one line with its position', async () => {
    const result = await lint([
      '--action',
      fixture('bad-yaml/action.yml'),
      fixture('good/workflow.yml'),
    ]);
    assert.equal(result.code, 1);
    assert.match(result.stdout, /action\.yml:5:\d+: not valid YAML: [^\n]+ \[syntax\]\n/);
  });

  test('an explicit path that matches nothing is a usage error', async () => {
    const result = await lint(['--no-action', fixture('nothing-here/*.yml')]);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /no file matches/);
  });
});
