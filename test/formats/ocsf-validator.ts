// The OCSF file's validator: the committed JSON Schema of what tenant-scan emits
// (schemas/ocsf-detection-finding-1.3.json, derived from the OCSF 1.3.0 class) compiled once with
// Ajv, and a reader of a JSON Lines file that validates every line.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';

export const OCSF_SCHEMA_PATH = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'schemas',
  'ocsf-detection-finding-1.3.json',
);

let validator: ReturnType<Ajv2020['compile']> | undefined;

export function ocsfSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(OCSF_SCHEMA_PATH, 'utf8')) as Record<string, unknown>;
}

/** Schema errors of one event ([] when it validates). */
export function ocsfProblems(event: unknown): string[] {
  validator ??= new Ajv2020({ allErrors: true }).compile(ocsfSchema());
  if (validator(event)) return [];
  return (validator.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The events of a JSON Lines text, each checked: a line that is not JSON or not valid throws. */
export function ocsfEvents(text: string): Array<Record<string, unknown>> {
  if (text !== '' && !text.endsWith('\n')) throw new Error('the last line is not ended');
  const lines = text === '' ? [] : text.slice(0, -1).split('\n');
  return lines.map((line, index) => {
    const event = JSON.parse(line) as Record<string, unknown>;
    const problems = ocsfProblems(event);
    if (problems.length > 0) throw new Error(`line ${index + 1}: ${problems.join('; ')}`);
    return event;
  });
}
