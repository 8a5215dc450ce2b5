// Scripted faults per route: which rule, if any, hits a request.
import type { Fault, FaultRule } from './types.js';
import { matchPattern, parsePattern, type Pattern } from './route-pattern.js';

interface ActiveRule {
  pattern: Pattern;
  key: string | undefined;
  fault: Fault;
  times: number;
  after: number;
  seen: number;
  hits: number;
}

export class FaultBook {
  private rules: ActiveRule[] = [];

  add(rule: FaultRule): void {
    this.rules.push({
      pattern: parsePattern(rule.route),
      key: rule.key,
      fault: rule.fault,
      times: rule.times ?? 1,
      after: rule.after ?? 0,
      seen: 0,
      hits: 0,
    });
  }

  clear(): void {
    this.rules = [];
  }

  /** The first rule that hits this request (counting it for every matching rule). `key`: the API
   *  key the request presents, if any. */
  take(method: string, segments: string[], key?: string): Fault | null {
    let chosen: Fault | null = null;
    for (const rule of this.rules) {
      if (!matchPattern(rule.pattern, method, segments)) continue;
      if (rule.key !== undefined && rule.key !== key) continue;
      if (rule.hits >= rule.times) continue;
      rule.seen++;
      if (rule.seen <= rule.after || chosen) continue;
      rule.hits++;
      chosen = rule.fault;
    }
    return chosen;
  }
}

export function defaultFaultCode(status: number): string {
  if (status === 429) return 'RATE_LIMITED';
  if (status === 503) return 'SERVICE_UNAVAILABLE';
  if (status === 502) return 'BAD_GATEWAY';
  if (status === 504) return 'GATEWAY_TIMEOUT';
  if (status === 401) return 'UNAUTHORIZED';
  if (status === 403) return 'AUTH_INSUFFICIENT_SCOPE';
  if (status === 404) return 'NOT_FOUND';
  if (status >= 500) return 'INTERNAL_ERROR';
  return 'ERROR';
}

export function retryAfterHeader(
  retryAfter: Extract<Fault, { kind: 'status' }>['retryAfter'],
): Record<string, string> {
  if (retryAfter === undefined) return {};
  if (typeof retryAfter === 'number') return { 'retry-after': String(retryAfter) };
  return { 'retry-after': new Date(Date.now() + retryAfter.httpDateSeconds * 1000).toUTCString() };
}
