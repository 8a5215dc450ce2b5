// Runs a reader could decode: base64 (standard and URL-safe at once) and hex, at every alignment
// (a secret inside a longer encoded text starts anywhere), forwards and reversed. Each decoding that
// reads as text becomes a reading of its own, every character of which maps back to the whole
// quads (base64) or pairs (hex) of the run it came from: redacting it removes every character that
// carries a bit of the secret.
import { LayerBuilder, originalRange, type Layer } from './layer.js';
import { utf8Chars, wellFormedAt } from './utf8.js';

type Kind = 'base64' | 'hex';

/** Which ASCII characters belong to a base64 (either alphabet) or a hex run: 1, else 0. */
const BASE64_CHAR = new Uint8Array(128);
const HEX_CHAR = new Uint8Array(128);
for (const char of 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_')
  BASE64_CHAR[char.charCodeAt(0)] = 1;
for (const char of '0123456789abcdefABCDEF') HEX_CHAR[char.charCodeAt(0)] = 1;

/** Characters a kind spends per unit (a quad, a pair) and the bytes a unit holds. */
const UNIT = { base64: { chars: 4, bytes: 3 }, hex: { chars: 2, bytes: 1 } } as const;

/** The run decoded from its `align`th character on (Node's decoders: base64 takes both alphabets
 *  and a last partial quad; hex whole pairs). */
function decode(chars: string, kind: Kind, align: number): Uint8Array {
  if (kind === 'base64') return Buffer.from(chars.slice(align), 'base64');
  const pairs = Math.floor((chars.length - align) / 2);
  return Buffer.from(chars.slice(align, align + 2 * pairs), 'hex');
}

/** Whether `bytes` hold a run of at least `least` bytes that reads as text (ASCII or well-formed
 *  UTF-8): a decoding at the wrong alignment is noise, and is not read further. */
function readsAsText(bytes: Uint8Array, least: number): boolean {
  let run = 0;
  for (let at = 0; at < bytes.length;) {
    const length = wellFormedAt(bytes, at);
    run = length === 0 ? 0 : run + length;
    if (run >= least) return true;
    at += Math.max(1, length);
  }
  return false;
}

interface Run {
  layer: Layer;
  start: number;
  end: number;
  kind: Kind;
  reversed: boolean;
  align: number;
}

/** The original range that bytes [first, last) of a run's decoding came from. */
function bytesOrigin(run: Run, first: number, last: number): [number, number] {
  const unit = UNIT[run.kind];
  const length = run.end - run.start;
  const c0 = run.align + Math.floor(first / unit.bytes) * unit.chars;
  const c1 = Math.min(length, run.align + (Math.floor((last - 1) / unit.bytes) + 1) * unit.chars);
  return run.reversed
    ? originalRange(run.layer, run.end - c1, run.end - c0)
    : originalRange(run.layer, run.start + c0, run.start + c1);
}

function decodedLayer(run: Run, bytes: Uint8Array): Layer {
  if (!run.layer.tracked) return { text: new TextDecoder('utf-8').decode(bytes), tracked: false };
  const out = new LayerBuilder(run.layer, bytes.length);
  for (const char of utf8Chars(bytes)) {
    const [start, end] = bytesOrigin(run, char.start, char.end);
    out.emitOriginal(char.text ?? '\ufffd', start, end);
  }
  return out.build();
}

interface Runs {
  base64: Array<[number, number]>;
  hex: Array<[number, number]>;
}

/** Every maximal base64 run of `text` at least `least.base64` long, and every hex run at least
 *  `least.hex`: one pass over the text (a regex with a long repeat would retry from every
 *  character of a long word). */
function runsOf(text: string, least: Record<Kind, number>): Runs {
  const runs: Runs = { base64: [], hex: [] };
  const length = text.length;
  let base64 = 0;
  let hex = 0;
  for (let at = 0; at <= length; at++) {
    const code = at < length ? text.charCodeAt(at) : 0x80;
    if (code < 0x80 && HEX_CHAR[code] === 1) continue;
    if (at - hex >= least.hex) runs.hex.push([hex, at]);
    hex = at + 1;
    if (code < 0x80 && BASE64_CHAR[code] === 1) continue;
    if (at - base64 >= least.base64) runs.base64.push([base64, at]);
    base64 = at + 1;
  }
  return runs;
}

/** Every decoding of every base64 or hex run of `layer` (each alignment, forwards and reversed)
 *  that may hold `leastBytes` bytes of text; a run in `done` (the same run at the same place in
 *  another reading) is not decoded again. */
export function* decodedReadings(
  layer: Layer,
  leastBytes: number,
  done: Set<string>,
): Generator<Layer> {
  const least = (kind: Kind) => Math.ceil((leastBytes * UNIT[kind].chars) / UNIT[kind].bytes);
  const runs = runsOf(layer.text, { base64: least('base64'), hex: least('hex') });
  for (const kind of ['base64', 'hex'] as const) {
    const unit = UNIT[kind];
    for (const [start, end] of runs[kind]) {
      const forwards = layer.text.slice(start, end);
      // Where it is matters only to redact it.
      const at = layer.tracked ? originalRange(layer, start, start + 1)[0] : -1;
      const where = `${kind}:${at}:${forwards}`;
      if (done.has(where)) continue;
      done.add(where);
      const backwards = [...forwards].reverse().join('');
      for (const reversed of [false, true]) {
        for (let align = 0; align < unit.chars; align++) {
          const bytes = decode(reversed ? backwards : forwards, kind, align);
          if (!readsAsText(bytes, leastBytes)) continue;
          yield decodedLayer({ layer, start, end, kind, reversed, align }, bytes);
        }
      }
    }
  }
}
