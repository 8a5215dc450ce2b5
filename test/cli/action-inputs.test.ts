// An Action input typed as a flag gets what the CLI has in its place: every input of every
// action.yml, given to the command that does that action's job, is one it takes or gets a hint
// (so the list cannot fall behind a new input, nor a name that another command takes: --wait),
// as does every output naming a file (record-file); the bundled CLI says it in its one error line.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import { parse } from 'yaml';
import { actionInputHint } from '../../src/cli/action-inputs.js';
import { parseCommandLine } from '../../src/cli/argv.js';
import { COMMANDS } from '../../src/cli/commands/index.js';
import { OPTION_NAMES } from '../../src/cli/options.js';
import { ROOT, runCli } from './helpers.js';

/** The CLI command that does each action's job. */
const COMMAND_OF: Record<string, string[]> = {
  'action.yml': ['scan', 'run'],
  'tenants/action.yml': ['scan', 'run'],
  'rollup/action.yml': ['rollup'],
  'settings/action.yml': ['tenant', 'plan'],
  'rotate-key/action.yml': ['keys', 'rotate'],
};

interface ActionYml {
  inputs?: object;
  outputs?: object;
}

async function actionFiles(): Promise<Array<{ file: string; doc: ActionYml }>> {
  const files = await glob(['action.yml', '*/action.yml'], { cwd: ROOT });
  return Promise.all(
    files.map(async (file) => ({
      file,
      doc: parse(await readFile(join(ROOT, file), 'utf8')) as ActionYml,
    })),
  );
}

async function allInputs(): Promise<string[]> {
  const names = new Set<string>();
  for (const { doc } of await actionFiles()) {
    for (const name of Object.keys(doc.inputs ?? {})) names.add(name);
  }
  return [...names];
}

/** The line the CLI gives for `--<name> x` on the command, or undefined when it takes it. */
function lineFor(words: string[], name: string): string | undefined {
  const command = COMMANDS.find((c) => c.path.join(' ') === words.join(' '));
  assert.ok(command, words.join(' '));
  if ((command.options as string[] | undefined)?.includes(name)) return undefined;
  try {
    parseCommandLine(COMMANDS, [...words, `--${name}`, 'x']);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return assert.fail(`${words.join(' ')} --${name} was taken`);
}

describe('an Action input given to the CLI as a flag', () => {
  it('every input of every action.yml is a CLI option or has a hint', async () => {
    const inputs = await allInputs();
    assert.ok(inputs.length > 40, `only ${inputs.length} inputs found`);
    const options = new Set<string>(OPTION_NAMES);
    const bare = inputs.filter((name) => !options.has(name) && !actionInputHint(name));
    assert.deepEqual(bare, [], `no hint for ${bare.join(', ')}`);
  });

  it("every input, given to the command doing that action's job, is taken or gets a hint", async () => {
    const files = await actionFiles();
    assert.deepEqual(files.map((f) => f.file).sort(), Object.keys(COMMAND_OF).sort());
    const bare: string[] = [];
    for (const { file, doc } of files) {
      const words = COMMAND_OF[file] ?? [];
      for (const name of Object.keys(doc.inputs ?? {})) {
        const line = lineFor(words, name);
        if (line !== undefined && !line.includes('GitHub Action'))
          bare.push(`${file} ${name}: ${line}`);
      }
    }
    assert.deepEqual(bare, []);
    assert.equal(
      lineFor(['scan', 'run'], 'wait'),
      "'scan run' does not take --wait: that is an input of the GitHub Action: the CLI follows the scan with --watch",
    );
  });

  it('every output naming a file is a CLI option or has a hint: --record-file is --record', async () => {
    const options = new Set<string>(OPTION_NAMES);
    const bare: string[] = [];
    for (const { file, doc } of await actionFiles()) {
      for (const name of Object.keys(doc.outputs ?? {})) {
        if (name.endsWith('-file') && !options.has(name) && !actionInputHint(name))
          bare.push(`${file} ${name}`);
      }
    }
    assert.deepEqual(bare, []);
    assert.equal(
      lineFor(['scan', 'run'], 'record-file'),
      "Unknown option '--record-file': that is an output of the GitHub Action: the flag is --record",
    );
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
