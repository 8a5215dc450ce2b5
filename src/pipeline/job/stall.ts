// How long a scan has stood still: the time of the last snapshot whose progress or status moved,
// on this machine's clock. `stall-minutes` stops a scan that stood still that long (off by default:
// a service may report progress in coarse steps, and a good scan cancelled costs more than a late
// verdict); whatever the setting, a timeout says how long progress had stood still.

import type { Scan } from '../../client/index.js';
import { quoteValue } from '../common/text.js';

/** "45 %", or the status word when the scan reports no progress. */
function position(scan: Pick<Scan, 'progress' | 'status'>): string {
  return scan.progress === undefined ? `status ${quoteValue(scan.status)}` : `${scan.progress} %`;
}

/** "under a second", "40 seconds", "1 minute", "41 minutes". */
export function durationWords(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds === 0) return 'under a second';
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** "12:03 UTC". */
function clockTime(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** The last time the scan moved, told each snapshot. */
export class ProgressWatch {
  private last: { at: number; scan: Pick<Scan, 'progress' | 'status'> } | undefined;

  /** A snapshot seen at `nowMs`; true when it moved (progress, or status when it has none). */
  observe(scan: Pick<Scan, 'progress' | 'status'>, nowMs: number): boolean {
    const before = this.last?.scan;
    const moved = !before || before.progress !== scan.progress || before.status !== scan.status;
    if (moved) this.last = { at: nowMs, scan: { progress: scan.progress, status: scan.status } };
    return moved;
  }

  /** Milliseconds since the scan last moved (0 before any snapshot). */
  stillFor(nowMs: number): number {
    return this.last ? nowMs - this.last.at : 0;
  }

  /** "progress stuck at 45 % since 12:03 UTC, 41 minutes": the end of a timeout's line. */
  stuckNote(nowMs: number): string | undefined {
    if (!this.last) return undefined;
    const what = this.last.scan.progress === undefined ? 'no progress reported,' : 'progress';
    return `${what} stuck at ${position(this.last.scan)} since ${clockTime(this.last.at)}, ${durationWords(nowMs - this.last.at)}`;
  }

  /** "the scan stalled: no progress for 30 minutes (at 45 %; stall-minutes)": `label` names the
   *  setting as the face spells it. */
  stalledDetail(stallMs: number, label: string): string {
    const at = this.last ? `at ${position(this.last.scan)}; ` : '';
    return `the scan stalled: no progress for ${durationWords(stallMs)} (${at}${label})`;
  }
}

/**
 * Stops a scan that stood still for `stallMs`: told every snapshot that moved, it waits that long
 * after the last move, then reads the scan once more (`confirm`) — the wait's own polls may be
 * further apart than stall-minutes — and aborts `signal` only when that read shows no move
 * either: at most stall-minutes plus one read after the last move it saw. Off when `stallMs` is 0.
 */
export class StallGuard {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    readonly watch: ProgressWatch,
    private readonly stallMs: number,
    private readonly confirm: () => Promise<Scan>,
  ) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** A snapshot of the wait: a move starts the count again. */
  seen(scan: Pick<Scan, 'progress' | 'status'>): void {
    if (this.watch.observe(scan, Date.now()) && this.stallMs > 0) this.arm(this.stallMs);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  private arm(ms: number): void {
    clearTimeout(this.timer);
    if (!this.stopped) this.timer = setTimeout(() => void this.check(), ms);
  }

  private async check(): Promise<void> {
    const now = await this.confirm().catch(() => undefined);
    if (this.stopped) return;
    // A read that failed proves nothing: look again soon (the wait's own errors end the wait).
    if (!now) return this.arm(Math.min(this.stallMs, 30_000));
    if (now.terminal) return;
    if (this.watch.observe(now, Date.now())) return this.arm(this.stallMs);
    this.controller.abort();
  }
}
