// Exit codes and the one stderr line the CLI prints for an error.

import { displayLine } from '../client/index.js';
import { TenantApiError } from '../client/errors.js';
import { JobError, oneLine, redact } from '../pipeline/index.js';

export const EXIT_OK = 0;
/** Any API error, bad usage, or a scan that did not complete. */
export const EXIT_ERROR = 1;
/** The findings gate: --fail-on-findings and a finding with result Failed. */
export const EXIT_FINDINGS = 2;
/** Interrupted by Ctrl-C (128 + SIGINT), after cancelling a scan we started. */
export const EXIT_INTERRUPTED = 130;

/** Bad command line: unknown command or option, a missing or invalid argument. */
export class UsageError extends Error {
  /** The command whose --help the message points to ('' for the top level). */
  readonly command: string;
  constructor(message: string, command = '') {
    super(message);
    this.name = 'UsageError';
    this.command = command;
  }
}

/** The single stderr line for an error; never carries the API key or a control character. */
export function errorLine(error: unknown, apiKey: string | undefined): string {
  return displayLine(errorText(error, apiKey));
}

function errorText(error: unknown, apiKey: string | undefined): string {
  const secrets = apiKey ? [apiKey] : [];
  if (error instanceof UsageError) {
    const help =
      error.command === '' ? 'tenant-scan --help' : `tenant-scan ${error.command} --help`;
    return `tenant-scan: ${redact(oneLine(error.message), secrets)} (see '${help}')`;
  }
  if (error instanceof JobError || error instanceof TenantApiError) {
    return `tenant-scan: error: ${redact(oneLine(error.message), secrets)}`;
  }
  const message = error instanceof Error ? error.message : String(error);
  return `tenant-scan: error: ${redact(oneLine(message), secrets)}`;
}
