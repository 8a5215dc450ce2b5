// Finds secrets the way a reader would find them: in every reading of a text (its view without
// invisibles, each round of escapes decoded: reader.ts), and in every base64 or hex run of every
// reading decoded (encoded.ts), read again the same way, a few levels deep. A match in any reading
// is the range of the ORIGINAL text it came from: that range is what gets redacted, so what is left
// around it reads as before and holds no secret. Linear in the text: a bounded number of readings,
// each one pass, and a decoding is read further only when it reads as text.
import { originalLayer, originalRange, type Layer } from './layer.js';
import { readingsOf } from './reader.js';
import { decodedReadings } from './encoded.js';
import { API_KEY_PREFIX, NeedleSet, type Hit } from './needles.js';

/** Levels of decoding read through: base64 inside hex inside base64 is found, no deeper. */
const MAX_DECODE_DEPTH = 3;
/** An API key's shape: its prefix and the characters of a secret part, in any case. */
const KEY_SHAPE = /ak_live_[a-z0-9._~+/=-]+/gi;
const HAS_KEY_PREFIX = /ak_live_/i;
/** In a decoded run a key shape counts from this many characters on (noise makes short ones). */
const DECODED_KEY_SHAPE_PART = 8;

export interface Span {
  start: number;
  end: number;
  /** A key-shaped token no secret of the run matched: its prefix may be shown. */
  keyShape: boolean;
}

export interface FindOptions {
  /** Also every `ak_live_…` token, whichever key it is. */
  keyShapes?: boolean;
  /** Read escapes of several kinds in every order too (default); false: every kind at once only,
   *  the quick look that finds most forms. */
  thorough?: boolean;
}

interface Search {
  /** The text as written. */
  original: string;
  needles: NeedleSet;
  keyShapes: boolean;
  /** Characters after `ak_live_` from which a key shape counts in the text as written (in a
   *  decoded run: at least DECODED_KEY_SHAPE_PART). */
  keyShapeLeast: number;
  /** Stop at the first secret found (a yes/no look). */
  first: boolean;
  thorough: boolean;
  spans: Span[];
}

/** A hit widened to the rest of its secret around it (`ak_live_` before a key's part). */
function widened(text: string, hit: Hit): [number, number] {
  const before = hit.needle.before;
  if (before === '') return [hit.start, hit.end];
  const start = hit.start - before.length;
  if (!hit.reversed && start >= 0 && text.slice(start, hit.start).toLowerCase() === before)
    return [start, hit.end];
  const after = [...before].reverse().join('');
  const end = hit.end + after.length;
  if (hit.reversed && text.slice(hit.end, end).toLowerCase() === after) return [hit.start, end];
  return [hit.start, hit.end];
}

/** Where a key shape ends in the text as written: at its first line break (the view joins lines,
 *  but a key no secret of the run matched is not known to go on past one: the next line is
 *  someone else's text). */
function keyShapeEnd(original: string, start: number, end: number): number {
  LINE_BREAK.lastIndex = start + API_KEY_PREFIX.length + 1;
  const found = LINE_BREAK.exec(original);
  return found && found.index < end ? found.index : end;
}
const LINE_BREAK = /[\n\r\u2028\u2029]/g;

function add(search: Search, reading: Layer, start: number, end: number, keyShape: boolean) {
  const [from, to] = originalRange(reading, start, end);
  const until = keyShape ? keyShapeEnd(search.original, from, to) : to;
  search.spans.push({ start: from, end: until, keyShape });
}

/** Looks in one reading; true when the search may stop. */
function lookIn(search: Search, reading: Layer, depth: number): boolean {
  const text = reading.text;
  for (const hit of search.needles.find(text, search.first)) {
    const [start, end] = widened(text, hit);
    add(search, reading, start, end, false);
    if (search.first) return true;
  }
  if (!search.keyShapes || !HAS_KEY_PREFIX.test(text)) return false;
  const least = depth === 0 ? search.keyShapeLeast : DECODED_KEY_SHAPE_PART;
  for (const match of text.matchAll(KEY_SHAPE)) {
    if (match[0].length - API_KEY_PREFIX.length < least) continue;
    add(search, reading, match.index, match.index + match[0].length, true);
    if (search.first) return true;
  }
  return false;
}

/** Looks in every reading of `layer` and of the runs it decodes to; true when it may stop. */
function searchLayer(search: Search, layer: Layer, depth: number): boolean {
  const readings = readingsOf(layer, search.thorough, (reading) => lookIn(search, reading, depth));
  if (readings.stopped) return true;
  if (depth >= MAX_DECODE_DEPTH) return false;
  const least = search.keyShapes
    ? Math.min(search.needles.leastBytes || Infinity, API_KEY_PREFIX.length + 8)
    : search.needles.leastBytes;
  // A run most readings share (escapes elsewhere) is decoded once.
  const decodedRuns = new Set<string>();
  for (const view of readings.views) {
    for (const decoded of decodedReadings(view, least, decodedRuns)) {
      if (searchLayer(search, decoded, depth + 1)) return true;
    }
  }
  return false;
}

const NO_SECRETS: readonly string[] = [];
const compiled = new WeakMap<readonly string[], { count: number; last: string; set: NeedleSet }>();

/** The needles of `secrets`, compiled once per list (a list that grows, as a run's secrets do
 *  when a rotation makes a key, is compiled again). */
export function needleSetOf(secrets: readonly string[]): NeedleSet {
  const known = compiled.get(secrets);
  const last = secrets[secrets.length - 1] ?? '';
  if (known && known.count === secrets.length && known.last === last) return known.set;
  const set = new NeedleSet(secrets);
  compiled.set(secrets, { count: secrets.length, last, set });
  return set;
}

/** A search of `text` for `secrets` (and, with keyShapes, key shapes); undefined when there is
 *  nothing to look for. */
function searchOf(
  text: string,
  secrets: readonly string[],
  options: FindOptions,
  first: boolean,
): Search | undefined {
  const needles = needleSetOf(secrets);
  const keyShapes = options.keyShapes === true;
  if (needles.empty && !keyShapes) return undefined;
  const thorough = options.thorough !== false;
  return { original: text, needles, keyShapes, keyShapeLeast: 1, first, thorough, spans: [] };
}

/** Where in `text` a reader finds any of `secrets` (and, with keyShapes, any key shape): ranges of
 *  the text as written, unsorted, possibly overlapping. */
export function findSecrets(
  text: string,
  secrets: readonly string[],
  options: FindOptions = {},
): Span[] {
  const search = searchOf(text, secrets, options, false);
  if (!search) return [];
  searchLayer(search, originalLayer(text, true), 0);
  return search.spans;
}

/** Whether a reader finds any of `secrets` in `text`, in any form: the view without invisibles,
 *  fullwidth, any case, escaped or URL-encoded, base64, base64url or hex at any alignment, reversed,
 *  split by line breaks. (With keyShapes: or any key shape.) */
export function revealsSecret(
  text: string,
  secrets: readonly string[],
  options: FindOptions = {},
): boolean {
  const search = searchOf(text, secrets, options, true);
  return search !== undefined && searchLayer(search, originalLayer(text, false), 0);
}

/** Whether `text` holds something that reads as an API key (`ak_live_` and at least 8 more key
 *  characters), in any of the forms revealsSecret sees through. */
export function looksLikeApiKey(text: string): boolean {
  const search = searchOf(text, NO_SECRETS, { keyShapes: true }, true);
  if (!search) return false;
  return searchLayer({ ...search, keyShapeLeast: 8 }, originalLayer(text, false), 0);
}
