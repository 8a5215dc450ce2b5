// A reading of a text (its view without invisibles, one with escapes decoded, a base64 run decoded)
// and, when the caller needs to redact, where each of its UTF-16 units came from in the ORIGINAL
// text: a match found in any reading is replaced in the text as it was written. Positions are kept
// only when asked (`tracked`): looking for a secret costs no maps, only redacting one does.

export interface Layer {
  readonly text: string;
  /** Whether `from`/`to` say where each unit came from; false: no positions (a yes/no look). */
  readonly tracked: boolean;
  /** Start in the original of what unit i came from; absent with `tracked`: the original itself. */
  readonly from?: Int32Array;
  /** End (exclusive) in the original of what unit i came from. */
  readonly to?: Int32Array;
}

export function originalLayer(text: string, tracked: boolean): Layer {
  return { text, tracked };
}

/** The original range that units [i, j) of `layer` came from (the smallest range holding them
 *  all: a reversed reading maps backwards). */
export function originalRange(layer: Layer, i: number, j: number): [number, number] {
  const { from, to } = layer;
  if (!from || !to) return [i, j];
  let start = Number.MAX_SAFE_INTEGER;
  let end = -1;
  for (let k = i; k < j; k++) {
    start = Math.min(start, from[k] ?? start);
    end = Math.max(end, to[k] ?? end);
  }
  return [start, end];
}

const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;
const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;

/** `layer` written backwards (by code point), each unit still mapped to where it came from. */
export function reversedLayer(layer: Layer): Layer {
  const { text } = layer;
  const units = text.length;
  const reversed = Array.from(text).reverse().join('');
  if (!layer.tracked) return { text: reversed, tracked: false };
  const order = new Int32Array(units);
  let out = 0;
  for (let at = units; at > 0;) {
    const pair =
      at >= 2 &&
      isLowSurrogate(text.charCodeAt(at - 1)) &&
      isHighSurrogate(text.charCodeAt(at - 2));
    const size = pair ? 2 : 1;
    for (let k = at - size; k < at; k++) order[out++] = k;
    at -= size;
  }
  const from = new Int32Array(units);
  const to = new Int32Array(units);
  for (let k = 0; k < units; k++) {
    const source = order[k] ?? 0;
    from[k] = layer.from ? (layer.from[source] ?? 0) : source;
    to[k] = layer.to ? (layer.to[source] ?? 0) : source + 1;
  }
  return { text: reversed, tracked: true, from, to };
}

/** Builds a reading of `source` piece by piece, keeping positions when `source` keeps them. */
export class LayerBuilder {
  private out = '';
  private length = 0;
  private from?: Int32Array;
  private to?: Int32Array;

  constructor(
    private readonly source: Layer,
    capacity = source.text.length,
  ) {
    if (source.tracked) {
      this.from = new Int32Array(Math.max(16, capacity));
      this.to = new Int32Array(Math.max(16, capacity));
    }
  }

  /** Units [i, j) of the source, as they are. */
  keep(i: number, j: number): void {
    if (j <= i) return;
    this.out += this.source.text.slice(i, j);
    if (this.from && this.to) {
      this.reserve(j - i);
      const { from, to } = this.source;
      for (let k = i; k < j; k++, this.length++) {
        this.from[this.length] = from ? (from[k] ?? 0) : k;
        this.to[this.length] = to ? (to[k] ?? 0) : k + 1;
      }
      return;
    }
    this.length += j - i;
  }

  /** `text`, every unit of which came from source units [i, j). */
  emit(text: string, i: number, j: number): void {
    if (text === '') return;
    this.out += text;
    if (this.from && this.to) {
      this.reserve(text.length);
      const [start, end] = originalRange(this.source, i, j);
      this.from.fill(start, this.length, this.length + text.length);
      this.to.fill(end, this.length, this.length + text.length);
    }
    this.length += text.length;
  }

  /** `text`, every unit of which came from the ORIGINAL range [start, end) (a decoded run). */
  emitOriginal(text: string, start: number, end: number): void {
    this.out += text;
    if (this.from && this.to) {
      this.reserve(text.length);
      this.from.fill(start, this.length, this.length + text.length);
      this.to.fill(end, this.length, this.length + text.length);
    }
    this.length += text.length;
  }

  build(): Layer {
    const text = this.out;
    if (!this.from || !this.to) return { text, tracked: false };
    return {
      text,
      tracked: true,
      from: this.from.subarray(0, this.length),
      to: this.to.subarray(0, this.length),
    };
  }

  private reserve(more: number): void {
    if (!this.from || !this.to || this.length + more <= this.from.length) return;
    const size = Math.max(this.from.length * 2, this.length + more);
    const from = new Int32Array(size);
    const to = new Int32Array(size);
    from.set(this.from);
    to.set(this.to);
    this.from = from;
    this.to = to;
  }
}
