// Deterministic pseudo-random numbers and ids derived from the emulator seed.
import { createHash } from 'node:crypto';

/** mulberry32: a tiny, fast 32-bit generator; good enough for plausible test data. */
export function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A stable 32-bit hash of a list of parts (FNV-1a over their text). */
export function hash32(...parts: Array<string | number>): number {
  let h = 0x811c9dc5;
  const text = parts.join('\u0000');
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A number in [0, 1) fixed by the parts. */
export function unitFrom(...parts: Array<string | number>): number {
  return mulberry32(hash32(...parts))();
}

/** An integer in [min, max] fixed by the parts. */
export function intFrom(min: number, max: number, ...parts: Array<string | number>): number {
  return min + Math.floor(unitFrom(...parts) * (max - min + 1));
}

export function pick<T>(items: readonly T[], ...parts: Array<string | number>): T {
  return items[intFrom(0, items.length - 1, ...parts)] as T;
}

/** A version-4-shaped UUID fixed by the parts. */
export function uuidFrom(...parts: Array<string | number>): string {
  const hex = createHash('sha256').update(parts.join('\u0000')).digest('hex');
  const variant = ((parseInt(hex[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A base62 token of `length` characters fixed by the parts. */
export function tokenFrom(length: number, ...parts: Array<string | number>): string {
  const bytes = createHash('sha512').update(parts.join('\u0000')).digest();
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[(bytes[i % bytes.length] ?? 0) % 62];
  return out;
}

/** Per-kind counters, so ids of one kind do not shift when another kind is created in between. */
export class IdSource {
  private readonly counters = new Map<string, number>();
  constructor(private readonly seed: number) {}

  next(kind: string): number {
    const n = (this.counters.get(kind) ?? 0) + 1;
    this.counters.set(kind, n);
    return n;
  }

  uuid(kind: string): string {
    return uuidFrom(this.seed, kind, this.next(kind));
  }

  apiKey(): string {
    return `ak_live_${tokenFrom(40, this.seed, 'api-key', this.next('api-key'))}`;
  }
}
