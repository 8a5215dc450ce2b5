// How a reader reads a text: its view (seen.ts), then the view after each round of escapes
// decoded (unescape.ts), again while any is left (URL encoding once or twice, inside a JSON string,
// inside HTML, with Markdown escapes); each as a terminal and as a file would show it. Each reading
// keeps where its units came from (layer.ts).
import type { Layer } from './layer.js';
import { searchableViews, viewOf } from './seen.js';
import { unescapeOnce } from './unescape.js';

/** Decoding rounds at most: URL encoding twice, inside a JSON string, inside HTML, with Markdown
 *  escapes: each round peels one. */
export const MAX_UNESCAPE_ROUNDS = 6;

/** The readings of `layer` a reader goes through: its view, then the view after each round of
 *  unescaping, while a round decodes anything; each as searchableViews gives it. */
export function readingsOf(layer: Layer): Layer[] {
  let view = viewOf(layer);
  const readings = searchableViews(view);
  for (let round = 0; round < MAX_UNESCAPE_ROUNDS; round++) {
    const next = unescapeOnce(view);
    if (!next) break;
    view = next;
    readings.push(...searchableViews(view));
  }
  return readings;
}
