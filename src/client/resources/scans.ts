// Scans: list, trigger, read, follow, results, cancel, hide, unhide, delete.

import { segment } from '../config.js';
import { isObject } from '../envelope.js';
import { NetworkError } from '../errors.js';
import { resultMatches } from '../findings.js';
import { readAllPages, strictList } from '../lists.js';
import { toScan } from '../scan-status.js';
import type {
  Finding,
  JsonObject,
  RequestOptions,
  ResultsReadOptions,
  Scan,
  TenantClient,
} from '../types.js';
import { waitForScan } from '../wait.js';
import { idempotentPatch, objectOrNull, type ResourceApi } from './api.js';

export function scansResource(api: ResourceApi): TenantClient['scans'] {
  // The scan keeps the id it was asked for, whatever id its body names.
  const getScan = async (id: string, o?: RequestOptions) => {
    const path = `/scans/${segment(id)}`;
    return received({ ...toScan(await api.data({ method: 'GET', path, signal: o?.signal })), id });
  };
  const pollScan = sharedPoll(getScan);
  return {
    list: async (o) =>
      strictList(await api.get('/tenants/me/scans', o), {
        route: 'GET /tenants/me/scans',
        items: 'scans',
      }).map((raw) => toScan(raw)),
    create: async (scanType, o) => {
      const path = '/tenants/me/scans';
      const answer = await api.data({
        method: 'POST',
        path,
        body: { scanType },
        signal: o?.signal,
      });
      const scan = toScan(answer);
      if (scan.id === '') throw answerWithoutScanId(path);
      return received(scan);
    },
    get: getScan,
    results: (id, o) => readResults(api, id, o),
    cancel: async (id, o) => {
      const d = await api.data({
        method: 'POST',
        path: `/scans/${segment(id)}/cancel`,
        signal: o?.signal,
      });
      return isObject(d) ? toScan(d, id) : null;
    },
    hide: async (id, o) =>
      objectOrNull(await api.data(idempotentPatch(`/scans/${segment(id)}/hide`, o))),
    unhide: async (id, o) =>
      objectOrNull(await api.data(idempotentPatch(`/scans/${segment(id)}/unhide`, o))),
    delete: (id, o) =>
      api.nothing({ method: 'DELETE', path: `/scans/${segment(id)}`, signal: o?.signal }),
    wait: (id, o) => {
      segment(id); // an empty id fails here, not at the first iteration
      return waitForScan(id, pollScan, o);
    },
  };
}

// Results decide verdicts: read whole or not at all (lists.ts), each a record with a result word.
// Each page streams in and only what `keep` keeps of each result stays (results the server should
// have filtered out are dropped as they come).
async function readResults<T>(
  api: ResourceApi,
  id: string,
  o: ResultsReadOptions<T> = {},
): Promise<T[]> {
  const path = `/scans/${segment(id)}/results`;
  const wanted = o.result;
  const matches = o.matches ?? ((finding: Finding) => resultMatches(finding, wanted ?? ''));
  const keep = (finding: Finding): T | undefined => {
    if (wanted && !matches(finding)) return undefined;
    return o.keep ? o.keep(finding) : (finding as T);
  };
  return readAllPages(
    ({ cursor, signal, capBytes, listItems }) =>
      api.requester.call({
        method: 'GET',
        path,
        query: { result: wanted, cursor },
        signal,
        capBytes,
        listItems,
      }),
    { route: `GET ${path}`, items: 'results', check: resultWordProblem },
    {
      signal: o.signal,
      maxBytes: o.maxBytes,
      keep,
      attemptStarted: o.attemptStarted,
      pageAccepted: o.pageAccepted,
    },
  );
}

/** A snapshot stamped with when its answer arrived (wait places the scan's start from it). */
function received(scan: Scan): Scan {
  return { ...scan, receivedAt: Date.now() };
}

/** A trigger answered with success but no scan id: the scan may exist, like after a lost answer,
 *  so it is a NetworkError that may have been processed (the caller looks the scan up). */
function answerWithoutScanId(path: string): NetworkError {
  return new NetworkError(
    `POST ${path}: the answer carried no scan id. The server may have started the scan, so the request was NOT sent again: check the current state before retrying.`,
    { code: 'INVALID_RESPONSE', method: 'POST', path, mayHaveBeenProcessed: true },
  );
}

interface SharedPoll {
  promise: Promise<Scan>;
  controller: AbortController;
  waiters: number;
}

/**
 * One GET /scans/{id} in flight per scan, however many waiters follow it. Each waiter can leave
 * through its own signal; the request itself is aborted when the last waiter has left.
 */
function sharedPoll(getScan: (id: string, o?: RequestOptions) => Promise<Scan>) {
  const inflight = new Map<string, SharedPoll>();
  return (id: string, signal: AbortSignal | undefined): Promise<Scan> => {
    const forget = (entry: SharedPoll) => inflight.get(id) === entry && inflight.delete(id);
    let shared = inflight.get(id);
    if (!shared) {
      const controller = new AbortController();
      const entry: SharedPoll = {
        promise: getScan(id, { signal: controller.signal }),
        controller,
        waiters: 0,
      };
      entry.promise.then(
        () => forget(entry),
        () => forget(entry),
      );
      inflight.set(id, entry);
      shared = entry;
    }
    shared.waiters++;
    return new Promise<Scan>((resolve, reject) => {
      let left = false;
      /** True the first time only: a waiter leaves once, by abort or by the answer. */
      const leave = () => {
        if (left) return false;
        left = true;
        signal?.removeEventListener('abort', onAbort);
        shared.waiters--;
        return true;
      };
      const onAbort = () => {
        if (!leave()) return;
        if (shared.waiters === 0) {
          forget(shared); // a later waiter starts a fresh request instead of joining this one
          shared.controller.abort(signal?.reason);
        }
        reject(signal?.reason);
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener('abort', onAbort, { once: true });
      shared.promise.then(
        (scan) => leave() && resolve(scan),
        (error: unknown) => leave() && reject(error),
      );
    });
  };
}

/** A result the seed describes has a result word (`Failed`, `Passed`, …): without one it cannot be
 *  judged, and a verdict must not rest on it. */
function resultWordProblem(item: JsonObject): string | undefined {
  return typeof item.result === 'string' && item.result.trim() !== ''
    ? undefined
    : 'it has no result word';
}
