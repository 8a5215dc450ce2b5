// --help texts: the whole CLI, a group of commands ('scan', 'eas targets'), or one command.

import { EXAMPLE_API_URL } from '../pipeline/index.js';
import type { CommandSpec } from './command.js';
import { GLOBAL_OPTIONS, optionInfo, optionSignature, type OptionName } from './options.js';

/** Every environment variable the CLI reads (test/cli/help-values.test.ts holds it to the code). */
export const ENVIRONMENT = [
  'Environment:',
  '  SERVICE_API_KEY             The API key (ak_live_...). Required by every command that calls',
  '                              the API (all but rollup, which reads local files).',
  `  SERVICE_API_URL             The API base URL, e.g. ${EXAMPLE_API_URL}. Required: no default.`,
  '  SERVICE_OUTPUT              Output format: table (default) or json. --output overrides it.',
  '  SERVICE_REQUEST_TIMEOUT     Seconds each exchange with the service may take (default 120).',
  '  TENANT_SCAN_NOTIFY_WEBHOOK  A Teams Workflows or Slack webhook address: scan run --watch and',
  '                              rollup post to it when something changed. Never printed.',
  "  TENANT_SCAN_DEBUG           1 or true: scan run adds the scan job's debug lines to stderr.",
  '  HTTPS_PROXY, HTTP_PROXY,    The proxy that requests to the service go through, and the hosts',
  '  NO_PROXY                    that bypass it.',
  '  NODE_EXTRA_CA_CERTS         A file of extra CA certificates (a private certificate authority).',
  '  GITHUB_WORKFLOW_REF         Set by GitHub Actions: the default of --sarif-location.',
];

const EXIT_CODES = [
  'Exit codes:',
  '  0    success',
  '  1    an API error, bad usage or settings (nothing is sent then), or a scan that did not',
  '       complete',
  '  2    the findings gate failed: failed findings that fail it (--fail-on-findings, or a',
  '       --fail-on-severity or --fail-on that turns it on); rollup: more tenants failed than allowed',
  '  130  interrupted by Ctrl-C (a scan started by scan run --watch is cancelled first); 143 on SIGTERM',
  '  141  the reader of the output went away (| head): stopped quietly, as on a signal',
  'Errors are printed on stderr as one line; results on stdout.',
];

/** A command's page names the environment and exit codes once instead of repeating them. */
const SEE_MAIN_HELP = "Environment variables and exit codes: 'tenant-scan --help'.";

/** Global options that mean something for the command: an offline one sends no request. */
function globalOptionsOf(command: CommandSpec): OptionName[] {
  return command.offline ? GLOBAL_OPTIONS.filter((o) => o !== 'request-timeout') : GLOBAL_OPTIONS;
}

function usageOf(command: CommandSpec): string {
  const args = argNames(command);
  const required = (command.required ?? []).map((o) =>
    optionSignature(o, command.optionValue?.[o]).replace(/^-\w, /, ''),
  );
  const optional = (command.options ?? []).filter((o) => !(command.required ?? []).includes(o));
  return [
    'tenant-scan',
    ...command.path,
    ...args,
    ...required,
    command.usage ?? '',
    optional.length > 0 ? '[options]' : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

function optionLines(names: OptionName[], command?: CommandSpec): string[] {
  const signatures = names.map((name) => optionSignature(name, command?.optionValue?.[name]));
  const width = signatures.reduce((widest, s) => Math.max(widest, s.length), 0);
  return names.map(
    (name, i) =>
      `  ${(signatures[i] ?? '').padEnd(width)}  ${command?.optionHelp?.[name] ?? optionInfo(name).help}`,
  );
}

function commandLines(commands: CommandSpec[]): string[] {
  const names = commands.map((c) => [...c.path, ...argNames(c)].join(' '));
  const width = names.reduce((widest, n) => Math.max(widest, n.length), 0);
  return commands.map((c, i) => `  ${(names[i] ?? '').padEnd(width)}  ${c.summary}`);
}

export function commandHelp(command: CommandSpec): string {
  let lines = [`Usage: ${usageOf(command)}`, '', command.summary, ''];
  if (command.options && command.options.length > 0)
    lines = lines.concat('Options:', optionLines(command.options, command), '');
  lines = lines.concat('Global options:', optionLines(globalOptionsOf(command)), '');
  if (command.details) lines.push(command.details, '');
  lines.push(SEE_MAIN_HELP);
  return `${lines.join('\n')}\n`;
}

/** The short usage a usage error prints on stderr: a command's line, or a group's commands. */
export function usageText(commands: CommandSpec[], words: string[]): string {
  const command = commands.find((c) => c.path.join(' ') === words.join(' '));
  if (command) {
    return `Usage: ${usageOf(command)}\nRun 'tenant-scan ${words.join(' ')} --help' for its options.\n`;
  }
  const inGroup = commands.filter((c) => words.every((w, i) => c.path[i] === w));
  const prefix = words.length > 0 ? `${words.join(' ')} ` : '';
  return [
    `Usage: tenant-scan ${prefix}<command> [options]`,
    '',
    'Commands:',
    ...commandLines(inGroup.length > 0 ? inGroup : commands),
    '',
    `Run 'tenant-scan ${prefix}<command> --help' for a command's options.`,
    '',
  ].join('\n');
}

export function groupHelp(commands: CommandSpec[], words: string[], version: string): string {
  const inGroup = commands.filter((c) => words.every((w, i) => c.path[i] === w));
  const title =
    words.length === 0
      ? [`tenant-scan ${version}: scan a connected tenant for compliance from any CI`, '']
      : [];
  const lines = [
    ...title,
    `Usage: tenant-scan ${words.length > 0 ? `${words.join(' ')} ` : ''}<command> [options]`,
    '',
    'Commands:',
    ...commandLines(inGroup),
    '',
    'Global options:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
    ...(words.length === 0 ? [...ENVIRONMENT, '', ...EXIT_CODES, ''] : [SEE_MAIN_HELP]),
    `Run 'tenant-scan ${words.length > 0 ? `${words.join(' ')} ` : ''}<command> --help' for a command's options.`,
  ];
  return `${lines.join('\n')}\n`;
}

function argNames(command: CommandSpec): string[] {
  const args = (command.args ?? []).map((a) => `<${a}>`);
  return command.rest === undefined ? args : [...args, `<${command.rest}>…`];
}
