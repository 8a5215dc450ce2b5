// Finds where a secret (e.g. a canary API key) leaked: in recorded requests to an origin that must
// never see it, in a step's logs/outputs/summary/state, or in files left on disk. Looks for the
// secret, and for an API key its secret part (after `ak_live_`) alone, in any form a reader sees
// through: URL-encoded, base64 or base64url at any alignment (inside a longer encoded text), hex,
// reversed; and, in the text as a reader sees it (no default-ignorable, format, control or
// combining character, no line break, NFKC, escapes decoded twice, any case), as is. Cheap on big
// outputs: the encoded forms are looked for as they are (the secret encoded, not the text decoded),
// and the reader's view is a few whole-text replacements. The property tests' slow oracle that
// tries every decoding is secret-reader.ts.

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

/** What base64 of any text holding `part` always contains, whichever the alignment: `part`
 *  encoded after 0, 1 or 2 bytes, without the characters its neighbours change. */
function base64Cores(part: string): string[] {
  return [0, 1, 2].flatMap((shift) => {
    const encoded = Buffer.concat([Buffer.alloc(shift), Buffer.from(part, 'utf8')]).toString(
      'base64',
    );
    const core = encoded.replace(/=+$/, '').slice(Math.ceil((shift * 4) / 3), -2);
    return core.length >= 4 ? [core, core.replace(/\+/g, '-').replace(/\//g, '_')] : [];
  });
}

function reversed(text: string): string {
  return [...text].reverse().join('');
}

/** The forms a secret (and an API key's secret part) may take that a reader reads in any case:
 *  as is, reversed, URL-encoded, hex. */
function foldableForms(part: string): string[] {
  const hex = Buffer.from(part, 'utf8').toString('hex');
  return [part, reversed(part), encodeURIComponent(part), hex].map((f) => f.toLowerCase());
}

/** Base64 forms: their case is their content (lower-cased base64 reads as nothing). */
function base64Forms(part: string): string[] {
  const bytes = Buffer.from(part, 'utf8');
  return [
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    ...base64Cores(part),
  ];
}

/** The forms a secret (and an API key's secret part) may take on the wire or on disk. */
export function secretForms(secret: string): string[] {
  const forms = secretParts(secret).flatMap((part) => [
    part,
    ...foldableForms(part),
    ...base64Forms(part),
  ]);
  return [...new Set(forms.filter((f) => f.length > 0))];
}

const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{M}\p{Zl}\p{Zp}]/gu;
const NAMED: Record<string, string> = {
  lowbar: '_',
  period: '.',
  sol: '/',
  equals: '=',
  plus: '+',
};

/** One round of the escapes a reader decodes: percent runs, \u and \x escapes, character
 *  references, backslashes. */
function unescaped(text: string): string {
  return text
    .replace(/(?:%[0-9a-f]{2})+/gi, (run) => Buffer.from(run.replace(/%/g, ''), 'hex').toString())
    .replace(/\\u([0-9a-f]{4})|\\x([0-9a-f]{2})/gi, (_, u?: string, x?: string) =>
      String.fromCharCode(parseInt(u ?? x ?? '0', 16)),
    )
    .replace(/&#(x?)([0-9a-f]+);?/gi, (whole, hex: string, digits: string) => {
      const code = parseInt(digits, hex ? 16 : 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    })
    .replace(/&([a-z]+);/gi, (whole, name: string) => NAMED[name] ?? whole)
    .replace(/\\/g, '');
}

/** Text as a reader sees through its disguises: what does not show removed, NFKC, escapes decoded
 *  twice, line breaks gone. Case kept (base64 needs it). */
function undisguised(text: string): string {
  const seen = (t: string) =>
    /[^\x20-\x7e]/.test(t) ? t.replace(UNSEEN, '').normalize('NFKC') : t;
  return seen(unescaped(seen(unescaped(seen(text)))));
}

/** Whether `haystack` holds the secret in any of its forms or disguises. */
export function containsSecret(haystack: string, secret: string): boolean {
  const parts = secretParts(secret);
  const foldable = parts.flatMap(foldableForms);
  const base64 = parts.flatMap(base64Forms);
  const holds = (text: string) => {
    const lower = text.toLowerCase();
    return foldable.some((f) => lower.includes(f)) || base64.some((f) => text.includes(f));
  };
  return holds(haystack) || holds(undisguised(haystack));
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
    const bytes = await readFile(file);
    if (
      containsSecret(bytes.toString('utf8'), secret) ||
      containsSecret(bytes.toString('latin1'), secret)
    )
      found.push(file);
  }
  return found;
}
