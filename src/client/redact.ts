// Server text made safe to show. Secrets stay out of messages: the client's own key, any
// key-shaped token, and URL queries (a presigned address's signature is a credential too). And no
// control characters reach a terminal or a log: a service could otherwise clear the screen, retitle
// the window, disguise a link or forge log lines with escape sequences in a finding's title.

const KEY_PATTERN = /ak_live_[A-Za-z0-9._~+/=-]*/g;
const BEARER_PATTERN = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;

export function redact(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[redacted]');
  return out
    .replace(KEY_PATTERN, 'ak_live_[redacted]')
    .replace(BEARER_PATTERN, 'Bearer [redacted]');
}

/** `value` (parsed JSON) with every occurrence of `secret` in its strings and names replaced by
 *  [redacted]: a service that echoes the key hands back none. Unchanged parts are shared. */
export function redactDeep(value: unknown, secret: string): unknown {
  if (typeof value === 'string')
    return value.includes(secret) ? value.split(secret).join('[redacted]') : value;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item, secret));
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [name, item] of Object.entries(value))
    out[redactDeep(name, secret) as string] = redactDeep(item, secret);
  return out;
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

/** One line of text for a terminal or a log: no controls, whitespace runs (line breaks too) as one
 *  space. */
export function displayLine(text: string): string {
  return stripControls(text).replace(/\s+/g, ' ').trim();
}

/** A server-supplied message made safe to show: one line, bounded, no secrets. */
export function sanitizeServerText(text: string, apiKey?: string, max = 300): string {
  const oneLine = displayLine(text);
  const bounded = oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
  return redact(bounded, apiKey);
}
