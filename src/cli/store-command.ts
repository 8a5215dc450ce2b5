// `keys rotate --store-command CMD`: the user's command stores the new key, which it reads on
// standard input. CMD is split into words like a POSIX shell splits them (quotes, backslashes) by
// shell-quote and run without a shell: no variable, glob, pipe or redirection is interpreted, and
// the key is never on a command line, in the environment or in a file. Its exit status decides.
// `--store-read-command CMD` (split the same way) prints the key the store holds: the rotation
// reads it before creating (keys made after it were never stored) and after the store (the write
// took). What it prints is a secret: kept in memory, never shown.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { parse } from 'shell-quote';
import { displayLine, redact as redactKeyShapes } from '../client/index.js';
import { SettingProblem, redact } from '../pipeline/index.js';
import { StoreError, type KeyStore } from '../pipeline/rotation/store.js';

/** A store command that has not exited after this long is killed (and may have stored). */
export const STORE_COMMAND_TIMEOUT_MS = 5 * 60_000;
/** What is kept of the command's output, to show (redacted) when it fails. */
const OUTPUT_TAIL_BYTES = 8 * 1024;
const SHOWN_LINES = 5;
/** The most a store read command may print: a key is far shorter. */
const READ_OUTPUT_BYTES = 4 * 1024;

type Env = Record<string, string | undefined>;

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

function findProgram(program: string, env: Env): string | undefined {
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

/** Keeps the last bytes of a stream. */
function tail(): { add(chunk: Buffer): void; text(): string } {
  let kept = Buffer.alloc(0);
  return {
    add(chunk) {
      kept = Buffer.concat([kept, chunk]);
      if (kept.length > OUTPUT_TAIL_BYTES) kept = kept.subarray(kept.length - OUTPUT_TAIL_BYTES);
    },
    text: () => kept.toString('utf8'),
  };
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
  readonly readHeld?: (signal?: AbortSignal) => Promise<string>;
  private readonly timeoutMs: number;
  constructor(
    private readonly argv: readonly string[],
    private readonly env: Env,
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
  private read(argv: readonly string[], signal?: AbortSignal): Promise<string> {
    const child = spawn(argv[0] ?? '', argv.slice(1), {
      env: { ...this.env, SERVICE_API_KEY: undefined },
      shell: false,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: this.timeoutMs,
      killSignal: 'SIGKILL',
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    const errors = tail();
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > READ_OUTPUT_BYTES) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => errors.add(chunk));
    const fail = (why: string) => new StoreError(`the store read command ${why}`);
    return new Promise<string>((resolve, reject) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (error.name !== 'AbortError') reject(fail(`could not start (${error.code ?? ''})`));
      });
      child.on('close', (code, killedBy) => {
        const value = Buffer.concat(chunks).toString('utf8').trim();
        const said = this.lastLine(errors.text(), value);
        if (size > READ_OUTPUT_BYTES) reject(fail(`printed more than ${READ_OUTPUT_BYTES} bytes`));
        else if (code === null) reject(fail(`was stopped (${killedBy ?? 'signal'})${said}`));
        else if (code !== 0) reject(fail(`exited with status ${code}${said}`));
        else if (value === '') reject(fail(`printed nothing${said}`));
        else if (/[\r\n]/.test(value)) reject(fail('printed more than one line'));
        else resolve(value);
      });
    });
  }

  /** The last line the read command wrote on stderr, without any secret, for its failure line. */
  private lastLine(text: string, printed: string): string {
    const secrets = [printed, ...(this.options.secrets ?? [])].filter((s) => s !== '');
    const lines = redact(text, secrets)
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    const last = lines.at(-1);
    return last === undefined ? '' : `: ${displayLine(redactKeyShapes(last)).slice(0, 200)}`;
  }

  write(key: string, signal?: AbortSignal): Promise<void> {
    // The command does not need the old key: it is not passed on.
    const env = { ...this.env, SERVICE_API_KEY: undefined };
    const child = spawn(this.argv[0] ?? '', this.argv.slice(1), {
      env,
      shell: false,
      stdio: ['pipe', 'pipe', 'pipe'],
      timeout: this.timeoutMs,
      killSignal: 'SIGKILL',
      signal,
    });
    const output = tail();
    child.stdout.on('data', (chunk: Buffer) => output.add(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.add(chunk));
    child.stdin.on('error', () => undefined); // a command that does not read: its status says
    child.stdin.end(key);
    return new Promise<void>((resolve, reject) => {
      child.on('error', (error: NodeJS.ErrnoException) => {
        if (error.name === 'AbortError') return; // 'close' follows with the signal
        reject(
          new StoreError(`the store command could not start (${error.code ?? error.message})`),
        );
      });
      child.on('close', (code, killedBy) => {
        if (code === 0) return resolve();
        this.showOutput(output.text(), key);
        if (code === null) {
          reject(
            new StoreError(`the store command was stopped (${killedBy ?? 'signal'})`, {
              mayHaveStored: true,
            }),
          );
        } else reject(new StoreError(`the store command exited with status ${code}`));
      });
    });
  }

  /** The last lines the command printed, without the key, on stderr. */
  private showOutput(text: string, key: string): void {
    const lines = redact(text, [key])
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '');
    for (const line of lines.slice(-SHOWN_LINES)) this.note(displayLine(`store command: ${line}`));
  }
}
