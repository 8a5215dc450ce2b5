// Every `tenant-scan …` a hint names (the error lines' list commands, what to do instead of a new
// scan, the Action inputs' and outputs' hints) is a command the CLI has, with flags it takes: the
// command line parses. (That each does what its hint says is run against the emulator:
// test/cli/errors.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { INPUTS_WITHOUT_A_ROW, OUTPUT_FILES } from '../../../src/cli/action-inputs.js';
import { parseCommandLine } from '../../../src/cli/argv.js';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { CLI_JOB_WORDING } from '../../../src/cli/errors.js';
import { isStringOption } from '../../../src/cli/options.js';

/** The command lines a text names after `tenant-scan `, a `<placeholder>` read as a value. */
function namedCommandLines(text: string): string[][] {
  const lines: string[][] = [];
  for (const [, rest] of text.replace(/<[^>]*>/g, 'X').matchAll(/tenant-scan ([^;:,()]*)/g)) {
    const tokens = (rest ?? '').split(' ');
    const line: string[] = [];
    const fits = (word: string) =>
      COMMANDS.some((c) => [...line, word].every((w, i) => c.path[i] === w));
    while (tokens[0] !== undefined && fits(tokens[0])) {
      line.push(tokens.shift() ?? '');
    }
    for (
      let token = tokens.shift();
      token === 'X' || token?.startsWith('--');
      token = tokens.shift()
    ) {
      line.push(token);
      if (token.startsWith('--') && isStringOption(token.slice(2))) line.push(tokens.shift() ?? '');
    }
    lines.push(line);
  }
  return lines;
}

describe('the commands hints name', () => {
  it('each parses as a command of the CLI, with its flags', () => {
    const texts = [
      ...Object.values(CLI_JOB_WORDING.listIds ?? {}),
      CLI_JOB_WORDING.insteadOfTrigger ?? '',
      ...Object.values(INPUTS_WITHOUT_A_ROW).map((hint) => hint.says),
      ...Object.values(OUTPUT_FILES).map((hint) => hint.says),
    ];
    const lines = texts.flatMap(namedCommandLines);
    assert.ok(lines.length >= 8, `only ${lines.length} found`);
    for (const line of lines) {
      const parsed = parseCommandLine(COMMANDS, line);
      assert.ok(parsed.command, `'${line.join(' ')}' is not a command`);
    }
    assert.ok(
      lines.some((l) => l.join(' ') === 'scan run --scan-id X --watch'),
      JSON.stringify(lines),
    );
  });
});

describe("an Action input's hint on a command", () => {
  const lineOf = (argv: string[]) => {
    try {
      parseCommandLine(COMMANDS, argv);
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
    return assert.fail(`${argv.join(' ')} was taken`);
  };

  it('is given where the flag it names is taken, or where it names the command', () => {
    assert.match(
      lineOf(['scan', 'run', '--type', 'x', '--wait']),
      /: the CLI follows the scan with --watch$/,
    );
    assert.match(
      lineOf(['scan', 'run', '--type', 'x', '--record-file', 'r']),
      /: the flag is --record$/,
    );
    assert.match(lineOf(['keys', 'list', '--plan-fail-on', 'x']), /: rollup takes --fail-on$/);
  });

  it('is left out where the command does not take the flag it names', () => {
    assert.equal(lineOf(['keys', 'list', '--wait']), "'keys list' does not take --wait");
    assert.equal(
      lineOf(['scan', 'results', 'abc', '--record-file', 'r']),
      "Unknown option '--record-file'",
    );
    assert.equal(lineOf(['tenant', 'me', '--junit-file', 'r']), "Unknown option '--junit-file'");
  });
});
