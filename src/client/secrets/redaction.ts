// A text with every secret a reader would find in it (recognise.ts) replaced, in the text as it was
// written: the range each match came from becomes `[redacted]` (a key shape no secret matched keeps
// its `ak_live_` prefix), and everything else is left exactly as it was: our own wording, its emoji
// and their variation selectors, the service's text around the secret.
import { findSecrets, revealsSecret, type FindOptions, type Span } from './recognise.js';

export interface RedactOptions extends FindOptions {
  /** What a secret becomes. Default `[redacted]`. */
  replacement?: string;
}

export const REDACTED = '[redacted]';
/** Redaction rounds: one finds everything; the others are a guard that what is left reads clean. */
const ROUNDS = 3;

function merged(spans: Span[]): Span[] {
  const sorted = [...spans].sort((a, b) => a.start - b.start || b.end - a.end);
  const out: Span[] = [];
  for (const span of sorted) {
    const last = out[out.length - 1];
    if (last && span.start <= last.end) {
      last.end = Math.max(last.end, span.end);
      last.keyShape &&= span.keyShape;
    } else out.push({ start: span.start, end: span.end, keyShape: span.keyShape });
  }
  return out;
}

function replaced(text: string, spans: Span[], replacement: string): string {
  let out = '';
  let at = 0;
  for (const span of merged(spans)) {
    out += text.slice(at, span.start) + (span.keyShape ? `ak_live_${replacement}` : replacement);
    at = span.end;
  }
  return out + text.slice(at);
}

/** `text` with every secret in `secrets` (and with keyShapes every key shape) replaced, in any
 *  form a reader would find it in. Unchanged (the same string) when it holds none. */
export function redactSecrets(
  text: string,
  secrets: readonly string[],
  options: RedactOptions = {},
): string {
  const replacement = options.replacement ?? REDACTED;
  if (!revealsSecret(text, secrets, options)) return text;
  // The quick look first (every kind of escape at once): it finds most forms, and the thorough one
  // then reads a text they are gone from, with fewer escapes to combine.
  const quick = { ...options, thorough: false };
  let out = replaced(text, findSecrets(text, secrets, quick), replacement);
  for (let round = 0; round < ROUNDS; round++) {
    if (!revealsSecret(out, secrets, options)) return out;
    out = replaced(out, findSecrets(out, secrets, options), replacement);
  }
  // Never reached by any form the recogniser knows; if it ever is, nothing of the text is shown.
  return revealsSecret(out, secrets, options) ? replacement : out;
}
