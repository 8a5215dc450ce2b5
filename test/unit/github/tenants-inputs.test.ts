// The tenants sub-action's inputs become the CLI's command line: every input of tenants/action.yml
// but the list is passed on, an empty one is left out (the CLI's
// default, or its variable, holds), and an error line names the input, not the CLI's flag.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { parse } from 'yaml';
import { PassThrough } from 'node:stream';
import { main } from '../../../src/cli/run.js';
import {
  INPUT_OF_OPTION,
  TENANTS_WORDING,
  tenantsCommandLine,
} from '../../../src/github/tenants/inputs.js';
import { ROOT } from '../../../scripts/action-readmes.js';

const temp = mkdtempSync(join(tmpdir(), 'tenants-inputs-'));
const ENV = { RUNNER_TEMP: temp, GITHUB_WORKSPACE: temp, GITHUB_ACTION: 'chunk' };
const TENANTS = '[{"name": "a", "api-url": "https://api.example.com/v1", "secret": "A_KEY"}]';

function inputVariable(name: string): string {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
}

function give(inputs: Record<string, string>): void {
  for (const [name, value] of Object.entries(inputs)) process.env[inputVariable(name)] = value;
}

const given = new Set<string>();
afterEach(() => {
  for (const name of given) delete process.env[inputVariable(name)];
  given.clear();
});
after(() => rmSync(temp, { recursive: true, force: true }));

function inputsOfActionYml(): string[] {
  const action = parse(readFileSync(join(ROOT, 'tenants', 'action.yml'), 'utf8')) as {
    inputs: Record<string, unknown>;
  };
  return Object.keys(action.inputs);
}

describe("the tenants sub-action's command line", () => {
  it('passes on every input but the list (written to a file), each when given', async () => {
    const passed = inputsOfActionYml().filter((name) => name !== 'tenants');
    // Each value a path in the workspace: the output files' inputs are checked to be there.
    const valueOf = (name: string) => join(temp, `v-${name}`);
    const inputs = Object.fromEntries(passed.map((name) => [name, valueOf(name)]));
    for (const name of [...passed, 'tenants']) given.add(name);
    give({ ...inputs, tenants: TENANTS });
    const argv = await tenantsCommandLine(ENV);
    const values = argv.flatMap((word) => {
      const value = /^--[a-z-]+=(.*)$/s.exec(word)?.[1];
      return value?.startsWith(join(temp, 'v-')) ? [value] : [];
    });
    assert.deepEqual(values.sort(), passed.map(valueOf).sort());
  });

  it('every path the step writes (records, html-file, csv-file, ocsf-file) must be in the workspace: one line', async () => {
    for (const input of ['records', 'html-file', 'csv-file', 'ocsf-file']) {
      given.add('tenants').add(input);
      give({ tenants: TENANTS, [input]: '/etc/tenant-scan-out' });
      await assert.rejects(tenantsCommandLine(ENV), (error: Error) => {
        assert.equal(
          error.message,
          `input '${input}' "/etc/tenant-scan-out" is outside the workspace (GITHUB_WORKSPACE) or RUNNER_TEMP: give a path inside it (a relative path is relative to the workspace)`,
        );
        return true;
      });
      give({ [input]: join(temp, 'inside') });
      await tenantsCommandLine(ENV);
      give({ [input]: '' });
    }
  });

  it('request-timeout-seconds becomes --request-timeout; empty, it is left to the CLI', async () => {
    given.add('tenants').add('request-timeout-seconds');
    give({ tenants: TENANTS, 'request-timeout-seconds': '45' });
    assert.ok((await tenantsCommandLine(ENV)).includes('--request-timeout=45'));
    give({ 'request-timeout-seconds': '' });
    const argv = await tenantsCommandLine(ENV);
    assert.ok(!argv.some((word) => word.startsWith('--request-timeout')));
  });

  it("a tenant's error line names the input, as action.yml spells it, or says none moves it", () => {
    const inputs = new Set(inputsOfActionYml());
    for (const [what, words] of Object.entries(TENANTS_WORDING)) {
      if (what === 'waiversMaxDays') {
        // its line is held end to end (test/action/tenants-workflow.test.ts)
        assert.ok(!inputs.has('waivers-max-days'), 'the sub-action has waivers-max-days now');
        continue;
      }
      assert.ok(
        typeof words === 'string' && inputs.has(words),
        `${what}: '${words}' is not an input of tenants/action.yml`,
      );
    }
  });

  it("each bad value's line names the input it was set as, never the option it became", async () => {
    const directory = join(temp, 'a-directory');
    mkdirSync(directory, { recursive: true });
    // Three runs: the connection's settings are checked first, the output files last.
    const runs: Array<Record<string, string>> = [
      { 'request-timeout-seconds': 'x' },
      {
        'scan-type': 'bad type!',
        concurrency: '0',
        'scan-timeout-minutes': 'x',
        'stall-minutes': 'x',
        'max-coverage-drop': 'x',
        'results-max-mib': '0',
        'fail-on-severity': '-high',
        'fail-on': 'x',
        baseline: 'a\nb',
        history: 'x',
        'sla-days': 'x',
        'max-failed-tenants': 'x',
        'html-file': join(temp, 'a\nb'), // in the workspace, as the step checks first
      },
      { 'html-file': directory, 'csv-file': directory, 'ocsf-file': directory },
      { tenants: '[]' },
    ];
    const named = new Set<string>();
    for (const inputs of runs) {
      const line = await errorOfRun(inputs);
      for (const input of Object.keys(inputs)) {
        assert.ok(line.includes(`input '${input}' `), `${input}: ${line}`);
        named.add(input);
      }
      assert.doesNotMatch(line, /--[a-z]/);
    }
    // Every input but the records directory (no bad value but empty) has a line.
    const passed = inputsOfActionYml().filter((name) => name !== 'records');
    assert.deepEqual([...named].sort(), passed.sort());
  });

  it('an input the command line needs, left empty, is named as the input', async () => {
    // in the sub-action's words: no flag, no placeholder, nothing it has no input for
    assert.match(
      await errorOfRun({ 'scan-type': '' }),
      /: input 'scan-type' is required \(for example compliance\)$/,
    );
    assert.match(
      await errorOfRun({ records: '' }),
      /: input 'tenants' needs input 'records': each tenant writes its record there$/,
    );
  });

  it('a value quoted in a line is printed as given, even one that looks like an option', async () => {
    const line = await errorOfRun(
      {},
      '[{"name": "--timeout", "api-url": "https://api.example.com/v1", "secret": "A_KEY"}]',
    );
    assert.match(line, /: input 'tenants' entry 1: name must be .*, got "--timeout"$/);
  });
});

/** The one error line of the CLI run the sub-action makes of `inputs` (a bad value: no request). */
async function errorOfRun(inputs: Record<string, string>, tenants = TENANTS): Promise<string> {
  for (const name of given) delete process.env[inputVariable(name)];
  const defaults = { tenants, records: join(temp, 'records'), 'scan-type': 'compliance' };
  for (const name of Object.keys({ ...defaults, ...inputs })) given.add(name);
  give({ ...defaults, ...inputs });
  const argv = await tenantsCommandLine(ENV);
  const stderr = new PassThrough();
  let text = '';
  stderr.on('data', (chunk) => (text += String(chunk)));
  const io = { stdout: new PassThrough(), stderr, env: {} };
  const code = await main(argv, io, new AbortController().signal, { optionNames: INPUT_OF_OPTION });
  assert.equal(code, 1, text);
  // One line: no CLI usage after it either, since the sub-action's user typed no command line.
  assert.match(text, /^tenant-scan: error: [^\n]*\n$/);
  return text.trimEnd();
}
