// A list answer read as it arrives: the elements of its list are handed on one at a time, as JSON
// text, while the answer streams in, and the rest of the answer (the envelope, meta) is kept as a
// small document in which each list is one marker string. A page of 64 MiB is never one string
// and one parsed tree at once: what a read costs is what it keeps of each element.
//
// This is not a JSON parser. It finds the lists where lists.ts looks for one (the answer itself,
// `data`, a usual name in `data` or in the answer) by the answer's brackets, strings skipped, and
// cuts their elements apart at the commas between them; JSON.parse reads each element and the
// rest, so an answer that is not JSON is still refused as not JSON (an empty element, as in
// `[1,,2]`, is handed on as '', which is not JSON either).

import { randomBytes } from 'node:crypto';

/** The names a list goes by in an answer (lists.ts reads them in this order). */
export const LIST_FIELDS = ['items', 'results', 'findings', 'data', 'scans', 'reports'];

/** What a streamed list becomes in the rest of its answer: a string no service can send, since
 *  it is drawn when the process starts. */
export const LIST_MARKER = `tenant-scan-list-${randomBytes(12).toString('hex')}`;

/** The number of the streamed list `value` stands for (a list holding only its marker). */
export function markedList(value: unknown): number | undefined {
  if (!Array.isArray(value) || value.length !== 1 || typeof value[0] !== 'string') return undefined;
  const found = /^(.+):(\d+)$/.exec(value[0]);
  return found && found[1] === LIST_MARKER ? Number(found[2]) : undefined;
}

/** Told of each item of a list answer as it streams in, and of the bytes as they come. */
export interface ListItemSink {
  /** The item of list `list` (numbered in the answer's order), parsed without the key;
   *  undefined when its text is not JSON. */
  item(list: number, value: unknown): void;
  received(bytes: number): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
/** A key longer than this is no list's name: it is not read. */
const LONGEST_KEY_BYTES = 64;

interface Frame {
  array: boolean;
  /** The member of an object being read (null: none yet, or a key no list goes by). */
  key: string | null;
  /** The keys from the answer down to this container; null where no list is looked for. */
  path: readonly string[] | null;
  /** The list's number when this array is a list whose elements are cut apart, else -1. */
  list: number;
  /** In a list: an element was read since its `[` or its last `,`; a `,` was read. */
  element: boolean;
  comma: boolean;
}

type Route = 'skeleton' | 'element' | 'drop';

function isSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09;
}

/** Whether an array at `path` is where lists.ts may find the list. */
function isListPlace(path: readonly string[]): boolean {
  const [first = '', second = ''] = path;
  if (path.length === 0) return true;
  if (path.length === 1) return first === 'data' || LIST_FIELDS.includes(first);
  return path.length === 2 && first === 'data' && LIST_FIELDS.includes(second);
}

export interface ListElementSink {
  /** The JSON text of the next element of list `list` (numbered in the answer's order). */
  element(list: number, text: string): void;
}

export class ListSplitter {
  private readonly stack: Frame[] = [];
  private readonly skeleton: Buffer[] = [];
  private readonly pieces: Buffer[] = [];
  private lists = 0;
  private route: Route = 'skeleton';
  private inString = false;
  private escaped = false;
  /** The bytes of the key being read (null: this string is no key, or too long for one). */
  private keyBytes: Buffer[] | null = null;
  private keyLength = 0;
  private lastKey: string | null = null;
  /** In an object, after `{` or `,`: the next string is a key. */
  private expectKey = false;
  /** How many frames deep the element being read starts (0: none is being read). */
  private elementDepth = 0;
  /** A bracket closed what an element did not open: the answer is not JSON (end() says so). */
  private broken = false;

  /** `marker`: what each list becomes in the rest of the answer (`["<marker>:<n>"]`). */
  constructor(
    private readonly sink: ListElementSink,
    private readonly marker: string,
  ) {}

  write(chunk: Buffer): void {
    if (this.broken) return;
    let from = 0;
    const to = (route: Route, at: number) => {
      this.take(chunk, from, at);
      this.route = route;
      from = at;
    };
    let i = 0;
    while (i < chunk.length) {
      if (this.inString) {
        i = this.skipString(chunk, i);
        continue;
      }
      const byte = chunk[i] as number;
      const top = this.stack[this.stack.length - 1];
      if (top && top.list >= 0 && this.elementDepth === 0) {
        // Between a list's elements: one begins, or a separator, or the list's end.
        if (byte === CLOSE_ARRAY) {
          if (top.comma && !top.element) this.sink.element(top.list, '');
          to('skeleton', i);
          this.close();
        } else if (byte === COMMA) {
          if (!top.element) this.sink.element(top.list, '');
          top.element = false;
          top.comma = true;
          to('drop', i);
        } else if (isSpace(byte)) {
          to('drop', i);
        } else {
          to('element', i);
          this.elementDepth = this.stack.length;
          continue;
        }
        i++;
        continue;
      }
      const atList = this.elementDepth > 0 && this.elementDepth === this.stack.length;
      if (atList && (byte === COMMA || byte === CLOSE_ARRAY)) {
        this.take(chunk, from, i);
        from = i;
        this.endElement();
        continue; // the separator, read again between elements
      }
      i = this.structural(chunk, i, byte, (at) => to('skeleton', at));
      if (this.broken) return;
    }
    this.take(chunk, from, chunk.length);
  }

  /** The answer without its lists' elements: each list holds one marker string instead (not
   *  JSON when the answer was not). */
  end(): Buffer {
    return this.broken ? Buffer.from('(not JSON)') : Buffer.concat(this.skeleton);
  }

  private take(chunk: Buffer, from: number, to: number): void {
    if (to <= from || this.route === 'drop') return;
    (this.route === 'element' ? this.pieces : this.skeleton).push(chunk.subarray(from, to));
  }

  private endElement(): void {
    const list = this.stack[this.stack.length - 1] as Frame;
    const [only] = this.pieces;
    const text =
      this.pieces.length === 1 && only
        ? only.toString('utf8')
        : Buffer.concat(this.pieces).toString('utf8');
    this.pieces.length = 0;
    this.elementDepth = 0;
    this.route = 'drop';
    list.element = true;
    this.sink.element(list.list, text);
  }

  /** Past a string's bytes from `i` (its opening quote already read): to the byte after its
   *  closing quote, or the chunk's end. A key's bytes are noted on the way. */
  private skipString(chunk: Buffer, i: number): number {
    let at = i;
    if (this.escaped) {
      this.escaped = false;
      at++;
    }
    for (;;) {
      const quote = chunk.indexOf(QUOTE, at);
      if (quote === -1) {
        this.escaped = trailingBackslashes(chunk, at, chunk.length) % 2 === 1;
        this.noteKey(chunk, i, chunk.length);
        return chunk.length;
      }
      if (trailingBackslashes(chunk, at, quote) % 2 === 0) {
        this.noteKey(chunk, i, quote);
        this.inString = false;
        this.finishKey();
        return quote + 1;
      }
      at = quote + 1;
    }
  }

  private noteKey(chunk: Buffer, from: number, to: number): void {
    if (!this.keyBytes) return;
    this.keyLength += to - from;
    if (this.keyLength > LONGEST_KEY_BYTES) this.keyBytes = null;
    else this.keyBytes.push(chunk.subarray(from, to));
  }

  private finishKey(): void {
    if (!this.keyBytes) return;
    const text = Buffer.concat(this.keyBytes).toString('utf8');
    this.keyBytes = null;
    try {
      this.lastKey = JSON.parse(`"${text}"`) as string;
    } catch {
      this.lastKey = null;
    }
  }

  private structural(chunk: Buffer, i: number, byte: number, toSkeleton: (at: number) => void) {
    const top = this.stack[this.stack.length - 1];
    const reading = this.elementDepth === 0;
    switch (byte) {
      case QUOTE:
        this.inString = true;
        this.keyBytes = reading && this.expectKey && top && !top.array ? [] : null;
        this.keyLength = 0;
        this.lastKey = null;
        return i + 1;
      case COLON:
        if (reading && top && !top.array) {
          top.key = this.lastKey;
          this.expectKey = false;
        }
        return i + 1;
      case COMMA:
        if (top && !top.array) top.key = null;
        this.expectKey = top !== undefined && !top.array;
        return i + 1;
      case OPEN_OBJECT:
      case OPEN_ARRAY:
        this.open(i, byte === OPEN_ARRAY, reading, toSkeleton);
        return i + 1;
      case CLOSE_OBJECT:
      case CLOSE_ARRAY:
        this.close();
        return i + 1;
      default:
        return i + 1;
    }
  }

  private open(i: number, array: boolean, reading: boolean, toSkeleton: (at: number) => void) {
    const parent = this.stack[this.stack.length - 1];
    let path: readonly string[] | null = null;
    if (reading && !parent) path = [];
    else if (reading && parent && !parent.array && parent.key !== null && parent.path)
      path = parent.path.length < 2 ? [...parent.path, parent.key] : null;
    const frame: Frame = { array, key: null, path, list: -1, element: false, comma: false };
    if (array && path !== null && isListPlace(path)) {
      frame.list = this.lists++;
      toSkeleton(i);
      this.skeleton.push(Buffer.from(`[${JSON.stringify(`${this.marker}:${frame.list}`)}`));
      this.route = 'drop';
    }
    this.stack.push(frame);
    this.expectKey = !array;
  }

  private close(): void {
    if (this.elementDepth > 0 && this.stack.length <= this.elementDepth) this.broken = true;
    this.stack.pop();
    this.expectKey = false;
  }
}

/** How many backslashes end the bytes [from, to): an odd number escapes what follows. */
function trailingBackslashes(chunk: Buffer, from: number, to: number): number {
  let count = 0;
  for (let at = to - 1; at >= from && chunk[at] === BACKSLASH; at--) count++;
  return count;
}
