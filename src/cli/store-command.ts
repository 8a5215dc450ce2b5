// `keys rotate --store-command CMD`: the user's command stores the new key, which it reads on
// standard input. CMD is split into words like a POSIX shell splits them (quotes, backslashes) by
// shell-quote and run without a shell: no variable, glob, pipe or redirection is interpreted, and
// the key is never on a command line, in the environment or in a file. Its exit status decides.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { accessSync, constants } from 'node:fs';
import { basename, delimiter, isAbsolute, join } from 'node:path';
import { parse } from 'shell-quote';
import { displayLine } from '../client/index.js';
import { SettingProblem, redact } from '../pipeline/index.js';
import { StoreError, type KeyStore } from '../pipeline/rotation/store.js';

/** A store command that has not exited after this long is killed (and may have stored). */
export const STORE_COMMAND_TIMEOUT_MS = 5 * 60_000;
/** What is kept of the command's output, to show (redacted) when it fails. */
const OUTPUT_TAIL_BYTES = 8 * 1024;
const SHOWN_LINES = 5;

type Env = Record<string, string | undefined>;

export function parseStoreCommand(label: string, raw: string): string[] {
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
    throw new SettingProblem(`${label} is empty: give the command that reads the key on stdin`);
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

export class CommandStore implements KeyStore {
  readonly description: string;
  constructor(
    private readonly argv: readonly string[],
    private readonly env: Env,
    private readonly note: (line: string) => void,
    private readonly timeoutMs = STORE_COMMAND_TIMEOUT_MS,
  ) {
    this.description = `store command ${basename(argv[0] ?? '')}`;
  }

  async prepare(): Promise<void> {
    const program = this.argv[0] ?? '';
    if (!findProgram(program, this.env)) {
      throw new StoreError(
        `the store command ${JSON.stringify(program)} is not an executable on PATH`,
      );
    }
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
