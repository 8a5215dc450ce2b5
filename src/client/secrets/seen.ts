// How a reader sees a text, character by character: what does not show is gone (every
// default-ignorable, format and control character, combining marks, line breaks), compatibility
// forms are their plain letters (NFKC: fullwidth `ａ` is `a`), other scripts' letters folded to lower
// case (ASCII keeps its case: base64 needs it; a search folds it). Terminal escape sequences are
// seen two ways (a terminal hides them whole, a file shows what is between their controls): their
// introducers are kept in the view for searchableViews to take either way.
import { LayerBuilder, type Layer } from './layer.js';

/** What no reader sees: it is dropped from the view. */
const UNSEEN = /[\p{Default_Ignorable_Code_Point}\p{Cf}\p{Cc}\p{M}\p{Zl}\p{Zp}]/gu;
/** Units a view may change: anything but printable ASCII (a space included). */
const NOT_PLAIN = /[^\x20-\x7e]+/g;
const HAS_NOT_PLAIN = /[^\x20-\x7e]/;

const seen = new Map<number, string>();

/* eslint-disable no-control-regex */
/** What starts a terminal escape sequence: ESC and the C1 introducers of CSI and string commands. */
const INTRODUCER = /[\u001b\u0090\u0098\u009b\u009d-\u009f]/;
const INTRODUCERS = /[\u001b\u0090\u0098\u009b\u009d-\u009f]/g;
/** Terminal escape sequences: CSI (ESC [ or its C1 form, parameters, a final byte), the string
 *  commands OSC, DCS, SOS, PM and APC (up to BEL or ST; an unterminated one swallows the rest, as a
 *  terminal would) and two-character escapes (ESC and one more). */
export const ESCAPE_SEQUENCES =
  /(?:\u001b\[|\u009b)[\u0030-\u003f]*[\u0020-\u002f]*[\u0040-\u007e]?|(?:\u001b[\]PX^_]|[\u0090\u0098\u009d\u009e\u009f])[\s\S]*?(?:\u0007|\u001b\\|\u009c|$)|\u001b[\s\S]?/g;
/* eslint-enable no-control-regex */

/** One code point as a reader sees it: '' when it does not show (a sequence's introducer stays). */
function seenAs(codePoint: number): string {
  const known = seen.get(codePoint);
  if (known !== undefined) return known;
  const char = String.fromCodePoint(codePoint);
  if (INTRODUCER.test(char)) return char;
  if (codePoint < 0x20 || codePoint === 0x7f) return '';
  let out = '';
  for (const part of char.normalize('NFKC').replace(UNSEEN, '')) {
    out += part.charCodeAt(0) < 0x80 ? part : part.toLowerCase().replace(UNSEEN, '');
  }
  if (seen.size > 8192) seen.clear();
  seen.set(codePoint, out);
  return out;
}

/** Short runs and escapes repeat (a service's escape sequences, `\u001b` in every title): each is
 *  worked out once. */
export function remembered(
  cache: Map<string, string | undefined>,
  key: string,
  work: () => string | undefined,
) {
  if (key.length > 16) return work();
  if (cache.has(key)) return cache.get(key);
  const value = work();
  if (cache.size > 4096) cache.clear();
  cache.set(key, value);
  return value;
}

const seenRuns = new Map<string, string | undefined>();

/** A run of characters that are not printable ASCII, as a reader sees it. */
function seenRun(run: string): string {
  return (
    remembered(seenRuns, run, () => {
      let out = '';
      for (const char of run) out += seenAs(char.codePointAt(0) ?? 0);
      return out;
    }) ?? ''
  );
}

/** `text` as a reader sees it. */
export function viewText(text: string): string {
  return HAS_NOT_PLAIN.test(text) ? text.replace(NOT_PLAIN, seenRun) : text;
}

/** `layer` without what does not show, in compatibility forms folded as above. */
export function viewOf(layer: Layer): Layer {
  const { text } = layer;
  if (!HAS_NOT_PLAIN.test(text)) return layer;
  if (!layer.tracked) return { text: viewText(text), tracked: false };
  const out = new LayerBuilder(layer);
  let at = 0;
  for (const match of text.matchAll(NOT_PLAIN)) {
    out.keep(at, match.index);
    const end = match.index + match[0].length;
    for (let i = match.index; i < end;) {
      const codePoint = text.codePointAt(i) ?? 0;
      const size = codePoint > 0xffff ? 2 : 1;
      out.emit(seenAs(codePoint), i, i + size);
      i += size;
    }
    at = end;
  }
  out.keep(at, text.length);
  return out.build();
}

/** `layer` with `pattern`'s matches (sequences, or introducers alone) taken out. */
function without(layer: Layer, pattern: RegExp): Layer {
  if (!layer.tracked) return { text: layer.text.replace(pattern, ''), tracked: false };
  const out = new LayerBuilder(layer);
  let at = 0;
  for (const match of layer.text.matchAll(pattern)) {
    out.keep(at, match.index);
    at = match.index + match[0].length;
  }
  out.keep(at, layer.text.length);
  return out.build();
}

/** A view as it is searched: as a terminal shows it (escape sequences hidden whole) and as a file
 *  shows it (only their controls hidden); one reading when it holds no sequence. */
export function searchableViews(view: Layer): Layer[] {
  if (!INTRODUCER.test(view.text)) return [view];
  return [without(view, ESCAPE_SEQUENCES), without(view, INTRODUCERS)];
}
