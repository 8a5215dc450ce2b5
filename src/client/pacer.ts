// Client-wide pacing: when one request is throttled (429), every request of the same client waits
// too, and request starts are spaced out for a while afterwards. The rate limit is shared across the
// account, so hammering it from parallel calls only earns more 429s.
import { sleep } from './abort.js';

const FIRST_SPACING_MS = 50;
const MAX_SPACING_MS = 2_000;

export class Pacer {
  private resumeAt = 0;
  private nextStart = 0;
  private spacingMs = 0;

  constructor(private readonly now: () => number = Date.now) {}

  /** Waits for this request's turn. */
  async acquire(signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const start = Math.max(now, this.resumeAt, this.nextStart);
    this.nextStart = start + this.spacingMs;
    await sleep(start - now, signal);
  }

  /** A 429 arrived: nobody starts before `delayMs` from now, and starts are spaced wider. */
  throttled(delayMs: number): void {
    this.resumeAt = Math.max(this.resumeAt, this.now() + delayMs);
    this.spacingMs = Math.min(
      MAX_SPACING_MS,
      this.spacingMs === 0 ? FIRST_SPACING_MS : this.spacingMs * 2,
    );
  }

  /** A request went through: the spacing relaxes gradually. */
  succeeded(): void {
    this.spacingMs = this.spacingMs < 5 ? 0 : this.spacingMs * 0.8;
  }

  /** For observation (tests, logs). */
  get state(): { resumeAt: number; spacingMs: number } {
    return { resumeAt: this.resumeAt, spacingMs: this.spacingMs };
  }
}
