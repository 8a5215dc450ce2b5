// JSON.stringify(value, null, 2), in pieces: the same text, without one string of the whole
// document. A record or a CLI answer of 250,000 findings is a few hundred MB as one string (past
// V8's longest string it is `Invalid string length`); written a piece at a time it costs what one
// finding costs.

/** A list whose members are made as they are written: a record of 250,000 findings never holds
 *  the JSON form of all of them at once. JSON.stringify writes it as the array it stands for. */
export class JsonList<T> implements Iterable<T> {
  constructor(
    readonly length: number,
    private readonly members: () => Iterable<T>,
  ) {}

  [Symbol.iterator](): Iterator<T> {
    return this.members()[Symbol.iterator]();
  }

  toJSON(): T[] {
    return [...this];
  }
}

/** `items` mapped by `map` as they are written. */
export function jsonList<S, T>(items: readonly S[], map: (item: S) => T): JsonList<T> {
  return new JsonList(items.length, function* () {
    for (const item of items) yield map(item);
  });
}

/** A value with at most this many members in all (at any depth) is written whole; a larger
 *  container a member at a time. */
const WHOLE_UP_TO = 256;

function isPlainContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return false;
  if (Array.isArray(value)) return true;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
function isOmitted(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

function whole(value: unknown, indent: string): string {
  const text = JSON.stringify(value, null, 2);
  return indent === '' ? text : text.replace(/\n/g, `\n${indent}`);
}

/** Whether `value` has at most `budget` members in all; counting stops once it has more. */
function isSmall(value: unknown, budget = WHOLE_UP_TO): boolean {
  let left = budget;
  const count = (item: unknown): boolean => {
    if (item === null || typeof item !== 'object') return true;
    if (item instanceof JsonList && item.length > left) return false;
    const members: unknown[] =
      item instanceof JsonList
        ? [...(item as JsonList<unknown>)]
        : Array.isArray(item)
          ? item
          : Object.values(item);
    left -= members.length;
    if (left < 0) return false;
    for (const member of members) if (!count(member)) return false;
    return true;
  };
  return count(value);
}

/**
 * The text of `JSON.stringify(value, null, 2)` (for a value it can write: not undefined, a
 * function or a symbol at the top), as pieces: large arrays and objects a member at a time.
 */
export function* prettyJsonPieces(value: unknown, indent = ''): Generator<string> {
  if (value instanceof JsonList) {
    yield* listPieces(value as JsonList<unknown>, indent);
    return;
  }
  if (!isPlainContainer(value) || isSmall(value)) {
    yield whole(value, indent);
    return;
  }
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    yield '[';
    for (let i = 0; i < value.length; i++) {
      yield `${i === 0 ? '' : ','}\n${inner}`;
      const item: unknown = value[i];
      if (isOmitted(item)) yield 'null';
      else yield* prettyJsonPieces(item, inner);
    }
    yield `\n${indent}]`;
    return;
  }
  let first = true;
  yield '{';
  for (const [key, member] of Object.entries(value)) {
    if (isOmitted(member)) continue;
    yield `${first ? '' : ','}\n${inner}${JSON.stringify(key)}: `;
    first = false;
    yield* prettyJsonPieces(member, inner);
  }
  yield first ? '}' : `\n${indent}}`;
}

function* listPieces(list: JsonList<unknown>, indent: string): Generator<string> {
  const inner = `${indent}  `;
  let first = true;
  for (const item of list) {
    yield `${first ? '[' : ','}\n${inner}`;
    first = false;
    if (isOmitted(item)) yield 'null';
    else yield* prettyJsonPieces(item, inner);
  }
  yield first ? '[]' : `\n${indent}]`;
}

/** Characters a batch gathers: small enough to stay in V8's young generation (a string past
 *  ~128 KiB is made in the old one, where it lingers until a full collection). */
export const BATCH_CHARS = 32 * 1024;

/** The pieces gathered into batches of about `batchChars`: fewer, larger writes. */
export function* batched(pieces: Iterable<string>, batchChars = BATCH_CHARS): Generator<string> {
  let batch = '';
  for (const piece of pieces) {
    batch += piece;
    if (batch.length >= batchChars) {
      yield batch;
      batch = '';
    }
  }
  if (batch !== '') yield batch;
}
