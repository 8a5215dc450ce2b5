import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { allocChunk, CHUNK_BYTES, ReportBytes } from './report-bytes.js';

function chunksOf(seed: number, scanId: string, size: number): Buffer[] {
  const source = new ReportBytes(seed, scanId, size);
  const chunks: Buffer[] = [];
  while (!source.done) {
    const chunk = allocChunk();
    chunks.push(Buffer.from(chunk.subarray(0, source.fill(chunk))));
  }
  return chunks;
}

describe('emulator: report bytes', () => {
  const size = CHUNK_BYTES * 6 + 5;

  it('no two chunks of a report are equal, so a repeated or swapped chunk changes the bytes', () => {
    const chunks = chunksOf(3, 'scan-a', size);
    assert.equal(chunks.length, 7);
    assert.equal(chunks.at(-1)!.length, 5);
    const distinct = new Set(chunks.map((c) => c.toString('base64')));
    assert.equal(distinct.size, chunks.length);
  });

  it('the same report twice gives the same bytes; another scan or seed gives other bytes', () => {
    const whole = (seed: number, id: string) => Buffer.concat(chunksOf(seed, id, size));
    assert.ok(whole(3, 'scan-a').equals(whole(3, 'scan-a')));
    assert.ok(!whole(3, 'scan-a').equals(whole(3, 'scan-b')));
    assert.ok(!whole(4, 'scan-a').equals(whole(3, 'scan-a')));
  });

  it('a report starts as a PDF and ends with its trailer', () => {
    const whole = Buffer.concat(chunksOf(3, 'scan-a', size));
    assert.equal(whole.subarray(0, 8).toString('latin1'), '%PDF-1.7');
    assert.equal(whole.subarray(-7).toString('latin1'), '\n%%EOF\n');
  });
});
