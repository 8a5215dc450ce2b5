// A list answer is cut into its elements while it streams in (src/client/list-stream.ts), so that a
// page of 64 MiB is never one string and one tree at once. Whatever the answer and however the
// network cuts it into chunks, the elements and the rest put back together are exactly what
// JSON.parse reads from the whole; what JSON.parse refuses is refused.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LIST_FIELDS, ListSplitter } from '../../../src/client/list-stream.js';
import { propertyParameters } from '../../helpers/property.js';

const MARKER = 'list-marker-7f3a';

interface Split {
  skeleton: string;
  lists: Map<number, string[]>;
}

function split(bytes: Buffer, cuts: number[]): Split {
  const lists = new Map<number, string[]>();
  const splitter = new ListSplitter(
    { element: (list, text) => lists.set(list, [...(lists.get(list) ?? []), text]) },
    MARKER,
  );
  let from = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < bytes.length)].sort((a, b) => a - b)) {
    splitter.write(bytes.subarray(from, cut));
    from = cut;
  }
  splitter.write(bytes.subarray(from));
  return { skeleton: splitter.end().toString('utf8'), lists };
}

/** The answer put back together: each marker replaced by its list's elements, parsed. */
function rejoin({ skeleton, lists }: Split): unknown {
  const marker = new RegExp(`^${MARKER}:(\\d+)$`);
  const restore = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const [only] = value as unknown[];
      const found = value.length === 1 && typeof only === 'string' ? marker.exec(only) : null;
      if (found) return (lists.get(Number(found[1])) ?? []).map((text) => JSON.parse(text));
      return value.map(restore);
    }
    if (value !== null && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, restore(v)]));
    }
    return value;
  };
  return restore(JSON.parse(skeleton));
}

function attempt(read: () => unknown): { ok: boolean; value?: unknown } {
  try {
    return { ok: true, value: read() };
  } catch {
    return { ok: false };
  }
}

const finding = fc.dictionary(
  fc.oneof(fc.constantFrom('id', 'result', 'title', 'data', 'items'), fc.string()),
  fc.jsonValue({ maxDepth: 3 }),
  { maxKeys: 6 },
);
const list = fc.array(fc.oneof({ weight: 4, arbitrary: finding }, fc.jsonValue()), {
  maxLength: 12,
});
const listName = fc.constantFrom(...LIST_FIELDS, 'other', 'da\\u0074a');

/** Answers of every shape a service may send a list in, and some it should not. */
const answers = fc.oneof(
  list,
  fc.record({ success: fc.boolean(), data: list, meta: fc.jsonValue({ maxDepth: 2 }) }),
  fc.record({ success: fc.constant(true), data: fc.dictionary(listName, list, { maxKeys: 3 }) }),
  fc.dictionary(listName, fc.oneof(list, fc.jsonValue({ maxDepth: 2 })), { maxKeys: 4 }),
  fc.jsonValue({ maxDepth: 4 }),
);

/** The answer as a service writes it: compact, pretty, or with odd spacing, and with keys that
 *  are escaped in the text (`"da\u0074a"`). */
function text(value: unknown, style: number): string {
  const space = [undefined, 2, ' \r\n\t'][style];
  const json = JSON.stringify(value, null, space) ?? 'null';
  return json.replace(/"da\\\\u0074a"/g, '"da\\u0074a"');
}

describe('a list answer cut into its elements', () => {
  it('property: the elements and the rest are what JSON.parse reads, however it is chunked', () => {
    fc.assert(
      fc.property(
        answers,
        fc.integer({ min: 0, max: 2 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (value, style, cuts) => {
          const bytes = Buffer.from(text(value, style), 'utf8');
          const whole: unknown = JSON.parse(bytes.toString('utf8'));
          assert.deepEqual(rejoin(split(bytes, cuts)), whole);
        },
      ),
      propertyParameters(300),
    );
  });

  it('property: accepted exactly when JSON.parse accepts the whole, however it is chunked', () => {
    // Text a service might get wrong, put anywhere in an answer: JSON's own whitespace, the
    // whitespace JavaScript knows and JSON does not (String#trim removes it), separators, escapes,
    // numbers and literals cut short, a byte order mark.
    const junk = fc.oneof(
      { weight: 3, arbitrary: fc.constantFrom(',', ',,', ']', '}', '[', '{', ':', '"', '') },
      fc.constantFrom(' ', '\t', '\n', '\u000b', '\u000c', '\u00a0', '\u2028', '\ufeff', '\u0001'),
      fc.constantFrom('\\', '\\u12', '\\x', '0', '01', '-', '.', 'e', '1e', 'tru', 'NaN', '1 2'),
    );
    // Most edits go next to a bracket, a comma or a colon, where a list's edges are.
    const edit = fc.tuple(fc.boolean(), fc.nat(), junk);
    const edited = fc
      .tuple(answers, fc.array(edit, { minLength: 1, maxLength: 3 }))
      .map(([value, edits]) => {
        let json = JSON.stringify(value) ?? 'null';
        for (const [nearSign, at, text] of edits) {
          const signs = [...json.matchAll(/[[\]{},]/g)].flatMap((m) => [m.index, m.index + 1]);
          const cut =
            nearSign && signs.length > 0 ? signs[at % signs.length] : at % (json.length + 1);
          json = json.slice(0, cut) + text + json.slice(cut);
        }
        return json;
      });
    fc.assert(
      fc.property(edited, fc.array(fc.nat(), { maxLength: 10 }), (candidate, cuts) => {
        const read = attempt(() => rejoin(split(Buffer.from(candidate, 'utf8'), cuts)));
        const whole = attempt(() => JSON.parse(candidate) as unknown);
        assert.equal(read.ok, whole.ok, candidate);
        if (whole.ok) assert.deepEqual(read.value, whole.value);
      }),
      propertyParameters(300),
    );
  });

  it('the edges of a list: refused where JSON.parse refuses, read where it reads', () => {
    const answers = [
      ...['[1,]', '[,1]', '[1,,2]', '[,]', '[1 2]', '{"data":[1}]}', '{"data":[{]}', '[{}\f]'],
      ...['[1\u00a0]', '[\u2028 1]', '\ufeff[1]', '{"data":[1]}x', '[] []', '{"data":[1]', '[1]  '],
      ...['[ 1 , 2 ]', '{"data":[\t{"a":[]} \n]}', '{"data":{"items":[[],{}]},"meta":{}}'],
    ];
    for (const answer of answers) {
      const read = attempt(() => rejoin(split(Buffer.from(answer, 'utf8'), [])));
      const whole = attempt(() => JSON.parse(answer) as unknown);
      assert.deepEqual(read, whole, answer);
    }
  });

  it('a list split over chunks mid-string, mid-escape and mid-character', () => {
    const value = {
      success: true,
      data: [{ id: 'a"b\\', title: 'Ω ☃ 𝄞 "quoted" \\ back' }, { id: ']},[{' }, 7, 'x'],
      meta: { nextCursor: 2 },
    };
    const bytes = Buffer.from(JSON.stringify(value), 'utf8');
    for (let step = 1; step <= 5; step++) {
      const cuts = Array.from({ length: bytes.length }, (_, i) => i * step);
      assert.deepEqual(rejoin(split(bytes, cuts)), value);
    }
  });
});
