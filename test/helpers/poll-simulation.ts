// The wait planner against simulated scans, on a fake clock (pure, no I/O): the same progress
// shapes as the emulator (test/emulator/progress.ts), the trigger's answer as the first snapshot,
// beside a fixed loop that reads at once and then every `loopMs`. Used by the planner's unit tests
// and by bench/poll-simulation.ts.
import { PollPlanner } from '../../src/client/wait.js';
import type { Scan } from '../../src/client/types.js';
import { runningProgress, type ProgressShape } from '../emulator/progress.js';

export interface SimulatedScan {
  shape: ProgressShape;
  durationMs: number;
  queuedMs: number;
  /** Whether snapshots carry createdAt/startedAt with milliseconds (the emulator's do). */
  timestamps: boolean;
}

export interface WaitOutcome {
  /** Status reads after the trigger's answer. */
  reads: number;
  /** From the scan's end to the read that saw it. */
  delayMs: number;
}

const EPOCH = Date.parse('2026-11-22T00:00:00.000Z');
const iso = (ms: number) => new Date(EPOCH + ms).toISOString();

type Snapshot = Pick<Scan, 'status' | 'phase' | 'progress' | 'createdAt' | 'startedAt'>;

/** The scan as a status read at `t` (ms after its creation) shows it. */
export function snapshotAt(scan: SimulatedScan, t: number): Snapshot & { terminal: boolean } {
  const { durationMs, queuedMs } = scan;
  const phase = t < queuedMs ? 'pending' : t >= durationMs ? 'succeeded' : 'running';
  const fraction = (t - queuedMs) / Math.max(1, durationMs - queuedMs);
  const progress =
    phase === 'pending'
      ? scan.shape === 'none'
        ? undefined
        : 0
      : phase === 'succeeded'
        ? 100
        : runningProgress(scan.shape, fraction);
  const status = phase === 'pending' ? 'queued' : phase === 'succeeded' ? 'completed' : 'running';
  const times = scan.timestamps
    ? { createdAt: iso(0), startedAt: phase === 'pending' ? undefined : iso(queuedMs) }
    : {};
  return { status, phase, progress, terminal: phase === 'succeeded', ...times };
}

/** How the planner follows one scan from its trigger's answer (at t = 0) to its end. */
export function simulatePlanner(
  scan: SimulatedScan,
  options: { minIntervalMs?: number; maxIntervalMs?: number; random?: () => number } = {},
): WaitOutcome {
  const planner = new PollPlanner({
    minIntervalMs: options.minIntervalMs ?? 1_000,
    maxIntervalMs: options.maxIntervalMs ?? 30_000,
    random: options.random,
  });
  planner.observe(snapshotAt(scan, 0), 0);
  let t = 0;
  let reads = 0;
  for (;;) {
    t += planner.nextDelay(t);
    reads++;
    const snapshot = snapshotAt(scan, t);
    planner.observe(snapshot, t);
    if (snapshot.terminal) return { reads, delayMs: t - scan.durationMs };
    if (reads > 10_000) throw new Error('the planner never saw the end');
  }
}

/** A `curl` + `sleep` loop: a read at once after the trigger, then one every `loopMs`. */
export function simulateLoop(scan: SimulatedScan, loopMs = 5_000): WaitOutcome {
  const reads = Math.ceil(scan.durationMs / loopMs) + 1;
  return { reads, delayMs: (reads - 1) * loopMs - scan.durationMs };
}
