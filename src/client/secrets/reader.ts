// How a reader reads a text: its view (seen.ts), then the view after each round of escapes
// decoded (unescape.ts), again while any is left (URL encoding once or twice, inside a JSON string,
// inside HTML, with Markdown escapes); each as a terminal and as a file would show it. Each reading
// keeps where its units came from (layer.ts).
import { reversedLayer, type Layer } from './layer.js';
import { searchableViews, viewOf } from './seen.js';
import { kindsIn, unescapeOnce, type EscapeKind } from './unescape.js';

/** Decoding rounds at most: URL encoding twice, inside a JSON string, inside HTML, with Markdown
 *  escapes: each round peels one. */
export const MAX_UNESCAPE_ROUNDS = 6;
/** Readings at most: a text that can be read many ways (escapes of several kinds, reversed) is
 *  read the shallow ways only, however a service writes it. */
const MAX_READINGS = 64;
/** And at most about this many units in all: a big text is read in the fewer ways its size allows
 *  (every kind at once always; each kind alone while it fits). */
const readingBudget = (units: number) => 16 * units + 65_536;

/** A text is reversed before at most this many rounds: a secret escaped, reversed and escaped
 *  again (twice, in URL encoding) is read; deeper, reversing every reading costs more than it finds. */
const MAX_REVERSE_ROUND = 2;

/** An escape written backwards (`14%`, `1400u\`, `;56#&`, `_\`): only then is reversing the
 *  text before decoding it a reading of its own. */
const REVERSED_ESCAPE =
  /(?<=[0-9A-Fa-f]{2})%|(?<=[0-9A-Fa-f]{2}[uUxX]|[!-/:-@[-`{-~])\\|(?<=;[0-9A-Za-z]+#?)&/;

/** One round of unescaping `view`: every kind at once, stray backslashes read past, and, when it
 *  holds more than one kind and `eachKind`, each kind alone (a reader peels the outer one first). */
function roundsOf(view: Layer, eachKind: boolean): Layer[] {
  const all = unescapeOnce(view);
  const kinds = eachKind ? kindsIn(view.text) : [];
  // A stray backslash is read past in a round of its own, even in the quick look (`all` keeps `\n`
  // a JSON escape, and a key cut by one would otherwise lose only its first letters).
  const alone: EscapeKind[] = kinds.length > 1 ? kinds : ['stray'];
  const each = alone.map((kind) => unescapeOnce(view, kind));
  // A round that changed nothing (an escape that stands for itself) is no reading of its own.
  return [all, ...each].filter((r): r is Layer => r !== undefined && r.text !== view.text);
}

export interface Readings {
  /** Every reading searched (the views as searchableViews gives them). */
  all: Layer[];
  /** Every view read (before searchableViews): where encoded runs are decoded. */
  views: Layer[];
  /** Whether `look` said to stop (it found what it looked for): the readings are not all there. */
  stopped: boolean;
}

/** The readings of `layer` a reader goes through, each given to `look` as it is made (true: stop,
 *  no other is made): its view, then the view after each round of unescaping while a round
 *  decodes anything; and, since a reader may reverse the text before decoding it (an escaped
 *  secret written backwards), once at an early round the reversed text's rounds too; escapes of
 *  different kinds in any order (unescape.ts). Each reading as searchableViews gives it, each text
 *  once, the shallow ones first. Without any escape: the view alone. Not `thorough`: every kind
 *  at once only (the quick look that finds most). */
export function readingsOf(
  layer: Layer,
  thorough = true,
  look: (reading: Layer) => boolean = () => false,
): Readings {
  const readings: Readings = { all: [], views: [], stopped: false };
  const budget = readingBudget(layer.text.length);
  let units = 0;
  /** Each text read so far, and whether it was read when a reversal was still allowed. */
  const seen = new Map<string, boolean>();
  let frontier = [{ view: viewOf(layer), canReverse: true }];
  for (let round = 0; frontier.length > 0; round++) {
    const next: typeof frontier = [];
    for (const { view, canReverse } of frontier) {
      const before = seen.get(view.text);
      if (before === true || (before === false && !canReverse)) continue;
      seen.set(view.text, canReverse);
      if (before === undefined) {
        readings.views.push(view);
        units += view.text.length;
        for (const each of searchableViews(view)) {
          readings.all.push(each);
          if (look(each)) return { ...readings, stopped: true };
        }
      }
      if (round === MAX_UNESCAPE_ROUNDS || readings.all.length >= MAX_READINGS) continue;
      const eachKind = thorough && units < budget;
      for (const each of roundsOf(view, eachKind)) next.push({ view: each, canReverse });
      if (!canReverse || round > MAX_REVERSE_ROUND || !REVERSED_ESCAPE.test(view.text)) continue;
      for (const each of roundsOf(reversedLayer(view), eachKind))
        next.push({ view: each, canReverse: false });
    }
    frontier = next;
  }
  return readings;
}
