// Safe bits of Markdown from server text: table cells, links, and cutting on character boundaries.
import { displayLine } from '../client/index.js';

/** Cuts to at most `max` characters (code points, never half a surrogate pair), adding … when cut. */
export function cutChars(text: string, max: number): string {
  const chars = Array.from(text);
  if (chars.length <= max) return text;
  return `${chars.slice(0, Math.max(0, max - 1)).join('')}…`;
}

/** Cuts to at most `maxBytes` UTF-8 bytes, on a character boundary. */
export function cutBytes(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let bytes = 0;
  let out = '';
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (bytes + size > maxBytes) break;
    bytes += size;
    out += char;
  }
  return out;
}

/** One table cell: one line without control characters or escape sequences, no pipes or HTML
 *  that could break the table, at most `max` chars. */
export function cell(text: string | undefined, max = 200): string {
  if (text === undefined || text.trim() === '') return '';
  const flat = cutChars(displayLine(text), max);
  return flat
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/([*_`[\]])/g, '\\$1');
}

/** A Markdown link to an http(s) address, or '' for anything else (javascript:, data:, junk). */
export function link(label: string, address: string | undefined): string {
  if (!address) return '';
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return '';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
  const href = url.href.replace(/\(/g, '%28').replace(/\)/g, '%29').replace(/ /g, '%20');
  return `[${label}](${href})`;
}

export function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
