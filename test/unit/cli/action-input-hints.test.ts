// An Action input or output typed as a flag (`--record-file`) gets a hint on a command where it
// helps, and whether it helps is decided from what the hint says it points to, as data: it
// names a command to run instead, or the command typed takes every flag it points to. The words
// a user reads name exactly those flags and commands, so data and words cannot drift apart.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  INPUTS_WITHOUT_A_ROW,
  OUTPUT_FILES,
  actionInputHint,
  hintFits,
  rowHints,
  type ActionNameHint,
} from '../../../src/cli/action-inputs.js';
import { parseCommandLine } from '../../../src/cli/argv.js';
import type { CommandSpec } from '../../../src/cli/command.js';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import { GLOBAL_OPTIONS } from '../../../src/cli/options.js';

const NAMES = [
  ...rowHints().keys(),
  ...Object.keys(INPUTS_WITHOUT_A_ROW),
  ...Object.keys(OUTPUT_FILES),
];

const optionsOf = (command: CommandSpec) =>
  new Set<string>([...GLOBAL_OPTIONS, ...(command.options ?? [])]);

/** The error line for `<command> --<name> x`, or undefined when the command takes the flag. */
function lineFor(command: CommandSpec, name: string): string | undefined {
  if (optionsOf(command).has(name)) return undefined;
  try {
    parseCommandLine(COMMANDS, [...command.path, `--${name}`, 'x']);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  return assert.fail(`${command.path.join(' ')} --${name} was taken`);
}

/** The commands a text names: a command's words, not a part of longer words of another. */
function commandsNamed(text: string): string[] {
  const named = COMMANDS.map((c) => c.path.join(' ')).filter((words) =>
    new RegExp(`(?<![\\w-])${words}(?![\\w-])`).test(text),
  );
  return named.filter((words) => !named.some((other) => other.startsWith(`${words} `))).sort();
}

const flagsNamed = (text: string) =>
  [...new Set((text.match(/--[a-z][a-z-]*/g) ?? []).map((flag) => flag.slice(2)))].sort();

describe("an Action input's hint, as data", () => {
  it('is given on a command exactly when it names a command or the command takes its flags', () => {
    let given = 0;
    let left = 0;
    for (const name of NAMES) {
      const told = actionInputHint(name);
      assert.ok(told, name);
      const { commands = [], flags = [] } = told.hint;
      for (const command of COMMANDS) {
        const line = lineFor(command, name);
        if (line === undefined) continue;
        const options = optionsOf(command);
        const fits = commands.length > 0 || flags.every((flag) => options.has(flag));
        const where = `${command.path.join(' ')} --${name}: ${line}`;
        assert.equal(line.endsWith(`: ${told.line}`), fits, where);
        if (!fits) assert.doesNotMatch(line, /GitHub Action/, where);
        if (fits) given++;
        else left++;
      }
    }
    assert.ok(given > 100 && left > 100, `given ${given}, left out ${left}`);
  });

  it('is judged by its data, not by its words', () => {
    const scanResults = optionsOf(
      COMMANDS.find((c) => c.path.join(' ') === 'scan results') ?? assert.fail('scan results'),
    );
    const wordsOnly: ActionNameHint = { says: 'tenant plan --out FILE saves the plan' };
    assert.equal(hintFits({ ...wordsOnly, flags: ['out'] }, scanResults), false);
    assert.equal(hintFits({ ...wordsOnly, flags: ['junit'] }, scanResults), true);
    assert.equal(hintFits({ says: 'the flag is --record' }, scanResults), true);
    assert.equal(hintFits({ says: 'no command', commands: [['rollup']] }, scanResults), true);
    assert.equal(
      hintFits({ says: 'the flag is --junit', flags: ['junit', 'watch'] }, scanResults),
      false,
    );
  });

  it('says in words exactly the flags and commands its data claims, and they exist', () => {
    for (const name of NAMES) {
      const { hint } = actionInputHint(name) ?? assert.fail(name);
      const commands = (hint.commands ?? []).map((path) => path.join(' ')).sort();
      assert.deepEqual(commandsNamed(hint.says), commands, `${name}: ${hint.says}`);
      assert.deepEqual(
        flagsNamed(hint.says),
        [...(hint.flags ?? [])].sort(),
        `${name}: ${hint.says}`,
      );
      const named = COMMANDS.filter((c) => commands.includes(c.path.join(' ')));
      const takers = named.length > 0 ? named : COMMANDS;
      for (const flag of hint.flags ?? []) {
        assert.ok(
          takers.some((c) => optionsOf(c).has(flag)),
          `${name}: nothing named takes --${flag}`,
        );
      }
    }
  });
});
