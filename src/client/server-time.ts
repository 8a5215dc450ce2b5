// The service's own clock, as its responses' Date headers tell it. Lets a caller compare the
// service's timestamps (a scan's createdAt) with the service's time, not this machine's.
import type { ServerTime } from './types.js';

export class ServerClock {
  private last?: ServerTime;

  /** Records a response's Date header (RFC 9110 IMF-fixdate, whole seconds); ignores a bad one. */
  observe(dateHeader: string | undefined, observedAtLocalMs: number = Date.now()): void {
    if (dateHeader === undefined) return;
    const serverMs = Date.parse(dateHeader);
    if (Number.isNaN(serverMs)) return;
    this.last = { serverMs, observedAtLocalMs };
  }

  /** The last Date the service sent, and when (this machine's clock) it arrived. */
  latest(): ServerTime | undefined {
    return this.last;
  }
}
