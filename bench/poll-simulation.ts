// What the client's PollPlanner costs per scan, without a fleet: simulated linear scans with
// integer progress (as the emulator reports it), the trigger's response as the first snapshot,
// for several maxIntervalMs and scan lengths. Reads per scan and the delay between the end and
// the read that sees it. Fast (pure): `node --import tsx bench/poll-simulation.ts`.
import { PollPlanner } from '../src/client/wait.js';
import { median, percentile } from './lib/stats.js';

const QUEUED_MS = 500;
const SCANS = 200;

type Phase = 'queued' | 'running' | 'succeeded';

function snapshot(t: number, durationMs: number) {
  const phase: Phase = t < QUEUED_MS ? 'queued' : t >= durationMs ? 'succeeded' : 'running';
  const progress =
    phase === 'queued'
      ? 0
      : phase === 'succeeded'
        ? 100
        : Math.floor(((t - QUEUED_MS) / (durationMs - QUEUED_MS)) * 100);
  const status = phase === 'succeeded' ? 'completed' : phase;
  return { status, phase, progress };
}

function simulate(durationMs: number, maxIntervalMs: number) {
  const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs });
  planner.observe(snapshot(0, durationMs) as never, 0);
  let t = 0;
  let reads = 0;
  for (;;) {
    t += planner.nextDelay(t);
    reads++;
    const scan = snapshot(t, durationMs);
    planner.observe(scan as never, t);
    if (scan.phase === 'succeeded') return { reads, delayMs: t - durationMs };
  }
}

console.log('| scan length | maxIntervalMs | reads per scan (mean) | delay median / p95 |');
console.log('|---|---|---|---|');
for (const lengthS of [10, 60, 120, 600]) {
  for (const maxS of [15, 30, 60]) {
    // Lengths ±15 %, spread evenly, like the fleet's scans.
    const runs = Array.from({ length: SCANS }, (_, i) =>
      simulate(lengthS * 1000 * (0.85 + (0.3 * i) / SCANS), maxS * 1000),
    );
    const reads = runs.reduce((sum, r) => sum + r.reads, 0) / SCANS;
    const delays = runs.map((r) => r.delayMs);
    console.log(
      `| ${lengthS} s | ${maxS} s | ${reads.toFixed(2)} | ` +
        `${(median(delays) / 1000).toFixed(2)} s / ${(percentile(delays, 95) / 1000).toFixed(2)} s |`,
    );
  }
}
