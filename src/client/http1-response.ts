// Reading one HTTP/1.1 response from a byte stream (RFC 9112): the head, then the body framed by
// Content-Length, chunked transfer coding, or the end of the connection. Pure: it sees bytes and
// hands body bytes on as views of what it was given (valid only during the call).

export interface ResponseHead {
  status: number;
  headers: Record<string, string | string[]>;
}

export class ResponseFormatError extends Error {
  readonly code = 'HTTP_RESPONSE_INVALID';
}

const MAX_HEAD_BYTES = 64 << 10;
const MAX_CHUNK_LINE_BYTES = 4 << 10;
const HEAD_END = Buffer.from('\r\n\r\n');

/** Collects bytes until a final (non-1xx) head is complete. */
export class HeadReader {
  private pending: Buffer = Buffer.alloc(0);

  /** The head and the offset in `chunk` where the body starts, or undefined: feed more. */
  feed(chunk: Uint8Array): { head: ResponseHead; bodyStart: number } | undefined {
    let before = this.pending.length; // where `chunk` starts in `pending`
    this.pending = Buffer.concat([this.pending, chunk]);
    for (;;) {
      const end = this.pending.indexOf(HEAD_END);
      if (end < 0) {
        if (this.pending.length > MAX_HEAD_BYTES)
          throw new ResponseFormatError('response head too large');
        return undefined;
      }
      const head = parseHead(this.pending.subarray(0, end).toString('latin1'));
      const rest = end + HEAD_END.length;
      if (head.status >= 200 || head.status === 101) {
        return { head, bodyStart: rest - before };
      }
      // An informational answer (100 Continue, 103 Early Hints): the real one follows.
      this.pending = this.pending.subarray(rest);
      before -= rest;
    }
  }
}

function parseHead(text: string): ResponseHead {
  const [statusLine = '', ...lines] = text.split('\r\n');
  const match = /^HTTP\/1\.[01] (\d{3})(?: .*)?$/.exec(statusLine);
  if (!match) throw new ResponseFormatError('not an HTTP/1.1 response');
  const headers: Record<string, string | string[]> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon <= 0 || /^[ \t]/.test(line)) throw new ResponseFormatError('malformed header line');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    const seen = headers[name];
    headers[name] = seen === undefined ? value : [...(Array.isArray(seen) ? seen : [seen]), value];
  }
  return { status: Number(match[1]), headers };
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

export type Framing =
  | { kind: 'none' }
  | { kind: 'length'; bytes: number }
  | { kind: 'chunked' }
  | { kind: 'until-close' };

/** How the body of a response to a GET ends. */
export function framingOf(head: ResponseHead): Framing {
  if (head.status === 204 || head.status === 304 || head.status < 200) return { kind: 'none' };
  const coding = single(head.headers['transfer-encoding']);
  if (coding !== undefined) {
    const last = coding.split(',').at(-1)?.trim().toLowerCase();
    return last === 'chunked' ? { kind: 'chunked' } : { kind: 'until-close' };
  }
  const lengths = single(head.headers['content-length']);
  if (lengths === undefined) return { kind: 'until-close' };
  const distinct = new Set(lengths.split(',').map((v) => v.trim()));
  const [length] = distinct;
  if (distinct.size !== 1 || length === undefined || !/^\d{1,15}$/.test(length)) {
    throw new ResponseFormatError('invalid Content-Length');
  }
  return { kind: 'length', bytes: Number(length) };
}

type ChunkState = 'size' | 'data' | 'data-end' | 'trailer';

/** Turns the framed body into its bytes. */
export class BodyDecoder {
  private remaining: number;
  private state: ChunkState = 'size';
  private line = '';
  private done: boolean;

  constructor(private readonly framing: Framing) {
    this.remaining = framing.kind === 'length' ? framing.bytes : 0;
    this.done = framing.kind === 'none' || (framing.kind === 'length' && framing.bytes === 0);
  }

  get complete(): boolean {
    return this.done;
  }

  /** Hands the body bytes of `chunk` to `onData`; bytes after the body's end are ignored. */
  feed(chunk: Uint8Array, onData: (bytes: Uint8Array) => void): void {
    if (this.done || chunk.length === 0) return;
    if (this.framing.kind === 'until-close') return onData(chunk);
    if (this.framing.kind === 'length') {
      const take = Math.min(this.remaining, chunk.length);
      this.remaining -= take;
      this.done = this.remaining === 0;
      return onData(take === chunk.length ? chunk : chunk.subarray(0, take));
    }
    this.feedChunked(chunk, onData);
  }

  /** The connection ended: fine only if the framing says the body is whole. */
  end(): void {
    if (this.framing.kind === 'until-close') this.done = true;
    if (this.done) return;
    const missing = this.framing.kind === 'length' ? ` (${this.remaining} bytes missing)` : '';
    throw new ResponseFormatError(`the connection closed before the body was complete${missing}`);
  }

  private feedChunked(chunk: Uint8Array, onData: (bytes: Uint8Array) => void): void {
    let at = 0;
    while (at < chunk.length && !this.done) {
      if (this.state === 'data') {
        const take = Math.min(this.remaining, chunk.length - at);
        onData(chunk.subarray(at, at + take));
        at += take;
        this.remaining -= take;
        if (this.remaining === 0) this.state = 'data-end';
        continue;
      }
      const newline = chunk.indexOf(0x0a, at);
      const stop = newline < 0 ? chunk.length : newline + 1;
      this.line += Buffer.from(chunk.buffer, chunk.byteOffset + at, stop - at).toString('latin1');
      at = stop;
      if (this.line.length > MAX_CHUNK_LINE_BYTES)
        throw new ResponseFormatError('chunk line too long');
      if (newline >= 0) this.endOfLine(this.line.replace(/\r?\n$/, ''));
    }
  }

  private endOfLine(line: string): void {
    this.line = '';
    if (this.state === 'data-end') {
      if (line !== '') throw new ResponseFormatError('chunk data longer than its size');
      this.state = 'size';
    } else if (this.state === 'size') {
      const size = line.split(';')[0]!.trim();
      if (!/^[0-9a-fA-F]{1,12}$/.test(size)) throw new ResponseFormatError('invalid chunk size');
      this.remaining = parseInt(size, 16);
      this.state = this.remaining === 0 ? 'trailer' : 'data';
    } else if (line === '') {
      this.done = true; // the empty line after the trailer fields
    }
  }
}
