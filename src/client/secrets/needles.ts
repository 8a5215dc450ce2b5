// What each secret is looked for by, as a reader would see it (reader.ts's view, folded to lower
// case), forwards and reversed: an API key by its secret part (after `ak_live_`) when that is long
// enough to be told from ordinary text, a webhook address by each of its parts that carries a
// signature, any other secret whole. Many secrets at once (every tenant's key in a many-tenants
// run) are found in one pass by a small hash of their first characters.
import { API_KEY_PREFIX } from '../config.js';
import { originalLayer } from './layer.js';
import { viewOf } from './seen.js';

export { API_KEY_PREFIX };
/** A key's secret part is looked for alone from this length on: shorter would match ordinary text. */
export const MIN_SECRET_PART = 8;
/** Secrets shorter than this are not looked for at all (they would match ordinary text). */
export const MIN_SECRET = 4;
/** Parts of an address (a path segment, a query value) are looked for alone from this length on. */
const MIN_ADDRESS_PART = 8;

export interface Needle {
  /** As a reader sees it, folded to lower case. */
  text: string;
  /** What comes before it in the whole secret, folded (`ak_live_` before a key's part): redacted
   *  along when it is there. */
  before: string;
}

/** A key's secret part when long enough to be looked for alone; undefined otherwise. */
export function secretPart(key: string): string | undefined {
  if (!key.startsWith(API_KEY_PREFIX)) return undefined;
  const part = key.slice(API_KEY_PREFIX.length);
  return part.length >= MIN_SECRET_PART ? part : undefined;
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The parts of a webhook (or any http) address that carry its signature: the whole, its path
 *  and query, every query value and every path segment that is not a plain word. */
function addressParts(secret: string): string[] {
  let url: URL;
  try {
    url = new URL(secret);
  } catch {
    return [];
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return [];
  const parts = [url.href, `${url.pathname}${url.search}`, url.search.slice(1)];
  if (url.pathname.length > 1) parts.push(url.pathname);
  for (const value of url.searchParams.values()) parts.push(value);
  // A segment that is not a plain word (`services`, `Workflows`) may be a token.
  for (const segment of url.pathname.split('/')) {
    if (!/^[A-Za-z][a-z]*$/.test(segment)) parts.push(segment, decoded(segment));
  }
  parts.push(url.username, decoded(url.password));
  const long = parts.filter((part) => part.length >= MIN_ADDRESS_PART);
  return [...new Set([...long, ...long.map(decoded)])];
}

/** A form as a reader sees it, folded. */
function folded(form: string): string {
  return viewOf(originalLayer(form, false)).text.toLowerCase();
}

/** The needles of one secret (none for one too short to look for). */
export function needlesOf(secret: string): Needle[] {
  const part = secretPart(secret);
  if (part !== undefined) return [{ text: folded(part), before: folded(API_KEY_PREFIX) }];
  if (folded(secret).length < MIN_SECRET) return [];
  const forms = [secret, ...addressParts(secret)];
  return forms.map((form) => ({ text: folded(form), before: '' }));
}

export interface Hit {
  start: number;
  end: number;
  needle: Needle;
  /** Found backwards (the secret written in reverse). */
  reversed: boolean;
}

interface Form {
  text: string;
  needle: Needle;
  reversed: boolean;
  /** The form in any case (ASCII: the view folded every other letter already); made when first
   *  searched for alone. */
  pattern?: RegExp;
}

/** A character code in lower case (ASCII letters; the view folded the others). */
function lower(code: number): number {
  return code >= 65 && code <= 90 ? code + 32 : code;
}

function patternOf(form: Form): RegExp {
  form.pattern ??= new RegExp(form.text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&'), 'gi');
  return form.pattern;
}

/** Needles compiled for searching folded text: each forwards and reversed. */
function hitOf(form: Form, at: number): Hit {
  return { start: at, end: at + form.text.length, needle: form.needle, reversed: form.reversed };
}

export class NeedleSet {
  readonly needles: Needle[];
  /** The shortest needle, in UTF-8 bytes: a decoded run shorter cannot hold one. */
  readonly leastBytes: number;
  private readonly forms: Form[] = [];
  private readonly byHead = new Map<string, Form[]>();
  private readonly headFilter = new Uint8Array(1 << 16);
  private readonly headLength: number;

  constructor(secrets: Iterable<string>) {
    const seen = new Map<string, Needle>();
    for (const secret of secrets) {
      for (const needle of needlesOf(secret)) {
        if (needle.text.length >= MIN_SECRET && !seen.has(needle.text))
          seen.set(needle.text, needle);
      }
    }
    this.needles = [...seen.values()];
    for (const needle of this.needles) {
      const reversed = [...needle.text].reverse().join('');
      this.forms.push({ text: needle.text, needle, reversed: false });
      if (reversed !== needle.text) this.forms.push({ text: reversed, needle, reversed: true });
    }
    let least = Number.MAX_SAFE_INTEGER;
    for (const form of this.forms) least = Math.min(least, form.text.length);
    this.headLength = least === Number.MAX_SAFE_INTEGER ? 0 : least;
    this.leastBytes = this.headLength === 0 ? 0 : Math.max(MIN_SECRET, this.headLength);
    if (this.forms.length > 16) this.index();
  }

  get empty(): boolean {
    return this.forms.length === 0;
  }

  /** Every place a needle is in `text` (a view: any case), overlapping ones included; at most the
   *  first when `first`. */
  find(text: string, first: boolean): Hit[] {
    return this.forms.length > 16 ? this.findIndexed(text, first) : this.findEach(text, first);
  }

  private findEach(text: string, first: boolean): Hit[] {
    const hits: Hit[] = [];
    for (const form of this.forms) {
      const pattern = patternOf(form);
      pattern.lastIndex = 0;
      for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
        hits.push(hitOf(form, match.index));
        if (first) return hits;
        pattern.lastIndex = match.index + 1;
      }
    }
    return hits;
  }

  private headHash(text: string, at: number): number {
    const [a, b, c] = [text.charCodeAt(at), text.charCodeAt(at + 1), text.charCodeAt(at + 2)];
    return (lower(a) * 31 + lower(b)) * 31 + lower(c);
  }

  private index(): void {
    for (const form of this.forms) {
      const head = form.text.slice(0, this.headLength);
      const list = this.byHead.get(head) ?? [];
      list.push(form);
      this.byHead.set(head, list);
      this.headFilter[this.headHash(head, 0) & 0xffff] = 1;
    }
  }

  private findIndexed(text: string, first: boolean): Hit[] {
    const hits: Hit[] = [];
    const last = text.length - this.headLength;
    for (let at = 0; at <= last; at++) {
      if (this.headFilter[this.headHash(text, at) & 0xffff] === 0) continue;
      const forms = this.byHead.get(text.slice(at, at + this.headLength).toLowerCase());
      for (const form of forms ?? []) {
        if (text.slice(at, at + form.text.length).toLowerCase() !== form.text) continue;
        hits.push(hitOf(form, at));
        if (first) return hits;
      }
    }
    return hits;
  }
}
