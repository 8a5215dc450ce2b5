// Progress of `scan run --watch` on stderr: a live bar redrawn in place on a terminal, plain sparse
// lines elsewhere (CI logs: a line when the status changes or progress passes a 10% step).

import { displayLine } from '../client/index.js';
import type { RetryEvent, Scan } from '../client/index.js';

export interface ProgressSink {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const STEP = 10;
const REFRESH_MS = 1_000;

export class ProgressDisplay {
  private readonly live: boolean;
  private readonly started = Date.now();
  private last?: Scan;
  private lastStep = -1;
  private barShown = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly sink: ProgressSink) {
    this.live = sink.isTTY === true;
  }

  /** A line of text (a note, a warning): never mixed into the bar, never a control character. */
  line(message: string): void {
    this.clearBar();
    this.sink.write(`${displayLine(message)}\n`);
    if (this.last && !this.last.terminal) this.drawBar();
  }

  update(scan: Scan): void {
    const before = this.last;
    this.last = scan;
    if (this.live) {
      this.drawBar();
      if (scan.terminal) this.finishBar();
      else this.startTimer();
      return;
    }
    const step = Math.floor(percent(scan) / STEP);
    if (!before || before.status !== scan.status || step !== this.lastStep || scan.terminal) {
      this.lastStep = step;
      this.sink.write(`${plainLine(scan, this.elapsed())}\n`);
    }
  }

  /** Leaves the terminal clean: the bar ends on its own line. */
  stop(): void {
    this.stopTimer();
    if (this.barShown) this.finishBar();
  }

  private drawBar(): void {
    if (!this.live || !this.last) return;
    const columns = this.sink.columns && this.sink.columns > 40 ? this.sink.columns : 80;
    this.sink.write(`\r\x1b[2K${barLine(this.last, this.elapsed(), columns)}`);
    this.barShown = true;
  }

  private finishBar(): void {
    this.stopTimer();
    if (this.barShown) this.sink.write('\n');
    this.barShown = false;
  }

  private clearBar(): void {
    if (this.live && this.barShown) {
      this.sink.write('\r\x1b[2K');
      this.barShown = false;
    }
  }

  private startTimer(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.drawBar(), REFRESH_MS);
    this.timer.unref();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private elapsed(): string {
    const seconds = Math.floor((Date.now() - this.started) / 1000);
    return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
  }
}

function percent(scan: Scan): number {
  const value = scan.progress ?? (scan.phase === 'succeeded' ? 100 : 0);
  return Math.max(0, Math.min(100, Math.round(value)));
}

export function plainLine(scan: Scan, elapsed: string): string {
  return `Scan ${displayLine(scan.id)}: ${displayLine(scan.status)} ${percent(scan)}% (${elapsed})`;
}

export function barLine(scan: Scan, elapsed: string, columns: number): string {
  const tail = ` ${String(percent(scan)).padStart(3)}%  ${displayLine(scan.status)}  ${elapsed}`;
  const head = `Scan ${displayLine(scan.id).slice(0, 8)} `;
  const width = Math.max(10, Math.min(40, columns - head.length - tail.length - 3));
  const filled = Math.round((percent(scan) / 100) * width);
  return `${head}[${'#'.repeat(filled)}${'.'.repeat(width - filled)}]${tail}`.slice(0, columns - 1);
}

/** "Rate limited on GET /tenants/me (HTTP 429); retrying in 2.3 s (attempt 1)". Never the key. */
export function retryLine(event: RetryEvent): string {
  const why = {
    'rate-limited': 'Rate limited',
    'service-starting': 'Service starting',
    'server-error': 'Server error',
    network: 'Network error',
    timeout: 'Timed out',
  }[event.reason];
  const status = event.status ? ` (HTTP ${event.status})` : '';
  const seconds = (event.delayMs / 1000).toFixed(1);
  const source = event.fromRetryAfter ? ', as the server asked' : '';
  return `${why} on ${event.method} ${event.path}${status}; retrying in ${seconds} s${source} (attempt ${event.attempt})`;
}
