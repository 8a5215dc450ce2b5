// The property tests' oracle: whether a person could read a secret in a text, found the slow and
// obvious way, independently of src/client/secrets. A reader strips what does not show (every
// default-ignorable, format and control character, line breaks), applies NFKC, and then tries every
// decoding on the whole text, in every order, a few levels deep: percent-decoding, JSON escapes,
// HTML character references (the full HTML5 table, from a library), Markdown backslashes, stray
// backslashes (before a letter or digit), reversing,
// and base64 (either alphabet) or hex of every run at every offset. The secret is read when any
// reading holds it, in any case. Meant for the short texts a property draws: it explores every
// reading, so it is slow on long ones (the scanner of big outputs is secret-scan.ts).
import { decodeNamedCharacterReference } from 'decode-named-character-reference';

const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{Zl}\p{Zp}]/gu;
/** How many decodings deep a reader goes (the properties compose at most three). */
export const READER_DEPTH = 4;
/** A guard against a text whose readings explode: the property must stay a test, not a hang. */
const MAX_READINGS = 50_000;

/** What a reader sees before decoding anything. */
export function seenText(text: string): string {
  return text.replace(UNSEEN, '').normalize('NFKC').replace(UNSEEN, '');
}

function bytesToText(bytes: Buffer): string {
  return new TextDecoder('utf-8').decode(bytes);
}

function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) =>
    bytesToText(Buffer.from(run.replace(/%/g, ''), 'hex')),
  );
}

const JSON_SIMPLE: Record<string, string> = { b: '', f: '', n: '', r: '', t: '' };

function jsonDecoded(text: string): string {
  return text
    .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .replace(/\\([bfnrt"\\/])/g, (_, c: string) => JSON_SIMPLE[c] ?? c);
}

function htmlDecoded(text: string): string {
  return text.replace(/&(#?[0-9a-z]+);/gi, (whole, name: string) => {
    const value = decodeNamedCharacterReference(name);
    return value === false ? whole : value;
  });
}

function markdownDecoded(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

/** A backslash before a letter or digit escapes nothing: a reader reads past it. */
function strayDecoded(text: string): string {
  return text.replace(/\\([0-9A-Za-z])/g, '$1');
}

function reversed(text: string): string {
  return [...text].reverse().join('');
}

/** Every decoding of every run of `alphabet` at least `least` long, from every offset below
 *  `offsets`. */
function runDecodings(
  text: string,
  alphabet: RegExp,
  offsets: number,
  decode: (run: string) => Buffer,
): string[] {
  const out: string[] = [];
  for (const [run] of text.matchAll(alphabet)) {
    for (let offset = 0; offset < offsets; offset++)
      out.push(bytesToText(decode(run.slice(offset))));
  }
  return out;
}

/** The texts one decoding step away from `text` (a reading itself is not among them). */
function nextReadings(text: string): string[] {
  const whole = [
    percentDecoded,
    jsonDecoded,
    htmlDecoded,
    markdownDecoded,
    strayDecoded,
    reversed,
  ].map((d) => d(text));
  // Node's base64 decoder takes both alphabets and stops at what is not base64.
  const base64 = runDecodings(text, /[A-Za-z0-9+/_-]{6,}={0,2}/g, 4, (run) =>
    Buffer.from(run, 'base64'),
  );
  const hex = runDecodings(text, /[0-9a-f]{8,}/gi, 2, (run) =>
    Buffer.from(run.slice(0, run.length - (run.length % 2)), 'hex'),
  );
  return [...whole, ...base64, ...hex];
}

/** Every reading of `text` a reader gets within `depth` decodings, each as the reader sees it. */
export function readingsOf(text: string, depth = READER_DEPTH): Set<string> {
  const all = new Set<string>();
  let frontier = [seenText(text)];
  for (let level = 0; level <= depth && frontier.length > 0; level++) {
    const next: string[] = [];
    for (const reading of frontier) {
      if (all.has(reading)) continue;
      all.add(reading);
      if (all.size > MAX_READINGS) throw new Error(`more than ${MAX_READINGS} readings`);
      if (level < depth) for (const child of nextReadings(reading)) next.push(seenText(child));
    }
    frontier = next;
  }
  return all;
}

/** Whether a reader can read `secret` (in any case) anywhere in `text`. */
export function readsSecret(text: string, secret: string): boolean {
  const wanted = seenText(secret).toLowerCase();
  for (const reading of readingsOf(text)) {
    if (reading.toLowerCase().includes(wanted)) return true;
  }
  return false;
}
