// The tenants sub-action's inputs become the CLI's command line: every input of tenants/action.yml
// but the list is passed on, an empty one is left out (the CLI's
// default, or its variable, holds), and an error line names the input, not the CLI's flag.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, describe, it } from 'node:test';
import { parse } from 'yaml';
import {
  TENANTS_WORDING,
  inInputWords,
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
    const values = argv.filter((word) => word.startsWith(join(temp, 'v-')));
    assert.deepEqual(values.sort(), passed.map(valueOf).sort());
  });

  it('request-timeout-seconds becomes --request-timeout; empty, it is left to the CLI', async () => {
    given.add('tenants').add('request-timeout-seconds');
    give({ tenants: TENANTS, 'request-timeout-seconds': '45' });
    const argv = await tenantsCommandLine(ENV);
    assert.equal(argv[argv.indexOf('--request-timeout') + 1], '45');
    give({ 'request-timeout-seconds': '' });
    assert.ok(!(await tenantsCommandLine(ENV)).includes('--request-timeout'));
  });

  it("a tenant's error line names the input, as action.yml spells it", () => {
    const inputs = new Set(inputsOfActionYml());
    for (const [what, words] of Object.entries(TENANTS_WORDING)) {
      assert.ok(
        typeof words === 'string' && inputs.has(words),
        `${what}: '${words}' is not an input of tenants/action.yml`,
      );
    }
  });

  it("a line of the CLI's names each option by the input it came from, whatever its length", async () => {
    const passed = inputsOfActionYml().filter((name) => name !== 'tenants');
    for (const name of [...passed, 'tenants']) given.add(name);
    give({
      ...Object.fromEntries(passed.map((name) => [name, join(temp, 'v')])),
      tenants: TENANTS,
    });
    const argv = await tenantsCommandLine(ENV);
    const options = argv.filter(
      (word, i) => word.startsWith('--') && argv[i + 1] === join(temp, 'v'),
    );
    assert.equal(options.length, passed.length, 'one option an input');
    for (const option of options) {
      const line = inInputWords(`${option} must be a number, got "x"; ${option}.`);
      assert.match(line, /^input '[a-z-]+' must be a number, got "x"; input '[a-z-]+'\.$/, option);
      const input = /^input '([a-z-]+)'/.exec(line)?.[1] ?? '';
      assert.ok(passed.includes(input), `${option} → ${input}`);
    }
    assert.equal(
      inInputWords('--fail-on-severity and --fail-on, not --fail-on-x or --tenants'),
      "input 'fail-on-severity' and input 'fail-on', not --fail-on-x or --tenants",
    );
  });
});
