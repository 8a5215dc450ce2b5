// Service text as a report page holds it: escape sequences, control characters and the marks that
// reorder or hide text (bidi overrides, zero-width characters) stripped, key-shaped secrets and the
// run's own secrets redacted, cut to a bound. Each distinct string is stored once. The page puts
// them on screen as text only (page/dom.js); a help link must be https.

import { redact, stripControls } from '../../client/index.js';
import { cutChars } from '../../pipeline/common/markdown.js';

/** Bounds, in characters, of each kind of text. */
export const MAX_CHARS = {
  id: 200,
  title: 500,
  category: 120,
  /** Remediation and description: a paragraph or a few. */
  body: 4000,
  url: 2000,
  date: 40,
  line: 1000,
} as const;

/** Cleans text that may span lines (line breaks and tabs kept). */
export function cleanBlock(text: string, max: number, secrets: readonly string[] = []): string {
  const out = stripControls(text.replace(/\r\n?/g, '\n'));
  return cutChars(redact(out, secrets).trim(), max);
}

/** Cleans text shown on one line (every run of white space one space). */
export function cleanLine(text: string, max: number, secrets: readonly string[] = []): string {
  return cleanBlock(text.replace(/\s+/g, ' '), max, secrets);
}

/** The address as an https URL, or undefined: no other scheme becomes a link. */
export function httpsAddress(address: string, secrets: readonly string[] = []): string | undefined {
  let url: URL;
  try {
    url = new URL(cleanLine(address, MAX_CHARS.url * 2, secrets));
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return undefined;
  return url.href.length <= MAX_CHARS.url ? url.href : undefined;
}

/** The page's table of strings: each cleaned once, stored once, referred to by index. */
export class PageStrings {
  readonly list: string[] = [];
  private readonly index = new Map<string, number>();
  /** Text as given → its index, per kind and bound: a text repeated is cleaned once. */
  private readonly given = new Map<string, number>();

  constructor(private readonly secrets: readonly string[] = []) {}

  /** One-line text; -1 for none or empty. */
  line(text: string | null | undefined, max: number): number {
    return text == null ? -1 : this.once(`l${max}`, text, () => cleanLine(text, max, this.secrets));
  }

  /** Text that may span lines; -1 for none or empty. */
  block(text: string | null | undefined, max: number): number {
    return text == null
      ? -1
      : this.once(`b${max}`, text, () => cleanBlock(text, max, this.secrets));
  }

  private once(kind: string, text: string, clean: () => string): number {
    const key = `${kind}\u0000${text}`;
    const known = this.given.get(key);
    if (known !== undefined) return known;
    const index = this.add(clean());
    this.given.set(key, index);
    return index;
  }

  /** An https address; -1 for none or any other. */
  url(address: string | null | undefined): number {
    if (address == null) return -1;
    return this.add(httpsAddress(address, this.secrets) ?? '');
  }

  /** Text the page shows directly (a headline, a fact): cleaned, not stored. */
  text(text: string, max: number = MAX_CHARS.line): string {
    return cleanLine(text, max, this.secrets);
  }

  private add(clean: string): number {
    if (clean === '') return -1;
    const known = this.index.get(clean);
    if (known !== undefined) return known;
    this.list.push(clean);
    this.index.set(clean, this.list.length - 1);
    return this.list.length - 1;
  }
}
