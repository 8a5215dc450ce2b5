// The help pages name only what exists: every --flag a page names (in a usage line, an option's
// help, the details, an example) is one that command takes — or, named after another command's
// words ("scan run --record"), one that command takes. A group's page and the top level name
// flags some command of theirs takes. The environment and exit codes are on the top page only.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COMMANDS } from '../../../src/cli/commands/index.js';
import type { CommandSpec } from '../../../src/cli/command.js';
import { commandHelp, groupHelp } from '../../../src/cli/help.js';
import { GATE_ON_OPTIONS } from '../../../src/cli/gate-options.js';
import { ROLLUP, ROLLUP_GATE_ON_OPTIONS } from '../../../src/cli/commands/rollup.js';
import { GLOBAL_OPTIONS } from '../../../src/cli/options.js';

function takes(command: CommandSpec): Set<string> {
  return new Set([...GLOBAL_OPTIONS, ...(command.options ?? []), ...(command.required ?? [])]);
}

const BY_LENGTH = [...COMMANDS].sort((a, b) => b.path.length - a.path.length);

/** The command whose words the flag at `index` follows in the same clause ("scan run <id> --x",
 *  not "see report status); --x"), if any. */
function commandNamedBefore(line: string, index: number): CommandSpec | undefined {
  const clause =
    line
      .slice(0, index)
      .split(/[;:,.()]/)
      .at(-1) ?? '';
  let found: { at: number; command: CommandSpec } | undefined;
  for (const command of BY_LENGTH) {
    const words = new RegExp(`(?<![\\w-])${command.path.join(' ')}(?![\\w-])`, 'g');
    for (const match of clause.matchAll(words)) {
      if (!found || match.index > found.at) found = { at: match.index, command };
    }
  }
  return found?.command;
}

/** Flags a page names that the command they are named for does not take ("page: line"). */
export function unknownFlags(page: string, scope: CommandSpec[]): string[] {
  const wrong: string[] = [];
  for (const line of page.split('\n')) {
    for (const match of line.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)) {
      const named = commandNamedBefore(line, match.index);
      const candidates = named ? [named] : scope;
      if (!candidates.some((command) => takes(command).has(match[1] ?? ''))) {
        wrong.push(`--${match[1]} in "${line.trim()}"`);
      }
    }
  }
  return wrong;
}

function groups(): string[][] {
  const prefixes = new Map<string, string[]>();
  for (const command of COMMANDS) {
    for (let n = 1; n < command.path.length; n++) {
      prefixes.set(command.path.slice(0, n).join(' '), command.path.slice(0, n));
    }
  }
  return [[], ...prefixes.values()];
}

/** The flag as a whole word: --fail-on is not --fail-on-severity. */
function flagNamed(name: string): RegExp {
  return new RegExp(`--${name}(?![\\w-])`);
}

describe('cli: the help pages', () => {
  it('every flag a command page names is one that command takes', () => {
    const wrong = COMMANDS.flatMap((command) =>
      unknownFlags(commandHelp(command), [command]).map((w) => `${command.path.join(' ')}: ${w}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('every flag the top page and a group page name is one of their commands takes', () => {
    for (const words of groups()) {
      const scope = COMMANDS.filter((c) => words.every((w, i) => c.path[i] === w));
      assert.deepEqual(
        unknownFlags(groupHelp(COMMANDS, words, '0.0.0'), scope),
        [],
        words.join(' '),
      );
    }
  });

  it('the check catches a flag the command does not take (it can fail)', () => {
    const rollup = COMMANDS.find((c) => c.path.join(' ') === 'rollup') as CommandSpec;
    const page =
      'Options:\n  --fail-on-findings  see --fail-on-severity\nReads scan run --record files';
    assert.deepEqual(unknownFlags(page, [rollup]), [
      '--fail-on-severity in "--fail-on-findings  see --fail-on-severity"',
    ]);
  });

  it('the environment and exit codes are on the top page, once; other pages point there', () => {
    const top = groupHelp(COMMANDS, [], '0.0.0');
    assert.match(top, /^Environment:$/m);
    assert.match(top, /^Exit codes:$/m);
    const pages = [
      ...COMMANDS.map((command) => [command.path.join(' '), commandHelp(command)]),
      ...groups()
        .slice(1)
        .map((words) => [words.join(' '), groupHelp(COMMANDS, words, '0.0.0')]),
    ];
    for (const [name, page] of pages) {
      assert.doesNotMatch(page ?? '', /^(Environment|Exit codes):$/m, name);
      assert.match(page ?? '', /^Environment variables and exit codes: 'tenant-scan --help'\.$/m);
    }
  });

  it('the top page says which commands need no key, and which flags turn the gate on', () => {
    const top = groupHelp(COMMANDS, [], '0.0.0');
    const keyLine = top.slice(top.indexOf('SERVICE_API_KEY'), top.indexOf('SERVICE_API_URL'));
    for (const offline of COMMANDS.filter((c) => c.offline)) {
      assert.match(keyLine, new RegExp(`\\b${offline.path.join(' ')}\\b`), keyLine);
    }
    const exitTwo = top.slice(top.indexOf('\n  2 '), top.indexOf('\n  130 '));
    for (const flag of ['fail-on-findings', ...GATE_ON_OPTIONS]) {
      assert.match(exitTwo, flagNamed(flag), `exit code 2 names --${flag}`);
    }
    assert.doesNotMatch(exitTwo, /result Failed/);
  });

  it('every scan page with a gate names the flags that turn it on: those of the one list', () => {
    const gated = COMMANDS.filter(
      (command) => command !== ROLLUP && (command.options ?? []).includes('fail-on-findings'),
    );
    assert.ok(gated.length >= 2, gated.map((c) => c.path.join(' ')).join(', '));
    for (const command of gated) {
      const where = command.path.join(' ');
      const page = commandHelp(command);
      const optionLine = (name: string) =>
        page.split('\n').find((line) => line.trimStart().startsWith(`--${name} `)) ?? '';
      const prose = (command.details ?? '').replace(/\n/g, ' ');
      for (const name of GATE_ON_OPTIONS) {
        assert.match(optionLine('fail-on-findings'), flagNamed(name), `${where}: --${name}`);
        assert.match(prose, flagNamed(name), `${where}: its text names --${name}`);
        assert.match(optionLine(name), /turns the gate on/, `${where}: --${name}`);
      }
    }
  });

  it("rollup's page names the flags that turn its gate on: those of the one list, no other", () => {
    const page = commandHelp(ROLLUP);
    const optionLine = (name: string) =>
      page.split('\n').find((line) => line.trimStart().startsWith(`--${name} `)) ?? '';
    const prose = page.replace(/\n/g, ' ');
    const gateClause = prose.slice(prose.indexOf('the gate is on:'), prose.indexOf('gate off'));
    for (const name of ROLLUP_GATE_ON_OPTIONS) {
      assert.match(
        optionLine('fail-on-findings'),
        flagNamed(name),
        `--fail-on-findings: --${name}`,
      );
      assert.match(gateClause, flagNamed(name), `exit codes: --${name}`);
    }
    const saysItTurnsTheGateOn = (ROLLUP.options ?? []).filter((name) =>
      optionLine(name).includes('turns the gate on'),
    );
    assert.deepEqual(saysItTurnsTheGateOn.sort(), [...ROLLUP_GATE_ON_OPTIONS].sort());
  });
});
