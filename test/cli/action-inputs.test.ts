// An Action input typed as a flag gets what the CLI has in its place: every input of every
// action.yml is a CLI option of the same name or has a hint (so the list cannot fall behind a new
// input), and the bundled CLI says it in its one error line.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import { parse } from 'yaml';
import { actionInputHint } from '../../src/cli/action-inputs.js';
import { OPTION_NAMES } from '../../src/cli/options.js';
import { ROOT, runCli } from './helpers.js';

async function allInputs(): Promise<string[]> {
  const files = await glob(['action.yml', '*/action.yml'], { cwd: ROOT });
  const names = new Set<string>();
  for (const file of files) {
    const doc = parse(await readFile(join(ROOT, file), 'utf8')) as { inputs?: object };
    for (const name of Object.keys(doc.inputs ?? {})) names.add(name);
  }
  return [...names];
}

describe('an Action input given to the CLI as a flag', () => {
  it('every input of every action.yml is a CLI option or has a hint', async () => {
    const inputs = await allInputs();
    assert.ok(inputs.length > 40, `only ${inputs.length} inputs found`);
    const options = new Set<string>(OPTION_NAMES);
    const bare = inputs.filter((name) => !options.has(name) && !actionInputHint(name));
    assert.deepEqual(bare, [], `no hint for ${bare.join(', ')}`);
  });

  it('the CLI names the flag in its place, in one line, and sends nothing', async () => {
    const run = await runCli(['scan', 'run', '--type', 'compliance', '--junit-file', 'r.xml'], {
      SERVICE_API_KEY: `ak_live_${'a'.repeat(40)}`,
      SERVICE_API_URL: 'https://127.0.0.1:9/api/v1',
    });
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^tenant-scan: error: Unknown option '--junit-file': that is an input of the GitHub Action: the flag is --junit$/m,
    );
  });
});
