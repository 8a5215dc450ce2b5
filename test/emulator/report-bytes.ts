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

/** The bytes of one report, in order: fill() writes the next piece into a caller's chunk buffer. */
export class ReportBytes {
  private state: number;
  private offset = 0;

  constructor(
    seed: number,
    scanId: string,
    readonly size: number,
  ) {
    this.state = hash32(seed, scanId, 'report') || 1;
  }

  get done(): boolean {
    return this.offset >= this.size;
  }

  /** Fill the start of `chunk` (from allocChunk) with the next bytes; returns how many. */
  fill(chunk: Buffer): number {
    const length = Math.min(CHUNK_BYTES, this.size - this.offset);
    const words = new Uint32Array(chunk.buffer, chunk.byteOffset, CHUNK_BYTES / 4);
    const wordCount = Math.ceil(length / 4);
    let state = this.state;
    for (let i = 0; i < wordCount; i++) {
      // xorshift32
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      words[i] = state >>> 0;
    }
    this.state = state;
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
