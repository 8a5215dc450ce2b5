// --help texts: the whole CLI, a group of commands ('scan', 'eas targets'), or one command.

import type { CommandSpec } from './command.js';
import { GLOBAL_OPTIONS, optionInfo, optionSignature, type OptionName } from './options.js';

const ENVIRONMENT = [
  'Environment:',
  '  SERVICE_API_KEY          The API key (ak_live_...). Required by every command but --help.',
  '  SERVICE_API_URL          The API base URL, e.g. https://host/api/v1. Required: no default.',
  '  SERVICE_OUTPUT           Output format: table (default) or json. --output overrides it.',
  '  SERVICE_REQUEST_TIMEOUT  Seconds each exchange with the service may take (default 120).',
];

const EXIT_CODES = [
  'Exit codes:',
  '  0    success',
  '  1    an API error, bad usage or settings (nothing is sent then), or a scan that did not',
  '       complete',
  '  2    the findings gate: --fail-on-findings and a finding with result Failed',
  '  130  interrupted by Ctrl-C (a scan started by scan run --watch is cancelled first); 143 on SIGTERM',
  'Errors are printed on stderr as one line; results on stdout.',
];

function usageOf(command: CommandSpec): string {
  const args = argNames(command);
  const required = (command.required ?? []).map((o) => optionSignature(o).replace(/^-\w, /, ''));
  const optional = (command.options ?? []).filter((o) => !(command.required ?? []).includes(o));
  return [
    'tenant-scan',
    ...command.path,
    ...args,
    ...required,
    optional.length > 0 ? '[options]' : '',
  ]
    .filter((part) => part !== '')
    .join(' ');
}

function optionLines(names: OptionName[]): string[] {
  const signatures = names.map((name) => optionSignature(name));
  const width = Math.max(...signatures.map((s) => s.length));
  return names.map(
    (name, i) => `  ${(signatures[i] ?? '').padEnd(width)}  ${optionInfo(name).help}`,
  );
}

function commandLines(commands: CommandSpec[]): string[] {
  const names = commands.map((c) => [...c.path, ...argNames(c)].join(' '));
  const width = Math.max(...names.map((n) => n.length));
  return commands.map((c, i) => `  ${(names[i] ?? '').padEnd(width)}  ${c.summary}`);
}

export function commandHelp(command: CommandSpec): string {
  const lines = [`Usage: ${usageOf(command)}`, '', command.summary, ''];
  if (command.options && command.options.length > 0)
    lines.push('Options:', ...optionLines(command.options), '');
  lines.push('Global options:', ...optionLines(GLOBAL_OPTIONS), '');
  if (command.details) lines.push(command.details, '');
  lines.push(...ENVIRONMENT, '', ...EXIT_CODES);
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
    ...ENVIRONMENT,
    '',
    ...EXIT_CODES,
    '',
    "Run 'tenant-scan <command> --help' for a command's options.",
  ];
  return `${lines.join('\n')}\n`;
}

function argNames(command: CommandSpec): string[] {
  const args = (command.args ?? []).map((a) => `<${a}>`);
  return command.rest === undefined ? args : [...args, `<${command.rest}>…`];
}
