// Server text made safe to show. Secrets stay out of messages: the client's own key in any form a
// service may echo it in, any key-shaped token, and URL queries (a presigned address's signature is
// a credential too). And no control characters reach a terminal or a log: a service could otherwise
// clear the screen, retitle the window, disguise a link or forge log lines with escape sequences in
// a finding's title. Controls are stripped before a key is looked for, so a zero-width space
// inside an echoed key cannot hide it from redaction and be stripped away later.

import { API_KEY_PREFIX } from './config.js';

/* eslint-disable no-control-regex */
/** Terminal escape sequences: CSI (ESC [ or its C1 form, parameters, a final byte), the string
 *  commands OSC, DCS, SOS, PM and APC (up to BEL or ST; an unterminated one swallows the rest, as a
 *  terminal would) and two-character escapes (ESC and one more). */
const ESCAPE_SEQUENCES =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[\s\S]?/g;
/** The C0 controls but tab and line feed, DEL, the C1 controls, and the Unicode marks that reorder
 *  or hide text (bidirectional overrides and isolates, zero-width characters, BOM). */
const CONTROL_CHARACTERS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/* eslint-enable no-control-regex */

/** Text without escape sequences or control characters (tabs and line feeds are kept). */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}

const KEY_PATTERN = /ak_live_[A-Za-z0-9._~+/=-]*/g;
const BEARER_PATTERN = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;
/** A key's secret part (after `ak_live_`) is looked for alone only from this length on: a shorter
 *  one would match ordinary text. */
const MIN_SECRET_PART = 8;
/** Secrets shorter than this are not looked for at all (they would match ordinary text). */
const MIN_SECRET = 4;

/** One character of a secret as it may be echoed: as is, percent-encoded (either case of hex),
 *  or Markdown-escaped (a backslash before it, two in JSON text); case-folding is the pattern's
 *  `i` flag. */
function charPattern(char: string): string {
  const encoded = [...Buffer.from(char, 'utf8')]
    .map((byte) => `%${byte.toString(16).padStart(2, '0')}`)
    .join('');
  return `\\\\{0,2}(?:${char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&')}|${encoded})`;
}

/** The secret part of an API key (after `ak_live_`), when it is long enough to be looked for
 *  alone; undefined otherwise. */
export function secretPart(key: string): string | undefined {
  if (!key.startsWith(API_KEY_PREFIX)) return undefined;
  const part = key.slice(API_KEY_PREFIX.length);
  return part.length >= MIN_SECRET_PART ? part : undefined;
}

const patterns = new Map<string, RegExp | null>();

/** A global pattern that finds `secret` in every form a service may echo it in: as is, with any
 *  of its characters percent-encoded or Markdown-escaped, in any case. An `ak_live_` key is also
 *  found by its secret part alone. Null for a secret too short to look for. */
export function secretPattern(secret: string): RegExp | null {
  let pattern = patterns.get(secret);
  if (pattern !== undefined) return pattern;
  const chars = (text: string) => [...text].map(charPattern).join('');
  const part = secretPart(secret);
  const source =
    part !== undefined
      ? `(?:${chars(API_KEY_PREFIX)})?${chars(part)}`
      : secret.length >= MIN_SECRET
        ? chars(secret)
        : undefined;
  pattern = source === undefined ? null : new RegExp(source, 'gi');
  if (patterns.size > 16) patterns.clear();
  patterns.set(secret, pattern);
  return pattern;
}

/** `text` with every form of `secret` (secretPattern) replaced by `replacement`. */
export function withoutSecret(text: string, secret: string, replacement: string): string {
  const pattern = secretPattern(secret);
  return pattern ? text.replace(pattern, replacement) : text;
}

/** What a secret becomes wherever it was found, in the client and in the pipeline alike. */
export const REDACTED = '[redacted]';

export function redact(text: string, apiKey?: string): string {
  const out = apiKey ? withoutSecret(text, apiKey, REDACTED) : text;
  return out
    .replace(KEY_PATTERN, 'ak_live_[redacted]')
    .replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/** JSON escapes that decode to a character stripControls removes, or to an ASCII one. */
const HIDING_ESCAPE = String.raw`\\(?:[bfr]|u(?:00[0-9a-fA-F]{2}|061[cC]|20[0-6][0-9a-fA-F]|[fF][eE][fF][fF]))`;
const MAY_HIDE = new RegExp(`${CONTROL_CHARACTERS.source}|${HIDING_ESCAPE}`);
/** A secret JSON text holds as it is: printable ASCII without a quote or a backslash. */
const PLAIN_SECRET = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** Whether any string of a JSON text may hold `secret` in some form once its controls are
 *  stripped; false only when sure. One look at the whole text instead of one per string: when no
 *  control character and no escape of one (or of an ASCII character) is in it, every string is in
 *  the text as it is seen, but for backslashes doubled, which secretPattern allows. */
export function jsonMayHoldSecret(json: string, secret: string): boolean {
  const pattern = secretPattern(secret);
  if (!pattern) return false;
  if (!PLAIN_SECRET.test(secret) || MAY_HIDE.test(json)) return true;
  pattern.lastIndex = 0;
  return pattern.test(json);
}

/** `value` (parsed JSON) without the key in any of its strings and names: a service that echoes
 *  the key, in any form, hands back [redacted] in its place. A string that holds it is returned
 *  without control characters too (the key is looked for in what a reader would see); every other
 *  string is kept exactly. Unchanged parts are shared. */
export function redactDeep(value: unknown, secret: string): unknown {
  if (typeof value === 'string') {
    const visible = stripControls(value);
    const redacted = withoutSecret(visible, secret, REDACTED);
    return redacted === visible ? value : redacted;
  }
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactDeep(item, secret));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  const entries = Object.entries(value);
  const redacted = entries.map(([name, item]) => [
    redactDeep(name, secret),
    redactDeep(item, secret),
  ]);
  const same = redacted.every(
    ([name, item], index) => name === entries[index]?.[0] && item === entries[index]?.[1],
  );
  return same ? value : Object.fromEntries(redacted);
}

/** Origin and path of an address, never its query (presigned signatures) or credentials. */
export function describeAddress(address: string | URL): string {
  try {
    const url = new URL(String(address));
    return `${url.origin}${url.pathname}`;
  } catch {
    return '(invalid address)';
  }
}

/** One line of text for a terminal or a log: no controls, whitespace runs (line breaks too) as one
 *  space. */
export function displayLine(text: string): string {
  return stripControls(text).replace(/\s+/g, ' ').trim();
}

/** A server-supplied message made safe to show: one line, bounded, no secrets. */
export function sanitizeServerText(text: string, apiKey?: string, max = 300): string {
  // Redacted before it is cut: a key cut in two would not be found.
  const oneLine = redact(displayLine(text), apiKey);
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
