// Whether a text would reveal a secret: an API key in any form the redaction recognises, or a
// secret this run holds (its key, the webhook address, the GitHub token) in any form the redaction
// finds it in. The one question the tenant settings ask of the redaction, asked here only, so that
// a stronger redaction (src/client/redact.ts) strengthens it at once.

import { REDACTED, displayLine, redact, stripControls, withoutSecret } from '../../client/index.js';

export function revealsSecret(text: string, secrets: readonly string[]): boolean {
  // Controls first: a zero-width space inside a key must not hide it.
  const visible = stripControls(text);
  if (redact(visible) !== visible) return true;
  return secrets.some((secret) => withoutSecret(visible, secret, '') !== visible);
}

/** A value read from the service, made fit to show: one line, and no key-shaped text. */
export function shownServiceText(text: string): string {
  return revealsSecret(text, []) ? REDACTED : displayLine(text);
}
