// How a store command (and a store read command) runs: without a shell, in a process group of its
// own, with a minimal environment that holds no key; a write is started by the handover
// (store-handover.ts), so it starts only once it can be given the whole key. It is done when it exits: its pipes get a
// moment to drain, then they are closed, so a child it leaves behind (an agent, a credential
// helper) that holds them does not hold the rotation. At its deadline, or when the CLI is
// stopped, the whole group is killed.

import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { StoreError } from '../pipeline/rotation/store.js';
import {
  HANDOVER_SOURCE,
  handoverFrame,
  parseHandoverReport,
  type HandoverReport,
} from './store-handover.js';

/** How long a command's pipes may stay open after it exited (a child it left may hold them). */
export const DRAIN_MS = 200;
/** What is kept of a command's output, to show (redacted) when it fails. */
const OUTPUT_TAIL_BYTES = 8 * 1024;

type Env = Record<string, string | undefined>;

/** Always passed on, when set: what a program needs to run (never a key: see storeEnvironment). */
export const PASSED_ENV = [
  'PATH',
  'HOME',
  'TMPDIR',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'LC_MESSAGES',
  'TZ',
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'NO_PROXY',
  'no_proxy',
  'SSL_CERT_FILE',
  'SSL_CERT_DIR',
] as const;

const KEY_SHAPE = /ak_live_/i;
/** A key's secret part (after `ak_live_`) is looked for alone from this length on. */
const MIN_SECRET_PART = 8;

/** Whether a value holds an API key: a key shape, or one of `secrets`, or its secret part. */
export function holdsKey(value: string, secrets: readonly string[]): boolean {
  if (KEY_SHAPE.test(value)) return true;
  return secrets.some((secret) => {
    const part = secret.replace(/^ak_live_/, '');
    return (
      (secret !== '' && value.includes(secret)) ||
      (part.length >= MIN_SECRET_PART && value.includes(part))
    );
  });
}

/** The environment a store command gets: PASSED_ENV and `extra` names, without any value that
 *  holds a key (under whatever name). */
export function storeEnvironment(
  env: Env,
  extra: readonly string[],
  secrets: readonly string[],
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...PASSED_ENV, ...extra]) {
    const value = env[name];
    if (value !== undefined && !holdsKey(value, secrets)) out[name] = value;
  }
  return out;
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

/** How a store command ended. */
export interface CommandEnd {
  code: number | null;
  killedBy: NodeJS.Signals | null;
  /** Killed at its deadline (it may have stored). */
  timedOut: boolean;
  /** A read's standard output (at most `maxPrinted` bytes), trimmed; '' for a write. */
  printed: string;
  /** Whether a read printed more than `maxPrinted` bytes (it was killed then). */
  overflowed: boolean;
  /** The last bytes of what it printed for a person: stderr (and a write's stdout). */
  said: string;
}

export interface SpawnOptions {
  /** The environment as storeEnvironment made it. */
  env: Record<string, string>;
  timeoutMs: number;
  signal?: AbortSignal | undefined;
  /** A write's input (the new key); without it the command is a read, whose stdout is the value. */
  stdin?: string | undefined;
  /** A read's most bytes on stdout. */
  maxPrinted?: number;
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // the group is gone already
  }
}

/** Resolves once both pipes closed, or after DRAIN_MS; then closes them. */
function drain(streams: Readable[]): Promise<void> {
  const closed = streams.map(
    (s) =>
      new Promise<void>((resolve) => (s.closed ? resolve() : s.once('close', () => resolve()))),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, DRAIN_MS)));
  return Promise.race([Promise.all(closed), late]).then(() => {
    clearTimeout(timer);
    for (const s of streams) s.destroy();
  });
}

/** How the command is started: a write through the handover (store-handover.ts), so it starts
 *  only once the key is whole; a read directly. */
function start(argv: readonly string[], options: SpawnOptions) {
  if (options.stdin === undefined) {
    return spawn(argv[0] ?? '', argv.slice(1), {
      env: options.env,
      shell: false,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  }
  const child = spawn(process.execPath, ['-e', HANDOVER_SOURCE, '--', ...argv], {
    env: {},
    shell: false,
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe', 'pipe'],
  });
  child.stdin?.on('error', () => undefined); // its report says how it ended
  child.stdin?.end(handoverFrame(options.stdin, options.env));
  return child;
}

/** What the handover wrote on fd 3, once it closed (it does when the handover exits). */
function reportOf(stream: Readable | null | undefined): Promise<HandoverReport | undefined> {
  if (!stream) return Promise.resolve(undefined);
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.length < 64 && chunks.push(chunk));
  return new Promise((resolve) => {
    const done = () => resolve(parseHandoverReport(Buffer.concat(chunks).toString('utf8')));
    stream.once('close', done);
    stream.once('error', done);
  });
}

const couldNotStart = (what: string, code: string) =>
  new StoreError(`the ${what} could not start (${code})`);

/** A write's end, as its handover reported it. Without a report the handover was killed (at the
 *  deadline, when tenant-scan was stopped, or alone), or ended on its own before it could say. */
function writeEnd(
  what: string,
  handover: HandoverReport | undefined,
  exitCode: number | null,
  exitSignal: NodeJS.Signals | null,
): { code: number | null; killedBy: NodeJS.Signals | null } {
  if (handover && 'error' in handover) throw couldNotStart(what, handover.error);
  if (handover && 'incomplete' in handover)
    throw new StoreError(
      `the ${what} was not started: tenant-scan could not hand it the whole key`,
    );
  if (handover && 'code' in handover) return { code: handover.code, killedBy: handover.signal };
  if (exitSignal !== null) return { code: null, killedBy: exitSignal };
  throw new StoreError(
    `the ${what}'s launcher (tenant-scan's own Node) exited with status ${exitCode ?? '?'} without saying how the ${what} ended`,
    { mayHaveStored: true },
  );
}

/** Runs a store command; rejects only when it could not start, its end (whatever it is) resolves. */
export function spawnStoreCommand(
  what: string,
  argv: readonly string[],
  options: SpawnOptions,
): Promise<CommandEnd> {
  const isWrite = options.stdin !== undefined;
  const child = start(argv, options);
  const report = isWrite ? reportOf(child.stdio[3] as Readable | null) : undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  let timedOut = false;
  const said = tail();
  const maxPrinted = options.maxPrinted ?? Number.POSITIVE_INFINITY;
  child.stdout?.on('data', (chunk: Buffer) => {
    if (isWrite) return said.add(chunk);
    size += chunk.length;
    if (size > maxPrinted) killGroup(child.pid);
    else chunks.push(chunk);
  });
  child.stderr?.on('data', (chunk: Buffer) => said.add(chunk));
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(child.pid);
  }, options.timeoutMs);
  const stop = () => killGroup(child.pid);
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  const settle = () => {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', stop);
  };
  return new Promise<CommandEnd>((resolve, reject) => {
    child.on('error', (error: NodeJS.ErrnoException) => {
      settle();
      reject(couldNotStart(what, error.code ?? error.message));
    });
    child.on('exit', (exitCode, exitSignal) => {
      settle();
      const pipes = [child.stdout, child.stderr].filter((s) => s !== null);
      void Promise.all([drain(pipes), report]).then(([, handover]) => {
        let ended = { code: exitCode, killedBy: exitSignal };
        if (isWrite) {
          // without a report the store command it started may still run: its group goes too
          if (!handover || !('code' in handover)) killGroup(child.pid);
          try {
            ended = writeEnd(what, handover, exitCode, exitSignal);
          } catch (error) {
            return reject(error as Error);
          }
        }
        resolve({
          ...ended,
          timedOut,
          printed: Buffer.concat(chunks).toString('utf8').trim(),
          overflowed: size > maxPrinted,
          said: said.text(),
        });
      });
    });
  });
}
