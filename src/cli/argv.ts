// The command line: options parsed once with node:util parseArgs, the command found by its words,
// then checked against what that command accepts.

import { parseArgs } from 'node:util';
import type { CommandSpec, OptionNaming, ParsedInput } from './command.js';
import { UsageError } from './errors.js';
import {
  GLOBAL_OPTIONS,
  OPTION_NAMES,
  isStringOption,
  parseArgsConfig,
  type OptionName,
} from './options.js';
import { actionInputHint, hintFits } from './action-inputs.js';
import { didYouMean } from './suggest.js';

export interface ParsedCommandLine {
  /** The command, or undefined when the words name a group or nothing ('scan', ''). */
  command?: CommandSpec;
  /** The command words matched so far (a group's words when no command matched). */
  words: string[];
  input: ParsedInput;
}

/** Command words in front of everything else, e.g. ['eas', 'targets', 'update']. */
function matchCommand(
  commands: CommandSpec[],
  positionals: string[],
): { command?: CommandSpec; words: string[] } {
  let best: CommandSpec | undefined;
  for (const command of commands) {
    const fits = command.path.every((word, i) => positionals[i] === word);
    if (fits && (!best || command.path.length > best.path.length)) best = command;
  }
  if (best) return { command: best, words: best.path };
  const words: string[] = [];
  for (const word of positionals) {
    const next = [...words, word];
    if (!commands.some((c) => next.every((w, i) => c.path[i] === w))) break;
    words.push(word);
  }
  return { words };
}

/** `--timeout -5` as `--timeout=-5`: parseArgs takes a value that starts with a dash for an
 *  option, and a negative number deserves the option's own message ("must be above 0"). */
function joinNegativeValues(argv: string[]): string[] {
  const joined: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const next = argv[i + 1];
    const name = /^--([\w-]+)$/.exec(arg)?.[1];
    if (name && isStringOption(name) && next !== undefined && /^-\.?\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

export function parseCommandLine(
  commands: CommandSpec[],
  raw: string[],
  optionName?: OptionNaming,
): ParsedCommandLine {
  const argv = joinNegativeValues(raw);
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: argv,
      options: parseArgsConfig(),
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const words = argv.filter((a) => !a.startsWith('-'));
    const { command } = matchCommand(commands, words);
    const line = cleanParseError(error, command);
    throw new UsageError(line, command?.path.join(' ') ?? '', line.includes('did you mean'));
  }
  const values = parsed.values as ParsedInput['values'];
  const { command, words } = matchCommand(commands, parsed.positionals);
  const rest = parsed.positionals.slice(words.length);
  if (!command) {
    return {
      words,
      input: { args: {}, rest: [], values },
      ...(rest.length > 0 ? unknownWord(commands, words, rest[0]) : {}),
    };
  }
  if (values.help === true) return { command, words, input: { args: {}, rest: [], values } };
  checkOptions(command, values);
  const args = positionalArgs(command, rest);
  const input = { args, rest: rest.slice(command.args?.length ?? 0), values };
  command.checkUsage?.(input, optionName);
  return { command, words, input };
}

function unknownWord(commands: CommandSpec[], words: string[], word: string | undefined): never {
  const where = words.length > 0 ? ` of '${words.join(' ')}'` : '';
  const next = commands
    .filter((c) => words.every((w, i) => c.path[i] === w))
    .map((c) => c.path[words.length])
    .filter((w): w is string => w !== undefined);
  const hint = didYouMean(word ?? '', next);
  throw new UsageError(
    `unknown command${where}: ${JSON.stringify(word)}${hint}`,
    words.join(' '),
    hint !== '',
  );
}

function checkOptions(command: CommandSpec, values: ParsedInput['values']): void {
  const name = command.path.join(' ');
  const allowed = new Set<string>([...GLOBAL_OPTIONS, ...(command.options ?? [])]);
  for (const option of Object.keys(values) as OptionName[]) {
    if (allowed.has(option)) continue;
    // An option of other commands that is also an Action input (--wait): what this one has instead.
    const told = actionInputHint(option);
    const tail = told && hintFits(told.hint, allowed) ? `: ${told.line}` : '';
    throw new UsageError(`'${name}' does not take --${option}${tail}`, name);
  }
  for (const option of command.required ?? []) {
    if (values[option] === undefined) throw new UsageError(`--${option} is required`, name);
  }
}

function positionalArgs(command: CommandSpec, rest: string[]): Record<string, string> {
  const name = command.path.join(' ');
  const expected = command.args ?? [];
  if (rest.length < expected.length) {
    const missing = expected
      .slice(rest.length)
      .map((a) => `<${a}>`)
      .join(' ');
    throw new UsageError(`missing ${missing}`, name);
  }
  if (command.rest !== undefined && rest.length === expected.length) {
    throw new UsageError(`missing <${command.rest}…>`, name);
  }
  if (command.rest === undefined && rest.length > expected.length) {
    throw new UsageError(`unexpected argument ${JSON.stringify(rest[expected.length])}`, name);
  }
  const args: Record<string, string> = {};
  expected.forEach((arg, i) => {
    const value = rest[i] ?? '';
    if (value.trim() === '') throw new UsageError(`<${arg}> must not be empty`, name);
    args[arg] = value;
  });
  return args;
}

/** parseArgs' messages carry advice for JavaScript authors; keep the part a user needs, and
 *  name the option a user most likely meant. */
function cleanParseError(error: unknown, command: CommandSpec | undefined): string {
  const message = error instanceof Error ? error.message : String(error);
  const first = message.split(/\.\s/)[0]?.replace(/\.$/, '') ?? message;
  const option = /Option '(--[\w-]+)'/.exec(message)?.[1];
  if (/starting with a dash/.test(message) && option)
    return `${first}: write ${option}=<value> for a value that starts with -`;
  const unknown = /^Unknown option '(-{1,2})([^']+)'/.exec(message);
  if (!unknown) return first;
  const name = unknown[2] ?? '';
  const told = unknown[1] === '--' ? actionInputHint(name) : undefined;
  // A command without options takes none; only when no command matched may any flag be meant.
  const takes = command ? (command.options ?? []) : OPTION_NAMES;
  const allowed = new Set<string>([...GLOBAL_OPTIONS, ...takes]);
  if (told && hintFits(told.hint, allowed)) return `${first}: ${told.line}`;
  return `${first}${didYouMean(name, OPTION_NAMES, '--')}`;
}
