// What the client's PollPlanner costs per scan, without a fleet: simulated linear scans with
// integer progress (as the emulator reports it), the trigger's response as the first snapshot,
// for several maxIntervalMs and scan lengths. Reads per scan and the delay between the end and
// the read that sees it, with the snapshots' createdAt/startedAt (millisecond ISO, as the emulator
// sends them) and without (a server that sends no usable timestamps). Fast (pure):
// `node --import tsx bench/poll-simulation.ts`.
import { PollPlanner } from '../src/client/wait.js';
import { median, percentile } from './lib/stats.js';

const QUEUED_MS = 500;
const SCANS = 200;
const EPOCH = Date.parse('2026-11-22T00:00:00.000Z');
const iso = (ms: number) => new Date(EPOCH + ms).toISOString();

type Phase = 'queued' | 'running' | 'succeeded';

function snapshot(t: number, durationMs: number, timestamps: boolean) {
  const phase: Phase = t < QUEUED_MS ? 'queued' : t >= durationMs ? 'succeeded' : 'running';
  const progress =
    phase === 'queued'
      ? 0
      : phase === 'succeeded'
        ? 100
        : Math.floor(((t - QUEUED_MS) / (durationMs - QUEUED_MS)) * 100);
  const status = phase === 'succeeded' ? 'completed' : phase;
  const times = timestamps
    ? { createdAt: iso(0), startedAt: phase === 'queued' ? undefined : iso(QUEUED_MS) }
    : {};
  return { status, phase, progress, ...times };
}

function simulate(durationMs: number, maxIntervalMs: number, timestamps: boolean) {
  const planner = new PollPlanner({ minIntervalMs: 1_000, maxIntervalMs });
  planner.observe(snapshot(0, durationMs, timestamps) as never, 0);
  let t = 0;
  let reads = 0;
  for (;;) {
    t += planner.nextDelay(t);
    reads++;
    const scan = snapshot(t, durationMs, timestamps);
    planner.observe(scan as never, t);
    if (scan.phase === 'succeeded') return { reads, delayMs: t - durationMs };
  }
}

console.log(
  '| scan length | maxIntervalMs | reads per scan (mean) | delay median / p95 | without timestamps: reads | delay median / p95 |',
);
console.log('|---|---|---|---|---|---|');
for (const lengthS of [10, 60, 120, 600]) {
  for (const maxS of [15, 30, 60]) {
    const cells = [true, false].map((timestamps) => {
      // Lengths ±15 %, spread evenly, like the fleet's scans.
      const runs = Array.from({ length: SCANS }, (_, i) =>
        simulate(lengthS * 1000 * (0.85 + (0.3 * i) / SCANS), maxS * 1000, timestamps),
      );
      const reads = runs.reduce((sum, r) => sum + r.reads, 0) / SCANS;
      const delays = runs.map((r) => r.delayMs);
      return (
        `${reads.toFixed(2)} | ` +
        `${(median(delays) / 1000).toFixed(2)} s / ${(percentile(delays, 95) / 1000).toFixed(2)} s`
      );
    });
    console.log(`| ${lengthS} s | ${maxS} s | ${cells.join(' | ')} |`);
  }
}
