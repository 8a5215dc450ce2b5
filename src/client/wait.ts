// scans.wait: poll a scan until it is terminal, yielding snapshots when something changed.
//
// Poll timing (PollPlanner, pure): dense while the scan is young; once two running snapshots show
// progress, the rate predicts the end. When the server's timestamps place the start (see
// `startSample`), the start counts as a first sample at progress 0, so one running snapshot is
// enough. While that estimate rests on few percentage points it is rough, so the next read comes
// at about half the predicted remaining time (each read halves the distance and sharpens the
// rate); once the samples span enough points, the next poll is aimed just after the predicted end
// (so the end is seen within ~min interval at worst, usually ~0.1 s). Sparse
// (growing x1.5 up to max) while nothing changes; always within [min, max] with a little jitter so
// parallel jobs do not poll in lockstep.
import { sleep } from './abort.js';
import { WaitTimeoutError } from './errors.js';
import type { Scan, WaitOptions } from './types.js';

export interface PlannerOptions {
  minIntervalMs: number;
  maxIntervalMs: number;
  /** How long after the first poll the scan counts as young (polled every 2 × min). Default 10 × min. */
  youngMs?: number;
  random?: () => number;
}

/** Default upper bound of the poll interval. */
export const DEFAULT_MAX_INTERVAL_MS = 30_000;
/** Below this span of progress (percentage points) between samples, the predicted end is rough. */
const SETTLED_SPAN_POINTS = 10;

interface ProgressSample {
  at: number;
  progress: number;
}

/** A server time and the local time by which that moment had certainly passed. */
interface ClockAnchor {
  localMs: number;
  serverMs: number;
}

/** Only timestamps with a fraction of a second can place a start as closely as polling needs. */
const SUBSECOND_TIMESTAMP = /T\d\d:\d\d:\d\d\.\d/;

function preciseTime(value: string | undefined): number | undefined {
  if (value === undefined || !SUBSECOND_TIMESTAMP.test(value)) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

export class PollPlanner {
  private readonly min: number;
  private readonly max: number;
  private readonly youngMs: number;
  private readonly random: () => number;
  private firstAt: number | undefined;
  private lastKey = '';
  private unchanged = 0;
  private lastDelay: number;
  private running: ProgressSample[] = [];
  private anchor: ClockAnchor | undefined;
  private lastPendingAt: number | undefined;

  constructor(options: PlannerOptions) {
    this.min = Math.max(1, options.minIntervalMs);
    this.max = Math.max(this.min, options.maxIntervalMs);
    this.youngMs = options.youngMs ?? this.min * 10;
    this.random = options.random ?? Math.random;
    this.lastDelay = this.min;
  }

  /** Records a snapshot that arrived at `at` (ms). */
  observe(
    scan: Pick<Scan, 'status' | 'progress' | 'phase'> &
      Partial<Pick<Scan, 'createdAt' | 'startedAt'>>,
    at: number,
  ): void {
    this.firstAt ??= at;
    const key = `${scan.status}|${scan.progress ?? ''}`;
    this.unchanged = key === this.lastKey ? this.unchanged + 1 : 0;
    this.lastKey = key;
    const created = preciseTime(scan.createdAt);
    if (!this.anchor && created !== undefined) this.anchor = { localMs: at, serverMs: created };
    if (scan.phase === 'pending') this.lastPendingAt = at;
    if (scan.phase === 'running' && scan.progress !== undefined) {
      const last = this.running.at(-1);
      if (!last) {
        const start = this.startSample(preciseTime(scan.startedAt), at, scan.progress);
        if (start) this.running.push(start);
      }
      const newest = this.running.at(-1);
      if (!newest || scan.progress !== newest.progress)
        this.running.push({ at, progress: scan.progress });
    }
  }

  /**
   * The scan's start in local time, as a progress-0 sample. The scan was created before the first
   * answer showing it arrived, so start ≤ that arrival + (startedAt − createdAt): a late bound,
   * which makes the predicted end early rather than late (an early guess costs one poll, a late
   * one costs delay). Dropped when it contradicts what we saw (still pending then, or not before
   * this snapshot), e.g. when the server's clock does not run at ours.
   */
  private startSample(
    startedMs: number | undefined,
    at: number,
    progress: number,
  ): ProgressSample | undefined {
    if (!this.anchor || startedMs === undefined || progress <= 0) return undefined;
    if (startedMs < this.anchor.serverMs) return undefined;
    const start = this.anchor.localMs + (startedMs - this.anchor.serverMs);
    if (start >= at || (this.lastPendingAt !== undefined && start <= this.lastPendingAt))
      return undefined;
    return { at: start, progress: 0 };
  }

  /** Milliseconds until the next poll. */
  nextDelay(now: number): number {
    const delay = this.plan(now);
    this.lastDelay = delay;
    return delay;
  }

  /** Predicted ms until progress reaches 100, from the first and last distinct running samples. */
  predictedRemaining(now: number): number | undefined {
    return this.prediction(now)?.remainingMs;
  }

  private prediction(now: number): { remainingMs: number; msPerPoint: number } | undefined {
    const first = this.running[0];
    const last = this.running.at(-1);
    if (!first || !last || last === first || last.at <= first.at) return undefined;
    const rate = (last.progress - first.progress) / (last.at - first.at);
    if (rate <= 0) return undefined;
    return {
      remainingMs: (100 - midStep(last.progress)) / rate - (now - last.at),
      msPerPoint: 1 / rate,
    };
  }

  private plan(now: number): number {
    const last = this.running.at(-1);
    if (last && last.progress >= 100) return this.jittered(this.min);
    const predicted = this.prediction(now);
    if (predicted !== undefined && !(predicted.remainingMs <= 0 && this.unchanged >= 2)) {
      // Aim just after the predicted end; beyond max, come back at max and predict again. The
      // margin covers the estimate's granularity (half a percentage point of progress, as integer
      // percentages hide up to that much), so the poll rarely lands just before the end. Jitter is
      // small: the aim differs per scan anyway, and lateness is what costs.
      if (this.estimateIsRough() && predicted.remainingMs > this.min * 4) {
        return this.jittered(predicted.remainingMs / 2);
      }
      const margin = Math.min(this.min, Math.max(this.min * 0.3, predicted.msPerPoint * 0.5));
      const aim =
        Math.max(0, predicted.remainingMs) + margin + this.random() * Math.min(100, this.min * 0.1);
      return this.clamp(aim);
    }
    const age = now - (this.firstAt ?? now);
    if (age < this.youngMs || this.unchanged === 0) return this.jittered(this.min * 2);
    return this.jittered(this.lastDelay * 1.5);
  }

  private estimateIsRough(): boolean {
    const first = this.running[0];
    const last = this.running.at(-1);
    return !first || !last || last.progress - first.progress < SETTLED_SPAN_POINTS;
  }

  private jittered(ms: number): number {
    return this.clamp(ms * (0.9 + this.random() * 0.2));
  }

  private clamp(ms: number): number {
    return Math.round(Math.min(this.max, Math.max(this.min, ms)));
  }
}

/** Integer progress is read as the middle of its unit step: servers floor or round percentages. */
function midStep(progress: number): number {
  return Number.isInteger(progress) && progress < 100 ? progress + 0.5 : progress;
}

export type FetchScan = (id: string, signal: AbortSignal | undefined) => Promise<Scan>;

/** The wait loop; `fetchScan` is the client's coalescing GET /scans/{id}. */
export async function* waitForScan(
  id: string,
  fetchScan: FetchScan,
  options: WaitOptions = {},
): AsyncGenerator<Scan> {
  const { signal, timeoutMs } = options;
  const planner = new PollPlanner({
    minIntervalMs: options.minIntervalMs ?? 1_000,
    maxIntervalMs: options.maxIntervalMs ?? DEFAULT_MAX_INTERVAL_MS,
  });
  const deadline = timeoutMs !== undefined ? Date.now() + timeoutMs : Infinity;
  const reported = new Set<string>();
  let lastYielded = '';
  let given =
    options.initial && (options.initial.id === id || options.initial.id === '')
      ? options.initial
      : undefined;
  for (;;) {
    const scan = given ?? (await fetchScan(id, signal));
    given = undefined;
    planner.observe(scan, scan.receivedAt ?? Date.now());
    reportUnknown(scan, reported, options.onUnknownStatus);
    const key = `${scan.status}|${scan.progress ?? ''}`;
    if (key !== lastYielded || scan.terminal) {
      lastYielded = key;
      yield scan;
    }
    if (scan.terminal) return;
    const now = Date.now();
    if (now >= deadline) {
      throw new WaitTimeoutError(
        `Scan ${id} was still ${scan.status || '(no status)'} after ${timeoutMs} ms of waiting; it was not cancelled.`,
        id,
      );
    }
    await sleep(Math.min(planner.nextDelay(now), deadline - now), signal);
  }
}

function reportUnknown(
  scan: Scan,
  reported: Set<string>,
  hook: ((status: string) => void) | undefined,
): void {
  if (scan.knownStatus) return;
  const word = scan.status.trim().toLowerCase();
  if (reported.has(word)) return;
  reported.add(word);
  try {
    hook?.(scan.status);
  } catch {
    // A logging hook must not stop the wait.
  }
}
