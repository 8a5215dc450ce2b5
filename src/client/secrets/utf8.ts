// Bytes read as UTF-8 one character at a time, each with the bytes it came from: a decoded run
// (percent-encoding, base64, hex) maps every character back to where it was written.

export interface Utf8Char {
  /** The character; undefined for a byte that starts no well-formed sequence. */
  text: string | undefined;
  /** Its bytes: [start, end). */
  start: number;
  end: number;
}

/** Length of the sequence `lead` starts (1–4), or 0 when it cannot start one. */
function sequenceLength(lead: number): number {
  if (lead < 0x80) return 1;
  if (lead >= 0xc2 && lead <= 0xdf) return 2;
  if (lead >= 0xe0 && lead <= 0xef) return 3;
  if (lead >= 0xf0 && lead <= 0xf4) return 4;
  return 0;
}

/** The code point of the well-formed sequence at `at` of `length` bytes, or undefined. */
function codePointAt(bytes: Uint8Array, at: number, length: number): number | undefined {
  if (at + length > bytes.length) return undefined;
  const lead = bytes[at] ?? 0;
  let value = length === 1 ? lead : lead & (0xff >> (length + 1));
  for (let k = 1; k < length; k++) {
    const byte = bytes[at + k] ?? 0;
    if ((byte & 0xc0) !== 0x80) return undefined;
    value = (value << 6) | (byte & 0x3f);
  }
  const least = [0, 0, 0x80, 0x800, 0x10000][length] ?? 0;
  if (value < least || value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) return undefined;
  return value;
}

/** Length of the well-formed sequence at `at` (1 for any ASCII byte), or 0. */
export function wellFormedAt(bytes: Uint8Array, at: number): number {
  const length = sequenceLength(bytes[at] ?? 0);
  return length !== 0 && codePointAt(bytes, at, length) !== undefined ? length : 0;
}

/** Every character of `bytes` in order, a malformed byte as its own undefined character. */
export function* utf8Chars(bytes: Uint8Array): Generator<Utf8Char> {
  for (let at = 0; at < bytes.length;) {
    const length = sequenceLength(bytes[at] ?? 0);
    const value = length === 0 ? undefined : codePointAt(bytes, at, length);
    if (value === undefined) {
      yield { text: undefined, start: at, end: at + 1 };
      at += 1;
    } else {
      yield { text: String.fromCodePoint(value), start: at, end: at + length };
      at += length;
    }
  }
}
