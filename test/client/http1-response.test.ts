// http1-response.ts: the head and the body come out right however the bytes are split, and every
// malformed or cut-short response is an error, never a short file taken for a whole one.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  BodyDecoder,
  framingOf,
  HeadReader,
  ResponseFormatError,
} from '../../src/client/http1-response.js';

/** Feeds `wire` in pieces of the given sizes (cycled) through a head reader and body decoder. */
function read(wire: Buffer, sizes: number[]) {
  const heads = new HeadReader();
  let decoder: BodyDecoder | undefined;
  let head: ReturnType<HeadReader['feed']>;
  const body: Buffer[] = [];
  let offset = 0;
  for (let turn = 0; offset < wire.length; turn++) {
    const piece = wire.subarray(offset, offset + sizes[turn % sizes.length]!);
    offset += piece.length;
    // A reused read buffer: the decoder's views must be consumed before the next read.
    const reused = Buffer.from(piece);
    if (!decoder) {
      head = heads.feed(reused);
      if (!head) continue;
      decoder = new BodyDecoder(framingOf(head.head));
      decoder.feed(reused.subarray(head.bodyStart), (b) => body.push(Buffer.from(b)));
    } else {
      decoder.feed(reused, (b) => body.push(Buffer.from(b)));
    }
    reused.fill(0);
  }
  return { head: head!.head, decoder: decoder!, body: Buffer.concat(body) };
}

const payload = Buffer.from('0123456789abcdefghijklmnopqrstuvwxyz'.repeat(50));
const chunked = (parts: Buffer[], trailer = '') =>
  Buffer.concat([
    Buffer.from('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nX-A: 1\r\nX-A: 2\r\n\r\n'),
    ...parts.flatMap((p, i) => [
      Buffer.from(`${p.length.toString(16)}${i % 2 ? ';ext=1' : ''}\r\n`),
      p,
      Buffer.from('\r\n'),
    ]),
    Buffer.from(`0\r\n${trailer}\r\n`),
  ]);

describe('HTTP/1.1 response reader', () => {
  for (const sizes of [[1], [2, 3, 5], [7, 64, 1000], [100_000]]) {
    it(`chunked body split in pieces of ${sizes.join('/')} bytes`, () => {
      const parts = [payload.subarray(0, 10), payload.subarray(10, 1000), payload.subarray(1000)];
      const { head, decoder, body } = read(chunked(parts, 'X-Trailer: t\r\n'), sizes);
      assert.equal(head.status, 200);
      assert.deepEqual(head.headers['x-a'], ['1', '2']);
      assert.ok(body.equals(payload));
      assert.ok(decoder.complete);
    });

    it(`Content-Length body split in pieces of ${sizes.join('/')} bytes, extra bytes ignored`, () => {
      const wire = Buffer.concat([
        Buffer.from(
          `HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: ${payload.length}\r\n\r\n`,
        ),
        payload,
        Buffer.from('GARBAGE'),
      ]);
      const { head, decoder, body } = read(wire, sizes);
      assert.equal(head.status, 200);
      assert.ok(body.equals(payload));
      assert.ok(decoder.complete);
    });
  }

  it('a body cut short is an error naming what is missing; until-close bodies end with the connection', () => {
    const short = read(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n12345'), [3]);
    assert.throws(
      () => short.decoder.end(),
      /closed before the body was complete \(5 bytes missing\)/,
    );
    const cutChunked = read(chunked([payload]).subarray(0, 100), [9]);
    assert.throws(() => cutChunked.decoder.end(), ResponseFormatError);
    const open = read(Buffer.from('HTTP/1.0 200 OK\r\n\r\nall of it'), [4]);
    assert.equal(open.decoder.complete, false);
    open.decoder.end();
    assert.equal(open.body.toString(), 'all of it');
  });

  it('no body for 204; a zero Content-Length is complete at once', () => {
    assert.deepEqual(framingOf({ status: 204, headers: {} }), { kind: 'none' });
    const empty = read(Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n'), [5]);
    assert.ok(empty.decoder.complete);
  });

  it('refuses malformed responses', () => {
    const bad = [
      'SSH-2.0-OpenSSH\r\n\r\n',
      'HTTP/1.1 2000 OK\r\n\r\n',
      'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
      'HTTP/1.1 200 OK\r\n folded: value\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\n',
      'HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
      'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabc\r\n',
    ];
    for (const text of bad) {
      assert.throws(() => read(Buffer.from(text), [4]), ResponseFormatError, JSON.stringify(text));
    }
    assert.throws(
      () => read(Buffer.from(`HTTP/1.1 200 OK\r\nX: ${'a'.repeat(70_000)}`), [4096]),
      /head too large/,
    );
  });

  it('Transfer-Encoding wins over Content-Length; a non-chunked coding reads to the close', () => {
    const both = { 'transfer-encoding': 'chunked', 'content-length': '3' };
    assert.deepEqual(framingOf({ status: 200, headers: both }), { kind: 'chunked' });
    const gzip = { 'transfer-encoding': 'gzip' };
    assert.deepEqual(framingOf({ status: 200, headers: gzip }), { kind: 'until-close' });
  });
});
