// Exit codes and the one stderr line the CLI prints for an error.

import { displayLine } from '../client/index.js';
import { causeOf, oneLine, redact, type JobWording } from '../pipeline/index.js';

export const EXIT_OK = 0;
/** Any API error, bad usage, bad settings, or a scan that did not complete. */
export const EXIT_ERROR = 1;
/** The findings gate: --fail-on-findings and failed findings that fail the gate. */
export const EXIT_FINDINGS = 2;
/** The line on stderr that explains every exit with EXIT_FINDINGS; `reason` is the gate's
 *  ("5 failed findings", "2 new failed findings at high or above since scan …"). */
export function findingsGateLine(reason: string): string {
  return displayLine(`Findings gate: ${reason} (exit code ${EXIT_FINDINGS})`);
}

/** Interrupted by Ctrl-C (128 + SIGINT), after cancelling a scan we started. */
export const EXIT_INTERRUPTED = 130;

/** Bad command line: no command, an unknown command or option, a missing or invalid argument. The
 *  usage of `command` (a command's or a group's words; '' for the top level) follows its line. */
export class UsageError extends Error {
  readonly command: string;
  /** The message already says what to type instead: no usage text after it. */
  readonly suggested: boolean;
  constructor(message: string, command = '', suggested = false) {
    super(message);
    this.name = 'UsageError';
    this.command = command;
    this.suggested = suggested;
  }

  words(): string[] {
    return this.command === '' ? [] : this.command.split(' ');
  }
}

/** How the shared job's messages name what a CLI user changes. */
export const CLI_JOB_WORDING: JobWording = {
  noWait: 'no --watch',
  reportGenerate: '--report generate',
  insteadOfTrigger: 'follow a scan that exists with tenant-scan scan run --scan-id <id> --watch',
  listIds: {
    scan: 'tenant-scan scan list',
    'API key': 'tenant-scan keys list',
    'attack-surface target': 'tenant-scan eas targets list',
    'remediation plan': 'tenant-scan remediation plans',
  },
  scanId: 'the scan id',
  scanTimeout: '--timeout',
  apiKey: 'SERVICE_API_KEY',
  apiUrl: 'SERVICE_API_URL',
  requestTimeout: '--request-timeout or SERVICE_REQUEST_TIMEOUT',
  waiversMaxDays: '--waivers-max-days',
  stallMinutes: '--stall-minutes',
  resultsMax: '--results-max-mib',
};

/** A client error whose cause names the fix better than the request does ("Connection failed:
 *  nothing answers at …"), as the scan job says it; any other error's own message. */
function explain(error: unknown): string {
  const cause = causeOf(error, CLI_JOB_WORDING);
  if (cause?.heading) return `${cause.heading} failed: ${cause.detail}`;
  if (cause?.namesSetting) return cause.detail;
  return error instanceof Error ? error.message : String(error);
}

/** What the error line says after `tenant-scan: error: ` (the HTML page of a run that ended in
 *  the error says the same). */
export function errorCause(error: unknown, apiKey: string | undefined): string {
  const secrets = apiKey ? [apiKey] : [];
  return oneLine(redact(explain(error), secrets));
}

/** The single stderr line for an error: `tenant-scan: error: …`, never the API key or a control
 *  character. */
export function errorLine(error: unknown, apiKey: string | undefined): string {
  return displayLine(`tenant-scan: error: ${errorCause(error, apiKey)}`);
}

/** "--junit", "--junit and --sarif", "--a, --b and --c" (or "--a, --b or --c"). */
export function listWords(words: string[], conjunction: 'and' | 'or' = 'and'): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} ${conjunction} ${words.at(-1)}`;
}
