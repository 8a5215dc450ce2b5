// Lists in answers, and lists spread over pages. Most lists are read tolerantly (`data: [...]`, or
// a list under a usual name in `data`). The results of a scan and the scan list decide verdicts,
// so they are read strictly: an answer that is not a list, an item that is not a record, a page
// cap, a cursor loop or a read past its deadline is an error naming the route, never a shorter list.
import type { Unwrapped } from './envelope.js';
import { isObject } from './envelope.js';
import { ServerError } from './errors.js';
import { LIST_FIELDS, markedList, type ListItemSink } from './list-stream.js';
import { MAX_ANSWER_BYTES, bytesText, seconds, withDeadline } from './transport.js';
import type { JsonObject, RequestOptions } from './types.js';

/** Pages followed at most in one paginated read (5,000 pages of 50 is 250,000 items). */
export const MAX_PAGES = 5_000;
/** Items kept at most in one paginated read: memory stays bounded whatever the pages hold. */
export const MAX_LIST_ITEMS = 250_000;
/** One paginated read, every page included, ends within this. */
export const LIST_READ_DEADLINE_MS = 15 * 60_000;
/** The answers of one paginated read hold at most this many bytes together: what the read keeps
 *  stays bounded however large each page (docs/guarantees.md, Bounds). */
export const MAX_LIST_BYTES = 32 * 1024 * 1024;

/** The list an answer carries: `data` itself, or a list under a usual name inside it. */
function listIn(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isObject(value)) return undefined;
  for (const name of LIST_FIELDS) {
    const inner = value[name];
    if (Array.isArray(inner)) return inner;
  }
  return undefined;
}

/** The records of a list answer; anything else reads as no records. */
export function tolerantList(value: unknown): JsonObject[] {
  return (listIn(value) ?? []).filter(isObject);
}

/** What an answer holds instead of a list, in words: "a string", "null", "an object without a list". */
function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (isObject(value)) return 'an object without a list';
  return `a ${typeof value}`;
}

export interface StrictListContext {
  /** "GET /scans/abc/results" */
  route: string;
  /** "results": what the items are, for messages. */
  items: string;
  /** Page number (1-based) of a paginated read, for messages. */
  page?: number;
  /** Extra check of each item; returns why it is not one, or undefined. */
  check?: (item: JsonObject) => string | undefined;
}

/** The records of a list answer, or a ServerError when the answer is not a list of records. */
export function strictList(value: unknown, ctx: StrictListContext): JsonObject[] {
  const where = ctx.page === undefined ? 'the answer' : `page ${ctx.page}`;
  const list = listIn(value);
  if (!list) {
    throw invalid(ctx.route, `${where} is not a list of ${ctx.items} (data is ${kindOf(value)})`);
  }
  list.forEach((item, index) => {
    const why = isObject(item) ? ctx.check?.(item) : `it is ${kindOf(item)}`;
    if (why)
      throw invalid(
        ctx.route,
        `item ${index + 1} of ${where} is not one of the ${ctx.items}: ${why}`,
      );
  });
  return list as JsonObject[];
}

/** meta.nextCursor as an offset; null on the last page (or when the service sent none). */
export function nextCursorOf(meta: JsonObject | undefined): number | null {
  const value = meta?.nextCursor;
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  return null;
}

export interface PageReadOptions<T> extends RequestOptions {
  /** The whole read's deadline (default LIST_READ_DEADLINE_MS). */
  deadlineMs?: number;
  maxPages?: number;
  maxItems?: number;
  /** The most bytes the answers of all pages may hold together (default MAX_LIST_BYTES). */
  maxBytes?: number;
  /** What is kept of each item as its page streams in (undefined: nothing); else the item. */
  keep?: (item: JsonObject) => T | undefined;
  /** Told when a page's answer starts to stream in (again, on a retry). */
  attemptStarted?: () => void;
  /** Told when a page is accepted whole: what `keep` was given since attemptStarted counts. */
  pageAccepted?: () => void;
}

/** What one page's request gets: where to start, the read's signal, the bytes its answer may
 *  hold (the read's budget left), and the sink of each attempt to stream its items into. */
export interface PageRequest {
  cursor: number | undefined;
  signal: AbortSignal;
  capBytes: number;
  listItems: () => ListItemSink;
}

/** One list of one attempt at a page: what was kept of its items, or why it is not a list. */
interface StreamedList<T> {
  kept: T[];
  items: number;
  problem?: ServerError;
}

/**
 * Every item of a cursor-paginated list, strictly read, each kept as `keep` says while its page
 * streams in. Bounded whatever the service sends: pages (maxPages), items (maxItems), the bytes of
 * all pages together (maxBytes: each page may hold only what is left) and time (deadlineMs).
 */
export async function readAllPages<T = JsonObject>(
  fetchPage: (request: PageRequest) => Promise<Unwrapped>,
  ctx: Omit<StrictListContext, 'page'>,
  options: PageReadOptions<T> = {},
): Promise<T[]> {
  const deadlineMs = options.deadlineMs ?? LIST_READ_DEADLINE_MS;
  const maxPages = options.maxPages ?? MAX_PAGES;
  const maxBytes = options.maxBytes ?? MAX_LIST_BYTES;
  const deadline = withDeadline(deadlineMs, options.signal);
  const read = { kept: [] as T[], items: 0, bytes: 0 };
  const seen = new Set<number>();
  let cursor: number | undefined;
  try {
    for (let page = 1; ; page++) {
      if (page > maxPages) {
        throw invalid(
          ctx.route,
          `more pages followed after ${maxPages}; stopped, the list was not read whole`,
          'PAGE_LIMIT',
        );
      }
      const next = await readPage(
        fetchPage,
        ctx,
        options,
        { page, cursor, read, maxBytes },
        deadline.signal,
      );
      if (next === null) return read.kept;
      if (seen.has(next) || (cursor !== undefined && next <= cursor)) {
        throw invalid(
          ctx.route,
          `the service repeated cursor ${next}; stopped to avoid a loop`,
          'PAGINATION_LOOP',
        );
      }
      seen.add(next);
      cursor = next;
    }
  } catch (error) {
    if (deadline.expired() && !options.signal?.aborted) throw readDeadline(ctx.route, deadlineMs);
    throw error;
  } finally {
    deadline.clear();
  }
}

interface PageState<T> {
  page: number;
  cursor: number | undefined;
  read: { kept: T[]; items: number; bytes: number };
  maxBytes: number;
}

/** One page into `state.read`; the next cursor, or null on the last page. */
async function readPage<T>(
  fetchPage: (request: PageRequest) => Promise<Unwrapped>,
  ctx: Omit<StrictListContext, 'page'>,
  options: PageReadOptions<T>,
  { page, cursor, read, maxBytes }: PageState<T>,
  signal: AbortSignal,
): Promise<number | null> {
  const left = maxBytes - read.bytes;
  const capBytes = Math.min(MAX_ANSWER_BYTES, left);
  let attempt: PageAttempt<T> | undefined;
  let unwrapped: Unwrapped;
  try {
    unwrapped = await fetchPage({
      cursor,
      signal,
      capBytes,
      listItems: () => {
        options.attemptStarted?.();
        return (attempt = new PageAttempt(ctx, options, page, read.items));
      },
    });
  } catch (error) {
    if (capBytes < MAX_ANSWER_BYTES && (error as { code?: unknown }).code === 'ANSWER_TOO_LARGE') {
      throw invalid(
        ctx.route,
        `the pages' answers passed ${bytesText(maxBytes)} in all; stopped, the list was not read whole`,
        'LIST_BYTES_LIMIT',
      );
    }
    throw error;
  }
  const { data, meta } = unwrapped;
  const list = listIn(data);
  const where = { ...ctx, page };
  const streamed = markedList(list);
  if (list === undefined || streamed === undefined || !attempt) {
    // Not streamed (a list the reader did not cut apart): read as it is, and nothing an earlier
    // attempt streamed counts.
    options.attemptStarted?.();
    const items = strictList(data, where);
    const kept = keepEach(items, options.keep);
    checkItems(ctx, read.items + items.length, options.maxItems);
    for (const item of kept) read.kept.push(item);
    read.items += items.length;
  } else {
    attempt.checkOneList(streamed);
    const chosen = attempt.list(streamed);
    if (chosen.problem) throw chosen.problem;
    for (const item of chosen.kept) read.kept.push(item);
    read.items += chosen.items;
  }
  read.bytes += attempt?.bytes ?? 0;
  options.pageAccepted?.();
  return nextCursorOf(meta);
}

function keepEach<T>(
  items: JsonObject[],
  keep: ((item: JsonObject) => T | undefined) | undefined,
): T[] {
  if (!keep) return items as T[];
  const kept: T[] = [];
  for (const item of items) {
    const value = keep(item);
    if (value !== undefined) kept.push(value);
  }
  return kept;
}

function checkItems(
  ctx: Omit<StrictListContext, 'page'>,
  count: number,
  maxItems = MAX_LIST_ITEMS,
): void {
  if (count > maxItems) {
    throw invalid(
      ctx.route,
      `more than ${maxItems} ${ctx.items}; stopped, the list was not read whole`,
      'LIST_LIMIT',
    );
  }
}

/** One attempt at a page: its lists' items checked and kept as they stream in. */
class PageAttempt<T> implements ListItemSink {
  bytes = 0;
  private readonly lists = new Map<number, StreamedList<T>>();

  constructor(
    private readonly ctx: Omit<StrictListContext, 'page'>,
    private readonly options: PageReadOptions<T>,
    private readonly page: number,
    private readonly before: number,
  ) {}

  received(bytes: number): void {
    this.bytes += bytes;
  }

  /** Items in one list only: an answer with items in two places (or a key given twice) is not
   *  one list, and what was kept of the other must not count. */
  checkOneList(chosen: number): void {
    for (const [number, list] of this.lists) {
      if (number !== chosen && list.items > 0) {
        throw invalid(
          this.ctx.route,
          `page ${this.page} holds ${this.ctx.items} in more than one list; stopped, the list was not read whole`,
        );
      }
    }
  }

  list(number: number): StreamedList<T> {
    let found = this.lists.get(number);
    if (!found) {
      found = { kept: [], items: 0 };
      this.lists.set(number, found);
    }
    return found;
  }

  item(number: number, value: unknown): void {
    const list = this.list(number);
    if (list.problem) return;
    list.items++;
    const why =
      value === undefined
        ? 'it is not JSON'
        : isObject(value)
          ? this.ctx.check?.(value)
          : `it is ${kindOf(value)}`;
    try {
      if (why) {
        throw invalid(
          this.ctx.route,
          `item ${list.items} of page ${this.page} is not one of the ${this.ctx.items}: ${why}`,
        );
      }
      checkItems(this.ctx, this.before + list.items, this.options.maxItems);
      const kept = this.options.keep ? this.options.keep(value as JsonObject) : (value as T);
      if (kept !== undefined) list.kept.push(kept);
    } catch (error) {
      if (!(error instanceof ServerError)) throw error;
      list.problem = error;
      list.kept = [];
    }
  }
}

/** The whole read passed its deadline: code READ_DEADLINE, which the faces word as a timeout. */
export function readDeadline(route: string, deadlineMs: number): ServerError {
  const within = deadlineMs % 60_000 === 0 ? `${deadlineMs / 60_000} minutes` : seconds(deadlineMs);
  return invalid(
    route,
    `the pages were not all read within ${within}; stopped, the list was not read whole`,
    'READ_DEADLINE',
  );
}

function invalid(route: string, detail: string, code = 'INVALID_RESPONSE'): ServerError {
  const [method, path] = route.split(' ');
  return new ServerError(`${route}: ${detail}.`, { code, method, path });
}
