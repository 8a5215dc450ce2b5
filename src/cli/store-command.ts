// `keys rotate --store-command CMD`: the user's command stores the new key, which it reads on
// standard input. CMD is split into words like a POSIX shell splits them (quotes, backslashes) by
// shell-quote and run without a shell (store-process.ts: its own process group, a minimal
// environment): no variable, glob, pipe or redirection is interpreted, and the key is never on a
// command line, in the environment or in a file. Its exit status decides, but proves nothing.
// `--store-read-command CMD` (split the same way) prints the key the store holds: the rotation
// reads it before creating (keys made after it were never stored) and after the store (the write
// took). What it prints is a secret: kept in memory, never shown.

import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { parse } from 'shell-quote';
import { displayLine, redact, stripControls } from '../client/index.js';
import { SettingProblem } from '../pipeline/index.js';
import { StoreError, type KeyStore } from '../pipeline/rotation/store.js';
import { spawnStoreCommand } from './store-process.js';

/** A store command that has not exited after this long is killed (and may have stored). */
export const STORE_COMMAND_TIMEOUT_MS = 5 * 60_000;
const SHOWN_LINES = 5;
/** The most a store read command may print: a key is far shorter. */
const READ_OUTPUT_BYTES = 4 * 1024;

export function parseStoreCommand(
  label: string,
  raw: string,
  purpose = 'reads the key on stdin',
): string[] {
  const words = parse(raw, (name: string) => `$${name}`);
  const operator = words.find((w) => typeof w === 'object' && 'op' in w && w.op !== 'glob');
  if (operator && typeof operator === 'object' && 'op' in operator) {
    throw new SettingProblem(
      `${label} is run without a shell, so ${JSON.stringify(operator.op)} means nothing there: run sh -c '…' yourself if you need one`,
    );
  }
  const argv = words.flatMap((w) =>
    typeof w === 'string' ? [w] : 'pattern' in w ? [w.pattern] : [],
  );
  if (argv.length === 0 || argv[0] === '') {
    throw new SettingProblem(`${label} is empty: give the command that ${purpose}`);
  }
  return argv;
}

/** The default lineage: the program's name and a digest of the whole command. */
export function lineageOfCommand(argv: readonly string[]): string {
  const digest = createHash('sha256').update(argv.join('\0')).digest('hex').slice(0, 10);
  return `command:${basename(argv[0] ?? '')}:${digest}`;
}

/** The program's path: as given when it names a path, else the first executable of that name in
 *  PATH (as the spawn looks it up, with the same PATH). */
function findProgram(program: string, env: Record<string, string>): string | undefined {
  const candidates =
    program.includes('/') || isAbsolute(program)
      ? [program]
      : (env.PATH ?? '').split(delimiter).map((dir) => join(dir || '.', program));
  return candidates.find((path) => {
    try {
      accessSync(path, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

/** The non-blank lines of what a store command printed, fit to show: one line each, no control
 *  characters, no secret in any form a reader would find it in (base64, hex, reversed, split
 *  across lines…: redacted from the whole output before it is cut into lines) and no key shape
 *  at all (a store command's output must never show a key, whichever). */
function shownLines(text: string, secrets: readonly string[]): string[] {
  const known = secrets.filter((s) => s !== '');
  return stripControls(redact(text, known))
    .split('\n')
    .map((line) => displayLine(line))
    .filter((line) => line !== '');
}

export interface CommandStoreOptions {
  /** --store-read-command: prints the key the store holds. */
  readArgv?: readonly string[];
  /** Secrets known so far (the key in use, the new key): redacted from what a command printed. */
  secrets?: readonly string[];
  timeoutMs?: number;
}

export class CommandStore implements KeyStore {
  readonly description: string;
  /** An exit status of 0 is the command's word, not proof (a read-back is). */
  readonly writeProves = false;
  readonly readHeld?: (signal?: AbortSignal) => Promise<string>;
  private readonly timeoutMs: number;
  /** `env`: what the commands get, made by storeEnvironment (no key in it). */
  constructor(
    private readonly argv: readonly string[],
    private readonly env: Record<string, string>,
    private readonly note: (line: string) => void,
    private readonly options: CommandStoreOptions = {},
  ) {
    this.description = `store command ${basename(argv[0] ?? '')}`;
    this.timeoutMs = options.timeoutMs ?? STORE_COMMAND_TIMEOUT_MS;
    const readArgv = options.readArgv;
    if (readArgv) this.readHeld = (signal) => this.read(readArgv, signal);
  }

  async prepare(): Promise<void> {
    const commands = [['store command', this.argv[0] ?? '']];
    if (this.options.readArgv)
      commands.push(['store read command', this.options.readArgv[0] ?? '']);
    for (const [what, program = ''] of commands) {
      if (!findProgram(program, this.env)) {
        throw new StoreError(`the ${what} ${JSON.stringify(program)} is not an executable on PATH`);
      }
    }
  }

  /** Runs the read command: its one line of output, trimmed, is the key the store holds. */
  private async read(argv: readonly string[], signal?: AbortSignal): Promise<string> {
    const what = 'store read command';
    const end = await spawnStoreCommand(what, argv, {
      env: this.env,
      timeoutMs: this.timeoutMs,
      signal,
      maxPrinted: READ_OUTPUT_BYTES,
    });
    const fail = (why: string) => new StoreError(`the ${what} ${why}`);
    const value = end.printed;
    // The last line it wrote on stderr, for its failure line.
    const last = this.shown(end.said, value).at(-1);
    const said = last === undefined ? '' : `: ${last.slice(0, 200)}`;
    if (end.overflowed) throw fail(`printed more than ${READ_OUTPUT_BYTES} bytes`);
    if (end.timedOut) throw fail(`did not exit within ${this.timeoutMs / 1000} s${said}`);
    if (end.code === null) throw fail(`was stopped (${end.killedBy ?? 'signal'})${said}`);
    if (end.code !== 0) throw fail(`exited with status ${end.code}${said}`);
    if (value === '') throw fail(`printed nothing${said}`);
    if (/[\r\n]/.test(value)) throw fail('printed more than one line');
    return value;
  }

  async write(key: string, signal?: AbortSignal): Promise<void> {
    // The command does not need the old key: it is not passed on.
    const options = { env: this.env, timeoutMs: this.timeoutMs, signal, stdin: key };
    const end = await spawnStoreCommand('store command', this.argv, options);
    if (end.code === 0) return;
    // The last lines it printed, on stderr.
    for (const line of this.shown(end.said, key).slice(-SHOWN_LINES))
      this.note(`store command: ${line}`);
    if (end.timedOut) {
      throw new StoreError(`the store command did not exit within ${this.timeoutMs / 1000} s`, {
        mayHaveStored: true,
      });
    }
    if (end.code === null) {
      throw new StoreError(`the store command was stopped (${end.killedBy ?? 'signal'})`, {
        mayHaveStored: true,
      });
    }
    throw new StoreError(`the store command exited with status ${end.code}`);
  }

  /** What a command printed, fit to show: without `secret` (the key it read or printed), the
   *  secrets known so far, or any key shape. */
  private shown(text: string, secret: string): string[] {
    return shownLines(text, [secret, ...(this.options.secrets ?? [])]);
  }
}
