// Whether a text would reveal a secret: an API key in any form the redaction recognises, or a
// secret this run holds (its key, the webhook address, the GitHub token) in any form the redaction
// finds it in. The one question the tenant settings ask of the redaction, asked here only.

import {
  REDACTED,
  displayLine,
  looksLikeApiKey,
  revealsSecret as revealsOneOf,
} from '../../client/index.js';

export function revealsSecret(text: string, secrets: readonly string[]): boolean {
  return looksLikeApiKey(text) || revealsOneOf(text, secrets);
}

/** A value read from the service, made fit to show: one line, and no key-shaped text. */
export function shownServiceText(text: string): string {
  return revealsSecret(text, []) ? REDACTED : displayLine(text);
}
