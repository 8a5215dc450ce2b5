// Table output: aligned columns for lists, aligned "key  value" lines for one record. Values are
// flattened to one line and cut at a width, so a table never wraps on a stray field, and stripped
// of control characters and escape sequences: service text never drives the terminal.
import { once } from 'node:events';
import { displayLine } from '../client/index.js';
import { batched, prettyJsonPieces } from '../pipeline/common/json-text.js';
import type { CommandOutput, OutputFormat } from './command.js';

export interface Column<T> {
  header: string;
  value(row: T): unknown;
  /** Longest cell before it is cut with "…" (default 60). */
  max?: number;
}

const DEFAULT_MAX = 60;

export function table<T>(rows: T[], columns: Column<T>[], empty = '(none)'): string {
  if (rows.length === 0) return `${empty}\n`;
  const cells = rows.map((row) =>
    columns.map((c) => cut(cell(c.value(row)), c.max ?? DEFAULT_MAX)),
  );
  const headers = columns.map((c) => displayLine(c.header).toUpperCase());
  const widths = headers.map((h, i) =>
    cells.reduce((widest, r) => Math.max(widest, width(r[i] ?? '')), h.length),
  );
  const line = (values: string[]) =>
    values
      .map((v, i) => (i === values.length - 1 ? v : pad(v, widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)].join('\n') + '\n';
}

/** One record as aligned "key  value" lines, in the given order, then any other scalar fields. */
export function record(entries: Array<[string, unknown]>): string {
  const shown = entries
    .filter(([, value]) => value !== undefined)
    .map(([key, value]): [string, unknown] => [displayLine(key), value]);
  if (shown.length === 0) return '(empty)\n';
  const keyWidth = shown.reduce((widest, [key]) => Math.max(widest, key.length), 0);
  return (
    shown.map(([key, value]) => `${pad(key, keyWidth)}  ${cut(cell(value), 200)}`).join('\n') + '\n'
  );
}

/** A record of unknown shape: its fields in the server's order, nested objects flattened into
 *  dotted keys (`plan.name`) up to two levels, deeper ones summarised. */
export function anyRecord(value: unknown): string {
  if (value === null || typeof value !== 'object') return `${cell(value)}\n`;
  return record(flatten(value as Record<string, unknown>, '', 2));
}

function flatten(
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
): Array<[string, unknown]> {
  return Object.entries(object).flatMap(([key, value]): Array<[string, unknown]> => {
    const name = `${prefix}${key}`;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[name, value]];
    const inner = value as Record<string, unknown>;
    if (depth <= 1) return [[name, summary(inner)]];
    return flatten(inner, `${name}.`, depth - 1);
  });
}

/** "{3 fields: a, b, c}": what a nested object holds, without its values. */
function summary(object: Record<string, unknown>): string {
  const keys = Object.keys(object);
  return `{${keys.length} field${keys.length === 1 ? '' : 's'}${keys.length ? `: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : ''}}`;
}

/** A list of records of unknown shape: columns from the scalar fields of the first rows. */
export function anyTable(rows: unknown[], maxColumns = 7): string {
  const objects = rows.map((row) =>
    row !== null && typeof row === 'object' ? row : { value: row },
  );
  const keys: string[] = [];
  for (const row of objects.slice(0, 50)) {
    for (const [key, value] of Object.entries(row as Record<string, unknown>)) {
      if (!keys.includes(key) && (value === null || typeof value !== 'object')) keys.push(key);
    }
  }
  const chosen = keys.slice(0, maxColumns);
  if (chosen.length === 0)
    for (const key of Object.keys((objects[0] ?? {}) as object).slice(0, maxColumns))
      chosen.push(key);
  return table(
    objects as Array<Record<string, unknown>>,
    chosen.map((key) => ({
      header: words(key),
      value: (row: Record<string, unknown>) => row[key],
    })),
  );
}

/** "msTenantId" → "ms Tenant Id" (upper-cased as a header: "MS TENANT ID"). */
function words(key: string): string {
  return key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
}

/** What JSON.stringify leaves raw but a terminal acts on: DEL, the C1 controls (U+009B is a CSI),
 *  the bidirectional controls, the line and paragraph separators. Only strings can hold them. */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

/** JSON text with every character a terminal would act on escaped (each is one UTF-16 unit, so a
 *  piece of the text can be escaped on its own). */
function escapedForTerminal(text: string): string {
  return text.replace(
    RAW_IN_JSON,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Prints what a command handed back, in the format asked for; only that format is built. JSON
 *  (the data exact, every character a terminal would act on escaped) goes out a piece at a time
 *  (a document of 250,000 findings is never one string), each batch after the stream has taken
 *  the last. */
export async function printOutput(
  stream: NodeJS.WritableStream,
  format: OutputFormat,
  output: CommandOutput,
): Promise<void> {
  if (format !== 'json') {
    stream.write(typeof output.text === 'function' ? output.text() : output.text);
    return;
  }
  const value: unknown =
    typeof output.json === 'function' ? (output.json as () => unknown)() : output.json;
  for (const batch of batched(prettyJsonPieces(value))) {
    if (!stream.write(escapedForTerminal(batch))) await once(stream, 'drain');
  }
  stream.write('\n');
}

/** One line for any value: '-' for nothing, compact JSON for objects; never a control character. */
export function cell(value: unknown): string {
  if (value === undefined || value === null || value === '') return '-';
  if (typeof value === 'string') return displayLine(value) || '-';
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value) && value.every((v) => v === null || typeof v !== 'object')) {
    return value.map((v) => cell(v)).join(', ') || '-';
  }
  if (Array.isArray(value)) return `[${value.length} item${value.length === 1 ? '' : 's'}]`;
  return summary(value as Record<string, unknown>);
}

function cut(value: string, max: number): string {
  const chars = [...value];
  return chars.length <= max ? value : `${chars.slice(0, max - 1).join('')}…`;
}

function width(value: string): number {
  return [...value].length;
}

function pad(value: string, to: number): string {
  return value + ' '.repeat(Math.max(0, to - width(value)));
}
