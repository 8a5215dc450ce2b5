// What every resource module builds on: one requester, and the shapes of the calls it makes.

import { isObject } from '../envelope.js';
import { tolerantList } from '../lists.js';
import type { ApiCall, Requester } from '../requester.js';
import type { JsonObject, RequestOptions } from '../types.js';

export interface ResourceApi {
  requester: Requester;
  /** The answer's `data`. */
  data(call: ApiCall): Promise<unknown>;
  get(path: string, o?: RequestOptions): Promise<unknown>;
  /** The answer's `data` as an object ({} when it is not one). */
  object(call: ApiCall): Promise<JsonObject>;
  /** A list read tolerantly: any list of objects, wherever the service put it. */
  list(path: string, o?: RequestOptions): Promise<JsonObject[]>;
  /** A call whose answer carries nothing (a delete). */
  nothing(call: ApiCall): Promise<void>;
}

export function resourceApi(requester: Requester): ResourceApi {
  const data = async (call: ApiCall): Promise<unknown> => (await requester.call(call)).data;
  const get = (path: string, o?: RequestOptions) =>
    data({ method: 'GET', path, signal: o?.signal });
  return {
    requester,
    data,
    get,
    object: async (call) => asObject(await data(call)),
    list: async (path, o) => tolerantList(await get(path, o)),
    nothing: async (call) => {
      await requester.call(call);
    },
  };
}

/** hide/unhide and target updates set a state: repeating them is harmless, so they may be retried. */
export function idempotentPatch(path: string, o?: RequestOptions): ApiCall {
  return { method: 'PATCH', path, idempotent: true, signal: o?.signal };
}

export function asObject(value: unknown): JsonObject {
  return isObject(value) ? value : {};
}

export function objectOrNull(value: unknown): JsonObject | null {
  return isObject(value) ? value : null;
}
