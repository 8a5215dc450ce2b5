// Finds where a secret (e.g. a canary API key) leaked: in recorded requests to an origin that must
// never see it, in a step's logs/outputs/summary/state, or in files left on disk. Looks for the
// plain value and its URL-encoded and base64 forms.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RecordedRequest } from './http-server.js';

/** The forms a secret may take on the wire or on disk. */
export function secretForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms = [
    secret,
    encodeURIComponent(secret),
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
  ];
  return [...new Set(forms.filter((f) => f.length > 0))];
}

function contains(haystack: string, secret: string): boolean {
  return secretForms(secret).some((form) => haystack.includes(form));
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
    if (contains(request.url, secret)) places.push(`${where} url`);
    for (const [name, value] of Object.entries(request.headers)) {
      if (contains(String(value), secret)) places.push(`${where} header ${name}`);
    }
    if (contains(request.body.toString('latin1'), secret)) places.push(`${where} body`);
  }
  return places;
}

/** Named texts (stdout, summary, JSON of outputs, …) that contain the secret. */
export function findSecretInTexts(secret: string, texts: Record<string, string>): string[] {
  return Object.entries(texts)
    .filter(([, text]) => contains(text, secret))
    .map(([name]) => name);
}

/** Files under `directory` (recursively) whose bytes contain the secret. */
export async function findSecretInDirectory(secret: string, directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  const files = entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  const found: string[] = [];
  for (const file of files) {
    if (contains((await readFile(file)).toString('latin1'), secret)) found.push(file);
  }
  return found;
}
