// JSON.stringify(value, null, 2), in pieces: the same text, without one string of the whole
// document. A record or a CLI answer of 250,000 findings is a few hundred MB as one string (past
// V8's longest string it is `Invalid string length`); written a piece at a time it costs what one
// finding costs.

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
    const members: unknown[] = Array.isArray(item) ? item : Object.values(item);
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

/** The pieces gathered into batches of about `batchChars`: fewer, larger writes. */
export function* batched(pieces: Iterable<string>, batchChars = 1 << 20): Generator<string> {
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
