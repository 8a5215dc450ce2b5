// Lists in answers, and lists spread over pages. Most lists are read tolerantly (`data: [...]`, or
// a list under a usual name in `data`). The results of a scan and the scan list decide verdicts,
// so they are read strictly: an answer that is not a list, an item that is not a record, a page
// cap, a cursor loop or a read past its deadline is an error naming the route, never a shorter list.
import type { Unwrapped } from './envelope.js';
import { isObject } from './envelope.js';
import { ServerError } from './errors.js';
import { withDeadline } from './transport.js';
import type { JsonObject, RequestOptions } from './types.js';

/** Pages followed at most in one paginated read (5,000 pages of 50 is 250,000 items). */
export const MAX_PAGES = 5_000;
/** Items kept at most in one paginated read: memory stays bounded whatever the pages hold. */
export const MAX_LIST_ITEMS = 250_000;
/** One paginated read, every page included, ends within this. */
export const LIST_READ_DEADLINE_MS = 15 * 60_000;

const LIST_FIELDS = ['items', 'results', 'findings', 'data', 'scans', 'reports'];

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

export interface PageReadOptions extends RequestOptions {
  /** The whole read's deadline (default LIST_READ_DEADLINE_MS). */
  deadlineMs?: number;
  maxPages?: number;
  maxItems?: number;
}

/**
 * Every item of a cursor-paginated list, strictly read. `fetchPage` gets the cursor (undefined
 * first) and a signal that also carries the read's deadline.
 */
export async function readAllPages(
  fetchPage: (cursor: number | undefined, signal: AbortSignal) => Promise<Unwrapped>,
  ctx: Omit<StrictListContext, 'page'>,
  options: PageReadOptions = {},
): Promise<JsonObject[]> {
  const deadlineMs = options.deadlineMs ?? LIST_READ_DEADLINE_MS;
  const maxPages = options.maxPages ?? MAX_PAGES;
  const maxItems = options.maxItems ?? MAX_LIST_ITEMS;
  const deadline = withDeadline(deadlineMs, options.signal);
  const items: JsonObject[] = [];
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
      const { data, meta } = await fetchPage(cursor, deadline.signal);
      const pageItems = strictList(data, { ...ctx, page });
      if (items.length + pageItems.length > maxItems) {
        throw invalid(
          ctx.route,
          `more than ${maxItems} ${ctx.items}; stopped, the list was not read whole`,
          'LIST_LIMIT',
        );
      }
      for (const item of pageItems) items.push(item);
      const next = nextCursorOf(meta);
      if (next === null) return items;
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
    if (deadline.expired() && !options.signal?.aborted) {
      throw invalid(
        ctx.route,
        `the pages were not all read within ${Math.round(deadlineMs / 60_000)} min; stopped, the list was not read whole`,
        'READ_DEADLINE',
      );
    }
    throw error;
  }
}

function invalid(route: string, detail: string, code = 'INVALID_RESPONSE'): ServerError {
  const [method, path] = route.split(' ');
  return new ServerError(`${route}: ${detail}.`, { code, method, path });
}
