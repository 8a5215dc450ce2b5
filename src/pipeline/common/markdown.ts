// Service text into GitHub Markdown, as plain text and nothing else. Every surface that shows what
// the service sent (the job summary, the PR comment, the check run, SARIF's markdown, tracking
// issues, the roll-up) writes it through these functions, never its own escaping.
//
// GitHub turns more than Markdown live: its mention filter runs on the rendered text, so `\@team`
// still pings the team; only a code span stops it (github/markup#1168). Issue references (#1,
// owner/repo#2, GH-3), commit-like hex, bare addresses and emails are linked the same way. So
// those tokens go in code spans, every other ASCII punctuation mark is backslash-escaped (no
// emphasis, link, image, HTML, heading or table break survives), controls are stripped, and
// key-shaped secrets are redacted before anything else.
import { displayLine, redact } from '../../client/index.js';

/** Cuts to at most `max` characters (code points, never half a surrogate pair), adding … when cut. */
export function cutChars(text: string, max: number): string {
  // A string has at least as many code units as characters: short enough as it is.
  if (text.length <= max) return text;
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

/** What GitHub links or notifies on its own, outside code: addresses, emails, @mentions and
 *  @org/team, issue references, GH- references, commit-like hex. None holds a backtick or a pipe. */
const LIVE_TOKEN = new RegExp(
  [
    String.raw`(?:https?|ftp)://[^\s<>\x60|]+`,
    String.raw`www\.[^\s<>\x60|]+`,
    String.raw`[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)+`,
    String.raw`@[A-Za-z0-9][A-Za-z0-9-]*(?:/[A-Za-z0-9_.-]+)?`,
    String.raw`(?:[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+)?#\d+`,
    String.raw`\bGH-\d+`,
    String.raw`\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b`,
    String.raw`\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b`,
  ].join('|'),
  'gi',
);

/** Every ASCII punctuation mark: CommonMark lets each be backslash-escaped to stand for itself. */
const ASCII_PUNCTUATION = /[!-/:-@[-`{-~]/g;

/** Plain text for a table cell or a line: secrets redacted, one line, controls stripped. */
function plain(text: string, max: number): string {
  return cutChars(displayLine(redact(text)), max);
}

function escapePunctuation(text: string): string {
  return text.replace(ASCII_PUNCTUATION, '\\$&');
}

/** A code span of `text`, with a fence longer than any backtick run inside. In a GFM table cell a
 *  pipe must be escaped even inside code (the table splits rows first). */
function fence(text: string, inTable: boolean): string {
  const longest = (text.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const ticks = '`'.repeat(longest + 1);
  const padded = /^`|`$/.test(text) || /^ .* $/.test(text) ? ` ${text} ` : text;
  return `${ticks}${inTable ? padded.replace(/\|/g, '\\|') : padded}${ticks}`;
}

/** Service text as Markdown that renders as that text: no mention, reference, link, image, HTML or
 *  table break; at most `max` characters before escaping. '' for nothing. Safe in a table cell. */
export function markdownText(text: string | undefined, max = 200): string {
  if (text === undefined) return '';
  const line = plain(text, max);
  let out = '';
  let at = 0;
  for (const match of line.matchAll(LIVE_TOKEN)) {
    out += escapePunctuation(line.slice(at, match.index)) + fence(match[0], false);
    at = match.index + match[0].length;
  }
  return out + escapePunctuation(line.slice(at));
}

/** Service text (an id) as an inline code span, shown exactly; `inTable` for a GFM table cell. */
export function markdownCode(text: string | undefined, max = 128, inTable = true): string {
  if (text === undefined) return '';
  const line = plain(text, max);
  return line === '' ? '' : fence(line, inTable);
}

/** A link our own code renders: `label` is ours; the address must be http(s), else ''. Safe in a
 *  table cell. */
export function markdownLink(label: string, address: string | undefined): string {
  if (!address) return '';
  let url: URL;
  try {
    url = new URL(redact(address).trim());
  } catch {
    return '';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return '';
  const href = url.href.replace(
    /[()|<> `\\]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `[${escapePunctuation(label)}](${href})`;
}

/** Service text in a plain-text title (an issue's): one line, secrets redacted, at most `max`
 *  characters. GitHub links issue references in titles and reads @ there too: @ and # become
 *  their fullwidth forms, which look alike and stay text. */
export function plainTitle(text: string, max = 200): string {
  return plain(text, max).replace(/@/g, '＠').replace(/#/g, '＃');
}

/** Service text for a chat message's plain-text element (a Teams TextRun, a Slack plain_text):
 *  one line, secrets redacted, at most `max` characters; @ and # as in plainTitle, addresses
 *  defanged (`https：//`, `www．`) and Slack's `<!here>` form broken (`‹!here>`), so no chat
 *  client makes a mention or a live link of them. */
export function chatText(text: string, max = 200): string {
  return plainTitle(text, max)
    .replace(/<!/g, '‹!')
    .replace(/:\/\//g, '：//')
    .replace(/\bwww\./gi, (www) => `${www.slice(0, 3)}．`);
}
