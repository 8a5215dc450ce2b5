// Escapes a reader decodes, one round at a time: URL encoding (a percent-encoded run is UTF-8),
// JSON and JavaScript escapes (`\u0041`, a surrogate pair, `\u{41}`, `\x41`, `\n`), HTML and XML
// character references (`&#65;`, `&#x41;`, `&lowbar;`) and Markdown backslashes (`\_`). What an
// escape decodes to is taken as a reader sees it (seen.ts), so a decoded round is a view too.
import { LayerBuilder, type Layer } from './layer.js';
import { remembered, viewText } from './seen.js';
import { utf8Chars } from './utf8.js';

/** Named character references a secret's characters may be written as (HTML5 and XML). */
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  lowbar: '_',
  UnderBar: '_',
  period: '.',
  sol: '/',
  equals: '=',
  plus: '+',
  minus: '-',
  hyphen: '-',
  dash: '-',
  tilde: '~',
  colon: ':',
  semi: ';',
  comma: ',',
  num: '#',
  percnt: '%',
  commat: '@',
  excl: '!',
  quest: '?',
  dollar: '$',
  lpar: '(',
  rpar: ')',
  ast: '*',
  lsqb: '[',
  rsqb: ']',
  lcub: '{',
  rcub: '}',
  verbar: '|',
  bsol: '\\',
  Hat: '^',
  grave: '`',
  NewLine: '',
  Tab: '',
  shy: '',
  ZeroWidthSpace: '',
  zwj: '',
  zwnj: '',
};

/** Each kind of escape a reader decodes; a percent-encoded run is one match (its bytes are UTF-8
 *  together). */
const KINDS = {
  percent: String.raw`(?:%[0-9A-Fa-f]{2})+`,
  json: String.raw`\\[uU][dD][89abAB][0-9A-Fa-f]{2}\\[uU][dD][c-fC-F][0-9A-Fa-f]{2}|\\[uU]\{[0-9A-Fa-f]{1,6}\}|\\[uU][0-9A-Fa-f]{4}|\\[xX][0-9A-Fa-f]{2}|\\[bfnrtv"\\/]`,
  html: String.raw`&#[xX][0-9A-Fa-f]{1,6};?|&#[0-9]{1,7};?|&[A-Za-z][A-Za-z0-9]{1,31};`,
  markdown: String.raw`\\[!-/:-@[-\x60{-~]`,
  /** A backslash before a letter or digit that escapes nothing (`ak_live_ab\Wc`): a reader reads
   *  past it. Only as a round of its own: read together, `\n` is a JSON escape. */
  stray: String.raw`\\[0-9A-Za-z]`,
};
export type EscapeKind = keyof typeof KINDS | 'all';
const ESCAPE: Record<EscapeKind, RegExp> = {
  percent: new RegExp(KINDS.percent, 'g'),
  json: new RegExp(KINDS.json, 'g'),
  html: new RegExp(KINDS.html, 'g'),
  markdown: new RegExp(KINDS.markdown, 'g'),
  stray: new RegExp(KINDS.stray, 'g'),
  /** Every kind in one round: how most texts are written, and the cheapest reading. */
  all: new RegExp(
    Object.entries(KINDS)
      .filter(([kind]) => kind !== 'stray')
      .map(([, source]) => source)
      .join('|'),
    'g',
  ),
};
const PRESENT = Object.entries(KINDS).map(
  ([kind, source]) => [kind as EscapeKind, new RegExp(source)] as const,
);

/** The kinds of escape `text` holds: when it holds more than one, a reader may decode them in any
 *  order (`\\%41` is `%41` to JSON, then `A`), and each is a round of its own. */
export function kindsIn(text: string): EscapeKind[] {
  return PRESENT.filter(([, pattern]) => pattern.test(text)).map(([kind]) => kind);
}
const HAS_ESCAPE = /%[0-9A-Fa-f]{2}|\\|&#?[A-Za-z0-9]+;?/;

function fromCodePoint(value: number): string | undefined {
  return value <= 0x10ffff ? String.fromCodePoint(value) : undefined;
}

/** What one escape (not a percent run) stands for; undefined: it stands for itself. */
function unescaped(escape: string, kind: EscapeKind = 'all'): string | undefined {
  if (kind === 'stray') return escape.slice(1);
  if (escape.length === 12 && /^\\[uU]/.test(escape))
    return String.fromCharCode(parseInt(escape.slice(2, 6), 16), parseInt(escape.slice(8), 16));
  if (/^\\[uU]\{/.test(escape)) return fromCodePoint(parseInt(escape.slice(3, -1), 16));
  if (/^\\[uU]/.test(escape) && escape.length === 6)
    return String.fromCharCode(parseInt(escape.slice(2), 16));
  if (/^\\[xX]/.test(escape) && escape.length === 4)
    return String.fromCharCode(parseInt(escape.slice(2), 16));
  if (escape.startsWith('\\')) return 'nrtbfv'.includes(escape.charAt(1)) ? '' : escape.slice(1);
  if (/^&#[xX]/.test(escape)) return fromCodePoint(parseInt(escape.slice(3), 16));
  if (escape.startsWith('&#')) return fromCodePoint(parseInt(escape.slice(2), 10));
  return ENTITIES[escape.slice(1, -1)];
}

/** A percent-encoded run decoded as UTF-8, each character from its own %XX triples; bytes that
 *  are not UTF-8 stay as they were written. */
function emitPercentRun(out: LayerBuilder, run: string, at: number): void {
  const bytes = Uint8Array.from({ length: run.length / 3 }, (_, k) =>
    parseInt(run.slice(3 * k + 1, 3 * k + 3), 16),
  );
  for (const char of utf8Chars(bytes)) {
    const start = at + 3 * char.start;
    const end = at + 3 * char.end;
    if (char.text === undefined) out.keep(start, end);
    else out.emit(viewText(char.text), start, end);
  }
}

/** A percent-encoded run decoded as UTF-8; bytes that are not UTF-8 stay as they were written. */
function percentDecoded(run: string): string {
  const bytes = Uint8Array.from({ length: run.length / 3 }, (_, k) =>
    parseInt(run.slice(3 * k + 1, 3 * k + 3), 16),
  );
  let out = '';
  for (const char of utf8Chars(bytes)) out += char.text ?? run.slice(3 * char.start, 3 * char.end);
  return out;
}

const escapes = new Map<string, string | undefined>();

/** Untracked: the same decoding by the engine's own replace (no positions to keep). */
function unescapeText(text: string, kind: EscapeKind): string | undefined {
  const pattern = ESCAPE[kind];
  let decoded = 0;
  const out = text.replace(pattern, (escape) => {
    const value = remembered(escapes, kind === 'stray' ? `stray${escape}` : escape, () => {
      const decoded = escape.charAt(0) === '%' ? percentDecoded(escape) : unescaped(escape, kind);
      return decoded === undefined ? undefined : viewText(decoded);
    });
    if (value === undefined) return escape;
    decoded++;
    return value;
  });
  return decoded === 0 ? undefined : out;
}

/** `layer` (a view) with each escape of `kind` decoded once, as a reader sees what it decodes to
 *  (so the result is a view too); undefined when it holds none. */
export function unescapeOnce(layer: Layer, kind: EscapeKind = 'all'): Layer | undefined {
  const { text } = layer;
  if (!HAS_ESCAPE.test(text)) return undefined;
  const pattern = ESCAPE[kind];
  if (!layer.tracked) {
    const out = unescapeText(text, kind);
    return out === undefined ? undefined : { text: out, tracked: false };
  }
  const out = new LayerBuilder(layer);
  let at = 0;
  let decoded = 0;
  for (const match of text.matchAll(pattern)) {
    const escape = match[0];
    out.keep(at, match.index);
    at = match.index + escape.length;
    if (escape.charAt(0) === '%') {
      emitPercentRun(out, escape, match.index);
      decoded++;
      continue;
    }
    const value = unescaped(escape, kind);
    if (value === undefined) out.keep(match.index, at);
    else {
      out.emit(viewText(value), match.index, at);
      decoded++;
    }
  }
  if (decoded === 0) return undefined;
  out.keep(at, text.length);
  return out.build();
}
