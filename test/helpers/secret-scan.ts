// Finds where a secret (e.g. a canary API key) leaked: in recorded requests to an origin that must
// never see it, in a step's logs/outputs/summary/state, or in files left on disk. Looks for the
// plain value and its URL-encoded and base64 forms, and, for an API key, its secret part (after
// `ak_live_`) alone; and for either in any disguise a reader sees through: Markdown-escaped,
// percent-encoded, case-folded, split by zero-width or control characters.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordedRequest } from './http-server.js';

/** As the client's redaction: a key's secret part is looked for alone from this length on. */
const MIN_SECRET_PART = 8;

/** The secret, and an API key's secret part alone when it is long enough to look for. */
function secretParts(secret: string): string[] {
  const part = secret.startsWith('ak_live_') ? secret.slice('ak_live_'.length) : '';
  return part.length >= MIN_SECRET_PART ? [secret, part] : [secret];
}

/** The forms a secret (and an API key's secret part) may take on the wire or on disk. */
export function secretForms(secret: string): string[] {
  const forms = secretParts(secret).flatMap((part) => {
    const bytes = Buffer.from(part, 'utf8');
    return [
      part,
      encodeURIComponent(part),
      bytes.toString('base64').replace(/=+$/, ''),
      bytes.toString('base64url'),
    ];
  });
  return [...new Set(forms.filter((f) => f.length > 0))];
}

const HIDDEN =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

/** Text as a reader sees through its disguises: no backslashes (Markdown escapes), no zero-width
 *  or control characters, percent-escapes decoded, in lower case. */
function undisguised(text: string): string {
  return text
    .replace(/\\/g, '')
    .replace(HIDDEN, '')
    .replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    .toLowerCase();
}

/** Whether `haystack` holds the secret in any of its forms or disguises. */
export function containsSecret(haystack: string, secret: string): boolean {
  if (secretForms(secret).some((form) => haystack.includes(form))) return true;
  const seen = undisguised(haystack);
  return secretParts(secret).some((part) => seen.includes(undisguised(part)));
}

/** Places (`<label> <METHOD> <path> header <name>` / `… body` / `… url`) where the secret was sent. */
export function findSecretInRequests(
  secret: string,
  requests: RecordedRequest[],
  label: string,
): string[] {
  const places: string[] = [];
  for (const request of requests) {
    const where = `${label} ${request.method} ${request.path}`;
    if (containsSecret(request.url, secret)) places.push(`${where} url`);
    for (const [name, value] of Object.entries(request.headers)) {
      if (containsSecret(String(value), secret)) places.push(`${where} header ${name}`);
    }
    if (containsSecret(request.body.toString('latin1'), secret)) places.push(`${where} body`);
  }
  return places;
}

/** Named texts (stdout, summary, JSON of outputs, …) that contain the secret. */
export function findSecretInTexts(secret: string, texts: Record<string, string>): string[] {
  return Object.entries(texts)
    .filter(([, text]) => containsSecret(text, secret))
    .map(([name]) => name);
}

/** Files under `directory` (recursively) whose bytes contain the secret. */
export async function findSecretInDirectory(secret: string, directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const found: string[] = [];
  for (const file of files) {
    if (containsSecret((await readFile(file)).toString('latin1'), secret)) found.push(file);
  }
  return found;
}
