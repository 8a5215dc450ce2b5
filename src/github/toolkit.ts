// The runner protocol, as @actions/core speaks it: inputs, masks, outputs, state, log commands,
// annotations, the job summary and the failed exit code. Written here because @actions/core loads
// an HTTP client (with its own undici) for OIDC at import, which the Action's start-up pays on every
// job; the lazily loaded artifact and GitHub clients still use @actions/core themselves.
// Formats follow @actions/core 3 (command.js, file-command.js) and ../../shared/runner-facts.md.

import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { appendFile } from 'node:fs/promises';
import { EOL } from 'node:os';

type Env = Record<string, string | undefined>;

export interface AnnotationProperties {
  title?: string;
}

function escapeData(value: string): string {
  return value.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(value: string): string {
  return escapeData(value).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::name key=value,…::message`, one line on stdout. */
export function issueCommand(
  name: string,
  properties: Record<string, string>,
  message: string,
): void {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(value)}`)
    .join(',');
  process.stdout.write(`::${name}${props ? ` ${props}` : ''}::${escapeData(message)}${EOL}`);
}

/** Appends `key<<delimiter` … to a file command file (GITHUB_OUTPUT, GITHUB_STATE). */
function issueFileCommand(path: string, key: string, value: string): void {
  if (!existsSync(path)) throw new Error(`Missing file at path: ${path}`);
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(path, `${key}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`, 'utf8');
}

export function getInput(name: string, env: Env = process.env): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Registers a value with the runner's masker: it is replaced by *** in the log from now on. */
export function setSecret(secret: string): void {
  issueCommand('add-mask', {}, secret);
}

export function setOutput(name: string, value: string, env: Env = process.env): void {
  if (env.GITHUB_OUTPUT) {
    issueFileCommand(env.GITHUB_OUTPUT, name, value);
    return;
  }
  process.stdout.write(EOL);
  issueCommand('set-output', { name }, value);
}

export function saveState(name: string, value: string, env: Env = process.env): void {
  if (env.GITHUB_STATE) {
    issueFileCommand(env.GITHUB_STATE, name, value);
    return;
  }
  issueCommand('save-state', { name }, value);
}

export function getState(name: string, env: Env = process.env): string {
  return env[`STATE_${name}`] ?? '';
}

export function info(message: string): void {
  process.stdout.write(`${message}${EOL}`);
}

export function debug(message: string): void {
  issueCommand('debug', {}, message);
}

function annotation(
  level: 'error' | 'warning' | 'notice',
  message: string,
  properties: AnnotationProperties,
) {
  issueCommand(level, properties.title ? { title: properties.title } : {}, message);
}

export function error(message: string, properties: AnnotationProperties = {}): void {
  annotation('error', message, properties);
}

export function warning(message: string, properties: AnnotationProperties = {}): void {
  annotation('warning', message, properties);
}

export function notice(message: string, properties: AnnotationProperties = {}): void {
  annotation('notice', message, properties);
}

/** Marks the step failed (exit code 1) with an error annotation. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  error(message);
}

/** Appends Markdown to the job summary; false when there is no summary file (not on a runner). */
export async function appendSummary(markdown: string, env: Env = process.env): Promise<boolean> {
  const path = env.GITHUB_STEP_SUMMARY;
  if (!path) return false;
  await appendFile(path, markdown, 'utf8');
  return true;
}
