// What a route handler receives and returns.
import type { ApiResponse } from '../http-response.js';
import type { Runtime } from '../runtime.js';
import type { KeyRecord, TenantRecord } from '../store.js';

export interface RequestContext {
  rt: Runtime;
  tenant: TenantRecord;
  key: KeyRecord;
  method: string;
  params: Record<string, string>;
  query: URLSearchParams;
  /** The JSON object body ({} when empty); 400 VALIDATION_ERROR when it is not an object. */
  body(): Promise<Record<string, unknown>>;
  /** A drop-failed fault hit this request: a results page leaves out its failed results. */
  dropFailed?: boolean;
}

export interface Route {
  /** "METHOD /path/:param", relative to the API base. */
  route: string;
  handle(ctx: RequestContext): ApiResponse | Promise<ApiResponse>;
}
