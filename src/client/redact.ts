// Server text made safe to show. Secrets stay out of messages and answers: every secret the run
// holds (its key, other tenants' keys, a webhook) in any form a reader would find it in
// (secrets/: the text as a reader sees it, decoded), any key-shaped token, and URL queries (a
// presigned address's signature is a credential too). And no control characters reach a terminal or
// a log: a service could otherwise clear the screen, retitle the window, disguise a link or forge
// log lines with escape sequences in a finding's title. Secrets are found before controls are
// stripped, in a view without them, and the whole span they came from is redacted: a stripped
// character cannot rejoin a key later.

import { revealsSecret } from './secrets/recognise.js';
import { ESCAPE_SEQUENCES } from './secrets/seen.js';
import { REDACTED, redactSecrets } from './secrets/redaction.js';

export { REDACTED, redactSecrets, revealsSecret };
export { looksLikeApiKey } from './secrets/recognise.js';
export { secretPart } from './secrets/needles.js';

/* eslint-disable no-control-regex */
/** The C0 controls but tab and line feed, DEL, the C1 controls, and the Unicode marks that reorder
 *  or hide text (bidirectional overrides and isolates, zero-width characters, BOM). */
const CONTROL_CHARACTERS =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;
/* eslint-enable no-control-regex */

/** Text without escape sequences or control characters (tabs and line feeds are kept). */
export function stripControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCES, '').replace(CONTROL_CHARACTERS, '');
}

const BEARER_PATTERN = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;

/** `text` without any secret of `secrets` in any form a reader would find it in (the view
 *  without invisibles, any case, fullwidth, escaped, URL-encoded, base64, hex, reversed, split by
 *  line breaks: secrets/recognise.ts), without any other key-shaped token (`ak_live_[redacted]`)
 *  and without a bearer token. Only what holds a secret is replaced: the rest is left as it is. */
export function redact(text: string, secrets: string | readonly string[] = []): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  return redactSecrets(text, list, { keyShapes: true }).replace(
    BEARER_PATTERN,
    'Bearer [redacted]',
  );
}

/** `value` (parsed JSON) without any of `secrets` in any of its strings and names, in any form a
 *  reader would find it in: a service that echoes a key hands back [redacted] in its place, the
 *  rest of the string as it was. Unchanged parts are shared. */
export function redactDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, secrets);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    const items = value.map((item) => redactDeep(item, secrets));
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  const entries = Object.entries(value);
  const redacted = entries.map(([name, item]) => [
    redactDeep(name, secrets),
    redactDeep(item, secrets),
  ]);
  const same = redacted.every(
    ([name, item], index) => name === entries[index]?.[0] && item === entries[index]?.[1],
  );
  return same ? value : Object.fromEntries(redacted);
}

/** Every string of `value` (names too), in order, into `into`: loops, not a spread. */
function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) {
      into.push(name);
      collectStrings(item, into);
    }
  }
}

/** Strings looked at together, at most this many characters at a time: every reading of them is
 *  held at once, so a 50 MB answer is read a megabyte at a time. */
const LOOK_CHARS = 1 << 20;

/** Whether any of `strings` holds a secret, looked at together a megabyte at a time (each apart
 *  from the next by a quote, as in the JSON text, but with JSON's escapes already decoded). */
function anyRevealsSecret(strings: readonly string[], secrets: readonly string[]): boolean {
  let batch: string[] = [];
  let size = 0;
  for (const [index, text] of strings.entries()) {
    batch.push(text);
    size += text.length + 1;
    if (size < LOOK_CHARS && index < strings.length - 1) continue;
    if (revealsSecret(batch.join('"'), secrets)) return true;
    batch = [];
    size = 0;
  }
  return false;
}

/** Parsed JSON without any of `secrets`: one look at all its strings (anyRevealsSecret), and only
 *  when that finds one, a look at every string. */
export function parsedWithoutSecrets(parsed: unknown, secrets: readonly string[]): unknown {
  if (secrets.length === 0) return parsed;
  const strings: string[] = [];
  collectStrings(parsed, strings);
  if (!anyRevealsSecret(strings, secrets)) return parsed;
  return redactDeep(parsed, secrets);
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
export function sanitizeServerText(
  text: string,
  secrets: readonly string[] = [],
  max = 300,
): string {
  // Redacted before it is cut (a key cut in two would not be found) and before its controls are
  // stripped (they are part of the span a hidden key is redacted with).
  const oneLine = displayLine(redact(text, secrets));
  return oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
}
