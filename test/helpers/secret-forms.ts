// fast-check generators of secrets and of the forms a careless or hostile service echoes them in,
// for the redaction properties: keys that reach the edges of the key alphabet and length, webhook
// signatures, and chains of up to three transformations (invisible characters between any
// characters, line breaks, fullwidth, case, URL encoding once or twice, JSON, HTML and XML escapes,
// Markdown escapes, base64 and base64url inside a longer text at any alignment, hex, reversed).
// A transformation is data (printed as such when a property fails) applied by applyChain.
import fc from 'fast-check';

/** Every character an API key's secret part is drawn from: letters, digits and the URL-safe
 *  punctuation a key may carry. */
export const KEY_ALPHABET = [
  ...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789',
  ...'._~+/=-',
];

/** `ak_live_` and a secret part of 8 (the shortest looked for alone) to 128 characters. */
export const apiKeyArb = fc
  .string({ unit: fc.constantFrom(...KEY_ALPHABET), minLength: 8, maxLength: 128 })
  .map((part) => `ak_live_${part}`);

/** A webhook's signature as chat services make them: base64 (either alphabet) or hex. */
export const signatureArb = fc.oneof(
  fc.base64String({ minLength: 16, maxLength: 64 }),
  fc.stringMatching(/^[0-9a-f]{32,64}$/),
  fc.stringMatching(/^[A-Za-z0-9_-]{20,64}$/),
);

/** A Teams Workflows-like address carrying `signature` (percent-encoded in the query). */
export function webhookOf(
  signature: string,
  workflow = '0123456789abcdef0123456789abcdef',
): string {
  return `https://prod-01.westeurope.logic.azure.com/workflows/${workflow}/triggers/manual/paths/invoke?api-version=2016-06-01&sig=${encodeURIComponent(signature)}`;
}

let unseenCache: number[] | undefined;

/** Every code point that is default-ignorable or a format character (about 4,300). */
export function unseenCodePoints(): number[] {
  if (unseenCache) return unseenCache;
  const unseen = /^[\p{Default_Ignorable_Code_Point}\p{Cf}]$/u;
  const found: number[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp++) {
    if (cp >= 0xd800 && cp <= 0xdfff) continue;
    if (unseen.test(String.fromCodePoint(cp))) found.push(cp);
  }
  unseenCache = found;
  return found;
}

const unseenArb = fc
  .nat()
  .map((n) => unseenCodePoints()[n % unseenCodePoints().length] as number)
  .chain((cp) => fc.constantFrom(cp, 0xad, 0x34f, 0xe0020, 0x200b, 0xfeff));

/** Where something is inserted: offsets from the middle of the text (fast-check leans to small
 *  ones, so most split the secret; the ends are reached too). */
const placesArb = fc.array(fc.integer({ min: -64, max: 64 }), { minLength: 1, maxLength: 6 });
const maskArb = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });
const textArb = fc.string({ maxLength: 12 });

export type Transform =
  | { kind: 'invisible'; codePoints: number[]; places: number[] }
  | { kind: 'lineBreaks'; places: number[]; crlf: boolean }
  | { kind: 'fullwidth'; mask: boolean[] }
  | { kind: 'case'; mask: boolean[] }
  | { kind: 'percent'; times: 1 | 2; mask: boolean[] }
  | { kind: 'json'; mask: boolean[] }
  | { kind: 'html'; style: 'decimal' | 'hex' | 'named'; mask: boolean[] }
  | { kind: 'markdown' }
  | { kind: 'stray'; places: number[] }
  | { kind: 'base64'; url: boolean; before: string; after: string; wrap: number }
  | { kind: 'hex'; upper: boolean; before: string }
  | { kind: 'reverse' };

export const transformArb: fc.Arbitrary<Transform> = fc.oneof(
  fc.record({
    kind: fc.constant('invisible' as const),
    codePoints: fc.array(unseenArb, { minLength: 1, maxLength: 6 }),
    places: placesArb,
  }),
  fc.record({ kind: fc.constant('lineBreaks' as const), places: placesArb, crlf: fc.boolean() }),
  fc.record({ kind: fc.constant('fullwidth' as const), mask: maskArb }),
  fc.record({ kind: fc.constant('case' as const), mask: maskArb }),
  fc.record({
    kind: fc.constant('percent' as const),
    times: fc.constantFrom(1 as const, 2 as const),
    mask: maskArb,
  }),
  fc.record({ kind: fc.constant('json' as const), mask: maskArb }),
  fc.record({
    kind: fc.constant('html' as const),
    style: fc.constantFrom('decimal' as const, 'hex' as const, 'named' as const),
    mask: maskArb,
  }),
  fc.record({ kind: fc.constant('markdown' as const) }),
  fc.record({ kind: fc.constant('stray' as const), places: placesArb }),
  fc.record({
    kind: fc.constant('base64' as const),
    url: fc.boolean(),
    before: textArb,
    after: textArb,
    wrap: fc.constantFrom(0, 0, 4, 19, 76),
  }),
  fc.record({ kind: fc.constant('hex' as const), upper: fc.boolean(), before: textArb }),
  fc.record({ kind: fc.constant('reverse' as const) }),
);

/** One to three transformations, applied in order. */
export const chainArb = fc.array(transformArb, { minLength: 1, maxLength: 3 });

/** Surrounding text: anything, base64- or hex-looking (so an encoded secret joins a longer run),
 *  or words with our own emoji sign. */
export const surroundArb = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.base64String({ maxLength: 24 }),
  fc.stringMatching(/^[0-9a-f]{0,24}$/),
  fc.constantFrom('⚠️ 2 new failing findings: ', 'key=', 'Authorization: Bearer ', ''),
);

const masked = (mask: boolean[], index: number) => mask[index % mask.length] === true;

function insertAt(text: string, places: number[], insert: (k: number) => string): string {
  const chars = [...text];
  const middle = Math.floor(chars.length / 2);
  const at = places
    .map((p) => Math.min(chars.length, Math.max(0, middle + p)))
    .sort((a, b) => b - a);
  at.forEach((index, k) => chars.splice(index, 0, insert(k)));
  return chars.join('');
}

/** A backslash before the letter or digit at or after each place that no backslash precedes
 *  already: one that escapes nothing (before anything else it would be an escape of its own). */
function strayBackslashes(text: string, places: number[]): string {
  const chars = [...text];
  const middle = Math.floor(chars.length / 2);
  const free = (i: number) => /[0-9A-Za-z]/.test(chars[i] ?? '') && chars[i - 1] !== '\\';
  const at = new Set<number>();
  for (const place of places) {
    let i = Math.min(chars.length, Math.max(0, middle + place));
    while (i < chars.length && !free(i)) i++;
    if (i < chars.length) at.add(i);
  }
  return chars.map((c, i) => (at.has(i) ? `\\${c}` : c)).join('');
}

function perChar(text: string, mask: boolean[], change: (char: string) => string): string {
  return [...text].map((c, i) => (masked(mask, i) ? change(c) : c)).join('');
}

/** An encoder's output: the characters it must escape (`always`) escaped, others where `mask`
 *  says (a service that escapes more than it must: all of them, or every other one). */
function encodeWhere(
  text: string,
  mask: boolean[],
  always: RegExp,
  encode: (char: string) => string,
): string {
  return [...text].map((c, i) => (always.test(c) || masked(mask, i) ? encode(c) : c)).join('');
}

const percentOf = (char: string) =>
  [...Buffer.from(char)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
const jsonOf = (char: string) =>
  [...char].map((u) => `\\u${u.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
/** HTML5 names that stand for exactly these characters. */
const NAMED: Record<string, string> = {
  _: '&lowbar;',
  '.': '&period;',
  '/': '&sol;',
  '=': '&equals;',
  '+': '&plus;',
};

function htmlOf(char: string, style: 'decimal' | 'hex' | 'named'): string {
  const cp = char.codePointAt(0) ?? 0;
  if (style === 'named' && NAMED[char]) return NAMED[char];
  return style === 'hex' ? `&#x${cp.toString(16)};` : `&#${cp};`;
}

function wrapped(text: string, width: number): string {
  if (width === 0) return text;
  return (text.match(new RegExp(`.{1,${width}}`, 'g')) ?? []).join('\n');
}

export function applyTransform(t: Transform, text: string): string {
  switch (t.kind) {
    case 'invisible':
      return insertAt(text, t.places, (k) =>
        String.fromCodePoint(t.codePoints[k % t.codePoints.length] ?? 0xad),
      );
    case 'lineBreaks':
      return insertAt(text, t.places, () => (t.crlf ? '\r\n' : '\n'));
    case 'fullwidth':
      // Letters, digits and a key's punctuation; never an escape's own syntax (no encoder writes
      // a fullwidth backslash, percent or ampersand that a later one escapes again).
      return perChar(text, t.mask, (c) =>
        /[A-Za-z0-9._~+/=-]/.test(c) ? String.fromCodePoint(c.charCodeAt(0) + 0xfee0) : c,
      );
    case 'case':
      return perChar(text, t.mask, (c) =>
        c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase(),
      );
    case 'percent': {
      const once = encodeWhere(text, t.mask, /[%]/, percentOf);
      return t.times === 1 ? once : encodeWhere(once, t.mask, /[%]/, percentOf);
    }
    case 'json':
      return encodeWhere(text, t.mask, /["\\]/, (c) =>
        c === '"' || c === '\\' ? `\\${c}` : jsonOf(c),
      );
    case 'html':
      return encodeWhere(text, t.mask, /[&<]/, (c) => htmlOf(c, t.style));
    case 'markdown':
      return text.replace(/[!-/:-@[-`{-~]/g, '\\$&');
    case 'stray':
      return strayBackslashes(text, t.places);
    case 'base64': {
      const bytes = Buffer.from(`${t.before}${text}${t.after}`);
      return wrapped(bytes.toString(t.url ? 'base64url' : 'base64'), t.wrap);
    }
    case 'hex': {
      const hex = Buffer.from(`${t.before}${text}`).toString('hex');
      return t.upper ? hex.toUpperCase() : hex;
    }
    case 'reverse':
      return [...text].reverse().join('');
  }
}

export function applyChain(chain: readonly Transform[], text: string): string {
  return chain.reduce((out, t) => applyTransform(t, out), text);
}
