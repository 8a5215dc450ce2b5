// Everything a request handler may touch, built once per emulator.
import { createHmac } from 'node:crypto';
import type { EmulatorOptions, UnknownsVariant } from './types.js';
import { Clock } from './clock.js';
import { Store } from './store.js';
import { FaultBook } from './faults.js';
import { RateLimiter } from './rate-limit.js';
import { EventDispatcher } from './events.js';
import { RequestLog } from './request-log.js';

export interface Settings {
  seed: number;
  basePath: string;
  warmupMs: number;
  downloadTtlMs: number;
  reportSizeBytes: number;
  reportRenderMs: number;
  variant: UnknownsVariant;
}

export class Runtime {
  readonly settings: Settings;
  readonly clock: Clock;
  readonly store: Store;
  readonly faults = new FaultBook();
  readonly limiter: RateLimiter;
  readonly events: EventDispatcher;
  readonly log: RequestLog;
  /** Set once the download server listens. */
  downloadOrigin = '';
  private readonly signingKey: string;

  constructor(options: EmulatorOptions) {
    const seed = options.seed ?? 1;
    this.settings = {
      seed,
      basePath: normaliseBasePath(options.basePath ?? '/api/v1'),
      warmupMs: options.warmupMs ?? 0,
      downloadTtlMs: options.downloadTtlMs ?? 60_000,
      reportSizeBytes: options.reportSizeBytes ?? 200_000,
      reportRenderMs: options.reportRenderMs ?? 3_000,
      variant: { ...(options.variant ?? {}) },
    };
    this.clock = new Clock(options.epochMs ?? Date.now(), options.clockSpeed ?? 1);
    this.store = new Store(seed, this.clock, options.results);
    this.limiter = new RateLimiter(options.rateLimit ?? { kind: 'none' });
    this.events = new EventDispatcher(this.store, this.clock);
    this.log = new RequestLog(options.requestLogLimit ?? 50_000);
    this.signingKey = `emulator-signing-${seed}-${process.pid}-${Date.now()}`;
  }

  get variant(): UnknownsVariant {
    return this.settings.variant;
  }

  signature(scanId: string, expires: number): string {
    return createHmac('sha256', this.signingKey).update(`${scanId}\n${expires}`).digest('hex');
  }

  /** A presigned address of a scan's report on the download origin. */
  presignedUrl(scanId: string): { url: string; expiresAt: string } {
    const expires = Date.now() + this.settings.downloadTtlMs;
    const query = new URLSearchParams({
      expires: String(expires),
      signature: this.signature(scanId, expires),
    });
    return {
      url: `${this.downloadOrigin}/download/${encodeURIComponent(scanId)}?${query}`,
      expiresAt: new Date(expires).toISOString(),
    };
  }
}

function normaliseBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '') return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}
