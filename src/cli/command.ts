// The shape of a CLI command: its words, its help, its options, and what it returns to be printed.

import type { TenantClient } from '../client/index.js';
import type { JobWording, TenantScanObserver } from '../pipeline/index.js';
import type { OptionName } from './options.js';
import type { ConnectionSettings } from './settings.js';

export type OutputFormat = 'table' | 'json';

/** What a command hands back: the JSON document and its table rendering, and an exit code. */
export interface CommandOutput {
  /** Printed (pretty JSON) on stdout with --output json; a function is called only then (a
   *  document of 250,000 findings is not built for a table). */
  json: unknown;
  /** Printed on stdout with --output table (the default); a function is called only then. */
  text: string | (() => string);
  /** 0 unless the command says otherwise (the findings gate says 2). */
  exitCode?: number;
}

export interface CliIo {
  stdout: NodeJS.WritableStream & { isTTY?: boolean };
  stderr: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
  env: Record<string, string | undefined>;
}

/** How the lines of a bad value name an option (`--timeout`): the CLI as the user typed it; a face
 *  that makes the command line from settings of its own (the tenants sub-action's inputs) by those. */
export type OptionNaming = (option: string) => string;
export const AS_TYPED: OptionNaming = (option) => option;

/** Whether a line shows `option` as the user typed it (the CLI), not as a face's setting: then a
 *  line may add a value or an example after it. */
export function shownAsTyped(optionName: OptionNaming, option: string): boolean {
  return optionName(option) === option;
}

export interface CommandContext {
  io: CliIo;
  format: OutputFormat;
  /** The client over SERVICE_API_KEY / SERVICE_API_URL (created on first use). */
  client(): TenantClient;
  /** One line on stderr (progress, notes, retries): never on stdout, which carries the result. */
  note(message: string): void;
  /** Cancelled on Ctrl-C. */
  signal: AbortSignal;
  /** SERVICE_API_KEY, SERVICE_API_URL and the request timeout, checked before the command ran. */
  settings: ConnectionSettings;
  /** Given by an embedding face (the tenants sub-action): told of each tenant's scan of
   *  `scan run --tenants` as it is triggered and settles. The CLI itself gives none. */
  tenantScans?: TenantScanObserver;
  /** Given by an embedding face: its names for the settings a tenant's error line tells to change. */
  jobWording?: Partial<JobWording>;
  /** Given by an embedding face: its names for the options it passed on (AS_TYPED when absent). */
  optionName?: OptionNaming;
}

export interface ParsedInput {
  /** Positional arguments after the command words, by the names of `CommandSpec.args`. */
  args: Record<string, string>;
  /** The positional arguments after those (`CommandSpec.rest`), in order. */
  rest: string[];
  values: Partial<Record<OptionName, string | boolean>>;
}

/** A string option's value, or undefined when it was not given. */
export function stringOption(input: ParsedInput, name: OptionName): string | undefined {
  const value = input.values[name];
  return typeof value === 'string' ? value : undefined;
}

export interface CommandSpec {
  /** The command words, e.g. ['eas', 'targets', 'update']. */
  path: string[];
  summary: string;
  /** Positional arguments, all required, in order (e.g. ['id']). */
  args?: string[];
  /** The name of the arguments that may follow them, one or more (e.g. 'records'). */
  rest?: string;
  /** Works on local files only: no SERVICE_API_KEY or SERVICE_API_URL needed, nothing sent. */
  offline?: boolean;
  /** For this input the command makes its own clients from other variables (scan run --tenants):
   *  SERVICE_API_KEY is not needed and SERVICE_API_URL is optional. */
  ownConnections?(input: ParsedInput): boolean;
  options?: OptionName[];
  /** Options that must be given. */
  required?: OptionName[];
  /** The command line's own rules beyond `required` (one of two options), checked with the
   *  options: before any variable is read or anything sent. Throws a UsageError. */
  checkUsage?(input: ParsedInput, optionName?: OptionNaming): void;
  /** The usage line's words after the arguments, where `required` would not tell them. */
  usage?: string;
  /** The command's own help line of an option, where the shared one would say too much (it
   *  would name options of other commands). */
  optionHelp?: Partial<Record<OptionName, string>>;
  /** The command's own value list of an option ("<drift|problems|any|none>"), where it takes
   *  other words than the shared one lists. */
  optionValue?: Partial<Record<OptionName, string>>;
  /** Extra help text after the options. */
  details?: string;
  run(ctx: CommandContext, input: ParsedInput): Promise<CommandOutput>;
}
