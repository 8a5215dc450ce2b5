// The two throttle models of the seed (wall clock), keyed by account or by key.
import type { RateLimitModel } from './types.js';

export type Throttle = { limited: false } | { limited: true; retryAfterSeconds?: number };

interface Bucket {
  tokens: number;
  refilledAt: number;
}

export class RateLimiter {
  private buckets = new Map<string, Bucket>();
  private windows = new Map<string, number[]>();

  constructor(private model: RateLimitModel) {}

  set(model: RateLimitModel): void {
    this.model = model;
    this.buckets.clear();
    this.windows.clear();
  }

  check(tenantId: string, keyId: string, now = Date.now()): Throttle {
    switch (this.model.kind) {
      case 'account':
        return this.tokenBucket(
          tenantId,
          this.model.ratePerSecond ?? 100,
          this.model.burst ?? 500,
          now,
        );
      case 'per-key':
        return this.slidingWindow(keyId, this.model.perMinute ?? 120, now);
      default:
        return { limited: false };
    }
  }

  private tokenBucket(account: string, rate: number, burst: number, now: number): Throttle {
    const bucket = this.buckets.get(account) ?? { tokens: burst, refilledAt: now };
    bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.refilledAt) / 1000) * rate);
    bucket.refilledAt = now;
    this.buckets.set(account, bucket);
    if (bucket.tokens < 1) return { limited: true };
    bucket.tokens -= 1;
    return { limited: false };
  }

  private slidingWindow(keyId: string, perMinute: number, now: number): Throttle {
    const windowMs = 60_000;
    const hits = (this.windows.get(keyId) ?? []).filter((t) => t > now - windowMs);
    this.windows.set(keyId, hits);
    if (hits.length >= perMinute) {
      const oldest = hits[0] ?? now;
      return {
        limited: true,
        retryAfterSeconds: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
      };
    }
    hits.push(now);
    return { limited: false };
  }
}
