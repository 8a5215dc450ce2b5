// Keeps secrets out of messages: the client's own key, any key-shaped token, and URL queries
// (a presigned address's signature is a credential too).

const KEY_PATTERN = /ak_live_[A-Za-z0-9._~+/=-]*/g;
const BEARER_PATTERN = /Bearer\s+[A-Za-z0-9._~+/=-]+/gi;

export function redact(text: string, apiKey?: string): string {
  let out = text;
  if (apiKey) out = out.split(apiKey).join('[redacted]');
  return out
    .replace(KEY_PATTERN, 'ak_live_[redacted]')
    .replace(BEARER_PATTERN, 'Bearer [redacted]');
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

/** A server-supplied message made safe to show: one line, bounded, no secrets. */
export function sanitizeServerText(text: string, apiKey?: string, max = 300): string {
  const oneLine = text
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const bounded = oneLine.length > max ? `${oneLine.slice(0, max)}…` : oneLine;
  return redact(bounded, apiKey);
}
