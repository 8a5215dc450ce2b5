// scans.wait: poll a scan until it is terminal, yielding snapshots when something changed.
//
// The rule of the poll timing (PollPlanner, pure): never worse than a 5 s loop. The first read
// comes FIRST_READ_MS after the trigger's answer. When the scan's progress predicts its end well —
// the last two predictions of the end agree — the next read is aimed just after the predicted end
// (or at half the remaining time while the estimate rests on few percentage points). When it does
// not — no progress field, a stall, a prediction the last reads proved wrong — no read is ever
// more than FALLBACK_INTERVAL_MS after the last (15 % denser than the loop: its median delay is
// under the loop's, for under a fifth more requests). Always within [min, max], the first
// read aside, with a little jitter so parallel jobs do not poll in lockstep; Retry-After and the
// throttle are the requester's (a throttled read waits as long as the service says).
import { sleep } from './abort.js';
import { WaitTimeoutError } from './errors.js';
import type { Scan, WaitOptions } from './types.js';

export interface PlannerOptions {
  minIntervalMs: number;
  maxIntervalMs: number;
  random?: () => number;
}

/** Default upper bound of the poll interval. */
export const DEFAULT_MAX_INTERVAL_MS = 30_000;
/** The longest gap between two reads while the end is not well predicted: a 5 s loop's, less 15 %,
 *  so the median delay stays under the loop's whatever the phase of the end. */
export const FALLBACK_INTERVAL_MS = 4_250;
/** The first read after the trigger's answer: a scan already done is seen at once. */
export const FIRST_READ_MS = 300;
/** Below this span of progress (percentage points) between samples, the predicted end is rough. */
const SETTLED_SPAN_POINTS = 10;
/** Two predictions of the end agree when they differ by at most this share of the time left (or a
 *  second). */
const AGREEMENT = 0.2;

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
  private readonly random: () => number;
  private observed = 0;
  private running: ProgressSample[] = [];
  private anchor: ClockAnchor | undefined;
  private lastPendingAt: number | undefined;
  /** The end as the latest snapshot predicts it (local ms), and whether the one before agreed. */
  private predictedEnd: number | undefined;
  private trusted = false;
  /** Reads since the predicted end passed without the scan ending. */
  private overdueReads = 0;

  constructor(options: PlannerOptions) {
    this.min = Math.max(1, options.minIntervalMs);
    this.max = Math.max(this.min, options.maxIntervalMs);
    this.random = options.random ?? Math.random;
  }

  /** Records a snapshot that arrived at `at` (ms). */
  observe(
    scan: Pick<Scan, 'status' | 'progress' | 'phase'> &
      Partial<Pick<Scan, 'createdAt' | 'startedAt'>>,
    at: number,
  ): void {
    this.observed++;
    const created = preciseTime(scan.createdAt);
    if (!this.anchor && created !== undefined) this.anchor = { localMs: at, serverMs: created };
    if (scan.phase === 'pending') this.lastPendingAt = at;
    if (scan.phase !== 'running' || scan.progress === undefined) return;
    const newest = this.running.at(-1);
    if (!newest) {
      const start = this.startSample(preciseTime(scan.startedAt), at, scan.progress);
      if (start) this.running.push(start);
    }
    if (scan.progress === this.running.at(-1)?.progress) {
      this.checkStill(at);
      return;
    }
    this.running.push({ at, progress: scan.progress });
    this.repredict(at);
  }

  /** Progress did not move since the last sample: if the predicted rate says it should have moved
   *  by more than a point and a half, the prediction is proven wrong (a stall) and trusts nothing. */
  private checkStill(at: number): void {
    const last = this.running.at(-1);
    const rate = this.prediction(at)?.msPerPoint;
    if (last && rate !== undefined && (at - last.at) / rate > 1.5) this.trusted = false;
  }

  /** A new sample, a new prediction: trusted when it agrees with the one before. */
  private repredict(now: number): void {
    const remaining = this.prediction(now)?.remainingMs;
    if (remaining === undefined) return;
    const end = now + remaining;
    const previous = this.predictedEnd;
    this.trusted =
      previous !== undefined &&
      Math.abs(end - previous) <= Math.max(1_000, AGREEMENT * Math.max(0, remaining));
    this.predictedEnd = end;
    this.overdueReads = 0;
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
    return this.plan(now);
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
    // Only the trigger's answer so far: read soon, a scan already done is seen at once.
    if (this.observed <= 1) return Math.round(FIRST_READ_MS * (0.9 + this.random() * 0.2));
    const last = this.running.at(-1);
    if (last && last.progress >= 100) return this.jittered(this.min);
    // Only a prediction the last two agree on may keep the reads further apart than the fallback.
    const cap = this.trusted ? this.max : Math.min(this.max, FALLBACK_INTERVAL_MS);
    const predicted = this.predictedEnd === undefined ? undefined : this.prediction(now);
    if (predicted === undefined) return this.jittered(Math.min(FALLBACK_INTERVAL_MS, this.max));
    if (predicted.remainingMs > 0) {
      if (this.estimateIsRough() && predicted.remainingMs > this.min * 4) {
        return this.bounded(predicted.remainingMs / 2, cap);
      }
      // Aim just after the predicted end. The margin covers the estimate's granularity (half a
      // percentage point of progress, as integer percentages hide up to that much), so the poll
      // rarely lands just before the end. Jitter is small: the aim differs per scan anyway, and
      // lateness is what costs.
      const margin = Math.min(this.min, Math.max(this.min * 0.3, predicted.msPerPoint * 0.5));
      const aim = predicted.remainingMs + margin + this.random() * Math.min(100, this.min * 0.1);
      return this.bounded(aim, cap);
    }
    // The predicted end has passed without the end: the prediction was wrong. One quick look,
    // then the fallback until progress says something new.
    this.trusted = false;
    return this.overdueReads++ === 0
      ? this.jittered(this.min)
      : this.jittered(FALLBACK_INTERVAL_MS);
  }

  private estimateIsRough(): boolean {
    const first = this.running[0];
    const last = this.running.at(-1);
    return !first || !last || last.progress - first.progress < SETTLED_SPAN_POINTS;
  }

  /** `ms` jittered ±10 %, within [min, cap]. */
  private jittered(ms: number, cap = this.max): number {
    return this.bounded(ms * (0.9 + this.random() * 0.2), cap);
  }

  private bounded(ms: number, cap: number): number {
    return Math.round(Math.min(cap, this.max, Math.max(this.min, ms)));
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
