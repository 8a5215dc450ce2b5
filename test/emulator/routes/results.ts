// GET /scans/:id/results: generated on demand, filtered, optionally paginated, streamed as JSON.
import { ApiError, validation, type ApiResponse } from '../http-response.js';
import { findingJson, ResultLayout, type FindingResult } from '../findings.js';
import { outcomeCounts, scanStateAt } from '../scan-lifecycle.js';
import { echoedTexts } from './echo.js';
import { findScan } from './scans.js';
import type { RequestContext, Route } from './route.js';
import type { ScanRecord } from '../store.js';

const RESULT_VALUES: FindingResult[] = ['Passed', 'Failed', 'Skipped', 'Error'];
const ITEMS_PER_CHUNK = 500;

function resultFilter(ctx: RequestContext): FindingResult | null {
  const raw = ctx.query.get('result');
  if (raw === null || raw === '' || ctx.rt.variant.ignoreResultFilter) return null;
  const match = RESULT_VALUES.find((v) => v.toLowerCase() === raw.toLowerCase());
  if (!match) throw validation(`result must be one of: ${RESULT_VALUES.join(', ')}`);
  return match;
}

export function nonNegativeInt(raw: string | null, name: string, fallback: number): number {
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw validation(`${name} must be a non-negative integer`);
  return Number(raw);
}

function pageSize(ctx: RequestContext): number {
  const variantSize = ctx.rt.variant.resultsPageSize;
  if (variantSize !== undefined) return Math.max(1, variantSize);
  const limit = nonNegativeInt(ctx.query.get('limit'), 'limit', 0);
  return limit > 0 ? limit : Infinity;
}

/** One layout per completed scan (its results never change), so that the pages of one read share
 *  the index of a filter: a scan of 250,000 results read in 5,000 pages is one pass, not 5,000. */
const layouts = new WeakMap<ScanRecord, ResultLayout>();

function layoutOf(scan: ScanRecord, seed: number): ResultLayout {
  let layout = layouts.get(scan);
  if (!layout) {
    layout = new ResultLayout(outcomeCounts(scan, seed), seed, scan.resultsKey);
    layouts.set(scan, layout);
  }
  return layout;
}

function readResults(ctx: RequestContext): ApiResponse {
  const scan = findScan(ctx);
  const { status } = scanStateAt(scan, ctx.rt.clock.now());
  if (status === 'queued' || status === 'running') {
    throw new ApiError(
      409,
      'SCAN_NOT_COMPLETED',
      `Scan is ${status}; results are available when it has finished`,
    );
  }
  const filter = resultFilter(ctx);
  const cursor = nonNegativeInt(ctx.query.get('cursor'), 'cursor', 0);
  const layout =
    status === 'completed'
      ? layoutOf(scan, ctx.rt.settings.seed)
      : new ResultLayout(
          { total: 0, failed: 0, skipped: 0 },
          ctx.rt.settings.seed,
          scan.resultsKey,
        );
  const page = layout.select(filter, cursor, pageSize(ctx));
  // A drop-failed fault: the page without its failed results, in any case of the word, as the
  // counts count them (it disagrees with the counts).
  const indices = ctx.dropFailed
    ? page.indices.filter((i) => layout.resultAt(i).toLowerCase() !== 'failed')
    : page.indices;
  const next = page.next;
  const { seed, variant } = ctx.rt.settings;
  const echoed = echoedTexts(ctx);
  const items = (function* () {
    yield '{"success":true,"data":[';
    for (let start = 0; start < indices.length; start += ITEMS_PER_CHUNK) {
      const part = indices
        .slice(start, start + ITEMS_PER_CHUNK)
        .map((i) => findingJson(seed, scan.id, i, layout.resultAt(i), variant, echoed));
      yield (start > 0 ? ',' : '') + part.join(',');
    }
    yield `],"meta":${JSON.stringify({ nextCursor: next })}}`;
  })();
  return {
    status: 200,
    headers: { 'content-type': 'application/json; charset=utf-8' },
    body: items,
  };
}

export const resultRoutes: Route[] = [{ route: 'GET /scans/:id/results', handle: readResults }];
