// Deterministic report bodies, produced chunk by chunk into reusable buffers (never whole in memory).
import { createHash } from 'node:crypto';
import { hash32 } from './rng.js';

const HEADER = Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1');
const TRAILER = Buffer.from('\n%%EOF\n', 'latin1');
export const CHUNK_BYTES = 64 * 1024;

/** A reusable chunk buffer, 4-byte aligned so it can be filled a word at a time. */
export function allocChunk(): Buffer {
  return Buffer.from(new ArrayBuffer(CHUNK_BYTES));
}

/**
 * The bytes of one report, in order: fill() writes the next piece into a caller's chunk buffer.
 * Each report draws one pseudo-random pattern (seeded by the scan); every chunk is that pattern
 * rotated by a per-chunk amount and stamped with the chunk's index, so a dropped, repeated or
 * reordered chunk changes the digest. Copying instead of drawing every byte keeps the emulator's
 * CPU small next to a client downloading from it on the same machine (the download benchmark).
 */
export class ReportBytes {
  private readonly pattern: Buffer;
  private readonly seed: number;
  private offset = 0;

  constructor(
    seed: number,
    scanId: string,
    readonly size: number,
  ) {
    this.seed = hash32(seed, scanId, 'report') || 1;
    this.pattern = doubledPattern(this.seed);
  }

  get done(): boolean {
    return this.offset >= this.size;
  }

  /** Fill the start of `chunk` (from allocChunk) with the next bytes; returns how many. */
  fill(chunk: Buffer): number {
    const length = Math.min(CHUNK_BYTES, this.size - this.offset);
    const index = this.offset / CHUNK_BYTES;
    const rotation = (Math.imul(index + 1, 0x9e3779b1) >>> 0) % CHUNK_BYTES;
    this.pattern.copy(chunk, 0, rotation, rotation + length);
    stamp(chunk, length, index, this.seed);
    overlay(chunk, length, this.offset, HEADER, 0);
    overlay(
      chunk,
      length,
      this.offset,
      TRAILER,
      Math.max(HEADER.length, this.size - TRAILER.length),
    );
    this.offset += length;
    return length;
  }
}

/** CHUNK_BYTES of xorshift32 output, twice over, so any rotation of it is one contiguous copy. */
function doubledPattern(seed: number): Buffer {
  const pattern = Buffer.from(new ArrayBuffer(CHUNK_BYTES * 2));
  const words = new Uint32Array(pattern.buffer, 0, CHUNK_BYTES / 4);
  let state = seed;
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state >>> 0;
  }
  pattern.copy(pattern, CHUNK_BYTES, 0, CHUNK_BYTES);
  return pattern;
}

/** The chunk's index, mixed with the report's seed, in its first 8 bytes (fewer if it is short). */
function stamp(chunk: Buffer, length: number, index: number, seed: number): void {
  const mark = Buffer.alloc(8);
  mark.writeUInt32LE(index >>> 0, 0);
  mark.writeUInt32LE(Math.imul(index ^ seed, 0x85ebca6b) >>> 0, 4);
  mark.copy(chunk, 0, 0, Math.min(8, length));
}

/** Copy `piece` (which lives at absolute position `at`) into a chunk that starts at `chunkOffset`. */
function overlay(
  chunk: Buffer,
  length: number,
  chunkOffset: number,
  piece: Buffer,
  at: number,
): void {
  const start = Math.max(at, chunkOffset);
  const end = Math.min(at + piece.length, chunkOffset + length);
  for (let p = start; p < end; p++) chunk[p - chunkOffset] = piece[p - at] as number;
}

export function reportDigest(
  seed: number,
  scanId: string,
  size: number,
): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const source = new ReportBytes(seed, scanId, size);
  const chunk = allocChunk();
  while (!source.done) hash.update(chunk.subarray(0, source.fill(chunk)));
  return { sha256: hash.digest('hex'), bytes: size };
}
