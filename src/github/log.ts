// The Action's log lines and annotations: @actions/core's, with every message made one safe line
// first. Messages carry service text (a tenant name, a status word, a finding's title): escape
// sequences or control characters there must not drive the reader's terminal, and a line break
// must not start a line of its own that the runner would read as a workflow command.
import * as core from '@actions/core';
import { displayLine } from '../client/index.js';
import { oneLine, redact } from '../pipeline/common/errors.js';
import { SettingsError } from '../pipeline/common/settings-problems.js';

export interface AnnotationProperties {
  title?: string;
}

function safe(properties: AnnotationProperties): AnnotationProperties {
  return properties.title === undefined ? {} : { title: displayLine(properties.title) };
}

export function info(message: string): void {
  core.info(displayLine(message));
}

export function debug(message: string): void {
  core.debug(displayLine(message));
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  core.notice(displayLine(message), safe(properties));
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  core.warning(displayLine(message), safe(properties));
}

export function error(message: string, properties: AnnotationProperties = {}): void {
  core.error(displayLine(message), safe(properties));
}

/** Fails the step (exit code 1) with this line as an error annotation. */
export function setFailed(message: string): void {
  core.setFailed(displayLine(message));
}

/** Fails the step with several lines (one per bad input): each an error annotation, the last the
 *  step's failure. */
export function failWithLines(lines: readonly string[]): void {
  for (const line of lines.slice(0, -1)) error(line);
  setFailed(lines.at(-1) ?? 'failed');
}

/** How a sub-action's step ends on an error: bad settings as their lines, anything else as one
 *  line "<what> failed: …" with `secrets` redacted. */
export function failStep(what: string, error: unknown, secrets: readonly string[] = []): void {
  if (error instanceof SettingsError) {
    failWithLines(error.lines());
    return;
  }
  const said = error instanceof Error ? error.message : String(error);
  setFailed(`${what} failed: ${oneLine(redact(said, secrets))}`);
}
