// The CLI: parse the command line, run the command, print its result, return the exit code.

import { CLIENT_VERSION, createClient, displayLine, redactSecrets } from '../client/index.js';
import type { TenantClient } from '../client/index.js';
import {
  JobError,
  SettingsError,
  type JobWording,
  type TenantScanObserver,
} from '../pipeline/index.js';
import { parseCommandLine } from './argv.js';
import type { CliIo, CommandContext, CommandSpec, OutputFormat } from './command.js';
import { COMMANDS } from './commands/index.js';
import { EXIT_ERROR, EXIT_INTERRUPTED, EXIT_OK, UsageError, errorLine } from './errors.js';
import { commandHelp, groupHelp, usageText } from './help.js';
import { connectionSettings, type ConnectionSettings } from './settings.js';
import { retryLine } from './progress.js';
import {
  EXIT_OUTPUT_CLOSED,
  OutputClosed,
  outputFailedLine,
  watchOutputs,
} from './output-closed.js';
import { printOutput } from './render.js';

const EXIT_TERMINATED = 143;
/** What an offline command (CommandSpec.offline) gets: it never makes a client. */
const OFFLINE: ConnectionSettings = { apiKey: '', apiUrl: '', requestTimeoutMs: 0 };
/** After the first Ctrl-C or SIGTERM, the most the command may still take: the remote cancel of a
 *  scan it started (7 s) and the trigger's answer (2 s), with a second to spare. */
const STOP_GRACE_MS = 10_000;

/** Where `--output` was taken for a file: the command's report file, when it writes one. */
function reportFileHint(command: CommandSpec): string {
  const writesReport = command.options?.includes('out') === true && !command.optionHelp?.out;
  return writesReport ? '; a report file is -o/--out <file>' : '';
}

function outputFormat(
  flag: unknown,
  jsonFlag: unknown,
  env: CliIo['env'],
  command: CommandSpec,
): OutputFormat {
  if (jsonFlag === true) {
    if (typeof flag === 'string' && flag.trim().toLowerCase() !== 'json') {
      throw new UsageError(`--json contradicts --output ${flag}`);
    }
    return 'json';
  }
  const raw = typeof flag === 'string' ? flag : (env.SERVICE_OUTPUT ?? '');
  const value = raw.trim().toLowerCase();
  if (value === '' || value === 'table') return 'table';
  if (value === 'json') return 'json';
  const source = typeof flag === 'string' ? '--output' : 'SERVICE_OUTPUT';
  throw new SettingsError([
    `${source} must be table or json, got ${JSON.stringify(raw.slice(0, 40))}${reportFileHint(command)}`,
  ]);
}

class LazyClient {
  private client?: TenantClient;
  constructor(
    private readonly io: CliIo,
    private readonly settings: ConnectionSettings,
  ) {}

  get(): TenantClient {
    this.client ??= createClient({
      apiKey: this.settings.apiKey,
      baseUrl: this.settings.apiUrl,
      env: this.io.env,
      requestTimeoutMs: this.settings.requestTimeoutMs,
      userAgentSuffix: 'cli',
      onRetry: (event) => this.io.stderr.write(`${retryLine(event)}\n`),
    });
    return this.client;
  }

  async close(): Promise<void> {
    await this.client?.close().catch(() => undefined);
  }
}

/** What a face that runs the CLI in its own process adds (the tenants sub-action). */
export interface EmbeddingOptions {
  /** As a runner's step: the SIGTERM that follows SIGINT is not a second Ctrl-C. */
  patientSignals?: boolean;
  tenantScans?: TenantScanObserver;
  /** How the face names the settings a tenant's error line tells to change (its inputs). */
  jobWording?: Partial<JobWording>;
  /** The face's name of each option it puts on the command line (`--timeout` → its input), for
   *  the line a bad value gets: its user set the input and never saw the option. Any other
   *  option keeps its own name; a line not about a setting is printed as it is. Given, a usage
   *  error's line is not followed by the CLI's usage: the face's user typed no command line. */
  optionNames?: ReadonlyMap<string, string>;
}

/** Runs one command line; never throws; the result is the process exit code. */
export async function main(
  argv: string[],
  io: CliIo,
  signal: AbortSignal,
  embedding: Pick<EmbeddingOptions, 'tenantScans' | 'jobWording' | 'optionNames'> = {},
): Promise<number> {
  let clients: LazyClient | undefined;
  const optionName = (option: string) => embedding.optionNames?.get(option) ?? option;
  try {
    if (argv.length === 0) throw new UsageError('no command given');
    const { command, words, input } = parseCommandLine(COMMANDS, argv, optionName);
    if (input.values.version === true) {
      io.stdout.write(`${CLIENT_VERSION}\n`);
      return EXIT_OK;
    }
    if (!command) {
      if (input.values.help === true) {
        io.stdout.write(groupHelp(COMMANDS, words, CLIENT_VERSION));
        return EXIT_OK;
      }
      throw new UsageError(
        words.length > 0 ? `'${words.join(' ')}' needs a command` : 'no command given',
        words.join(' '),
      );
    }
    if (input.values.help === true) {
      io.stdout.write(commandHelp(command));
      return EXIT_OK;
    }
    const format = outputFormat(input.values.output, input.values.json, io.env, command);
    const settings = command.offline
      ? OFFLINE
      : connectionSettings(io.env, input.values['request-timeout'], {
          ownKeys: command.ownConnections?.(input) === true,
          requestTimeoutName: optionName('--request-timeout'),
        });
    const lazy = new LazyClient(io, settings);
    clients = lazy;
    const ctx: CommandContext = {
      io,
      format,
      signal,
      settings,
      client: () => {
        if (command.offline)
          throw new Error(`'${command.path.join(' ')}' works offline: no client`);
        return lazy.get();
      },
      // A note may carry service text: the key is redacted from it like from any error line.
      note: (message) =>
        io.stderr.write(`${displayLine(redactSecrets(message, [settings.apiKey]))}\n`),
      tenantScans: embedding.tenantScans,
      jobWording: embedding.jobWording,
      optionName,
    };
    const output = await command.run(ctx, input);
    await printOutput(io.stdout, format, output);
    return output.exitCode ?? EXIT_OK;
  } catch (error) {
    const interrupted = signal.aborted && !(error instanceof JobError);
    if (interrupted) {
      // The reader of the output went away: nothing to tell it (run() exits with 141).
      if (!(signal.reason instanceof OutputClosed))
        io.stderr.write('tenant-scan: error: interrupted\n');
      return EXIT_INTERRUPTED;
    }
    io.stderr.write(`${errorLine(error, io.env.SERVICE_API_KEY)}\n`);
    if (error instanceof UsageError && !error.suggested && !embedding.optionNames)
      io.stderr.write(`\n${usageText(COMMANDS, error.words())}`);
    return EXIT_ERROR;
  } finally {
    await clients?.close();
  }
}

type StopSignal = 'SIGINT' | 'SIGTERM';

/** What the first signal prints. Only a Ctrl-C at a terminal is told that a second one quits at
 *  once: a SIGTERM comes from a CI system cancelling (nobody at a keyboard), and as a runner's step
 *  (patient) the second signal is waited out. */
export function stoppingLine(signal: StopSignal, patient: boolean): string {
  if (signal === 'SIGTERM') return 'Terminated (SIGTERM): stopping';
  return patient
    ? 'Interrupted: stopping'
    : 'Interrupted: stopping (press Ctrl-C again to quit at once)';
}

/** The entry: process arguments and streams; Ctrl-C / SIGTERM abort the command (a scan started
 *  by `scan run --watch` is cancelled remotely), a second signal exits at once. */
export async function run(
  argv = process.argv.slice(2),
  options: EmbeddingOptions = {},
): Promise<void> {
  const controller = new AbortController();
  let stopCode: number | undefined;
  const stop = (code: number, reason: Error) => {
    stopCode = code;
    controller.abort(reason);
    // Whatever the command waits on (a write that never completes, a stuck file system call, an
    // output pipe nobody reads), the process ends within the cancel grace.
    setTimeout(() => {
      if (!(reason instanceof OutputClosed))
        process.stderr.write(
          `tenant-scan: error: interrupted; stopped after ${STOP_GRACE_MS / 1000} s\n`,
        );
      process.exit(code);
    }, STOP_GRACE_MS).unref();
  };
  const onSignal = (signal: StopSignal, code: number) => () => {
    // As a runner's step (the tenants sub-action) the SIGTERM that follows SIGINT by 7.5 s is not
    // a user's second Ctrl-C: the cancels under way go on until the grace ends.
    if (stopCode !== undefined && options.patientSignals) return;
    if (stopCode !== undefined) process.exit(stopCode);
    process.stderr.write(`\n${stoppingLine(signal, options.patientSignals === true)}\n`);
    stop(code, new Error('interrupted'));
  };
  process.on('SIGINT', onSignal('SIGINT', EXIT_INTERRUPTED));
  process.on('SIGTERM', onSignal('SIGTERM', EXIT_TERMINATED));
  // The reader of stdout or stderr went away (`| head`): stopped as on a signal, quietly.
  watchOutputs([process.stdout, process.stderr], (code, error) => {
    if (stopCode !== undefined) return;
    if (code !== EXIT_OUTPUT_CLOSED) process.stderr.write(`${outputFailedLine(error)}\n`);
    stop(code, new OutputClosed());
  });
  const code = await main(argv, process, controller.signal, options);
  // Exit now (after the output is flushed): an idle keep-alive socket must not hold the process.
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(stopCode ?? code);
}

function flushed(stream: NodeJS.WriteStream): Promise<void> {
  return new Promise((resolve) => stream.write('', () => resolve()));
}
