// Client-wide pacing: when one request is throttled (429), every request of the same client waits
// too, and request starts are spaced out for a while afterwards. The rate limit is shared across the
// account, so hammering it from parallel calls only earns more 429s.
//
// A burst of 429s answers requests that were all under way before the first of them arrived: it
// is one signal, not many, so it widens the spacing once. Only a 429 for a request that started
// after the spacing last widened widens it again (each of N parallel calls doubling it would space
// their retries seconds apart).
import { sleep } from './abort.js';

const FIRST_SPACING_MS = 50;
const MAX_SPACING_MS = 2_000;

/** One request's start, as the pacer saw it: report how that request fared through it. */
export interface Turn {
  /** A 429 arrived for it: nobody starts before `delayMs` from now, and starts are spaced wider
   *  (unless the spacing widened after this request started). */
  throttled(delayMs: number): void;
  /** It went through: the spacing relaxes gradually. */
  succeeded(): void;
}

export class Pacer {
  private resumeAt = 0;
  private nextStart = 0;
  private spacingMs = 0;
  /** How many times the spacing has widened. */
  private widenings = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Waits for this request's turn. */
  async acquire(signal?: AbortSignal): Promise<Turn> {
    const now = this.now();
    const start = Math.max(now, this.resumeAt, this.nextStart);
    this.nextStart = start + this.spacingMs;
    await sleep(start - now, signal);
    const widenedBefore = this.widenings;
    return {
      throttled: (delayMs) => this.throttled(delayMs, widenedBefore),
      succeeded: () => this.succeeded(),
    };
  }

  /** For observation (tests, logs). */
  get state(): { resumeAt: number; spacingMs: number } {
    return { resumeAt: this.resumeAt, spacingMs: this.spacingMs };
  }

  private throttled(delayMs: number, widenedBeforeStart: number): void {
    this.resumeAt = Math.max(this.resumeAt, this.now() + delayMs);
    if (widenedBeforeStart !== this.widenings) return; // the same burst
    this.widenings++;
    this.spacingMs = Math.min(
      MAX_SPACING_MS,
      this.spacingMs === 0 ? FIRST_SPACING_MS : this.spacingMs * 2,
    );
  }

  private succeeded(): void {
    this.spacingMs = this.spacingMs < 5 ? 0 : this.spacingMs * 0.8;
  }
}
