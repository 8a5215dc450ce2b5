// What the client's PollPlanner costs per scan, without a fleet or a clock: simulated scans of
// every progress shape (test/helpers/poll-simulation.ts), the trigger's answer as the first
// snapshot, with and without sub-second timestamps, beside a 5 s loop. Reads per scan and the
// delay between the end and the read that sees it. Fast (pure):
// `node --import tsx bench/poll-simulation.ts`.
import { PROGRESS_SHAPES } from '../test/emulator/progress.js';
import { simulateLoop, simulatePlanner } from '../test/helpers/poll-simulation.js';
import { median } from './lib/stats.js';

const SCANS = 400;

console.log(
  '| shape | timestamps | reads per scan (mean), vs the loop | delay median / worst | the loop: delay median |',
);
console.log('|---|---|---|---|---|');
for (const shape of PROGRESS_SHAPES) {
  for (const timestamps of [true, false]) {
    // Scans of 40–60 s, spread evenly; the loop's phase spread over its 5 s.
    const scans = Array.from({ length: SCANS }, (_, i) => ({
      shape,
      durationMs: 40_000 + (20_000 * i) / SCANS,
      queuedMs: 1_000,
      timestamps,
    }));
    const planner = scans.map((scan) => simulatePlanner(scan));
    const loop = scans.map((scan, i) =>
      simulateLoop({ ...scan, durationMs: scan.durationMs + (5_000 * i) / SCANS }),
    );
    const mean = (xs: Array<{ reads: number }>) => xs.reduce((n, o) => n + o.reads, 0) / xs.length;
    const delays = planner.map((o) => o.delayMs);
    console.log(
      `| ${shape} | ${timestamps ? 'yes' : 'no'} | ${mean(planner).toFixed(2)}, ×${(mean(planner) / mean(loop)).toFixed(2)} | ` +
        `${(median(delays) / 1000).toFixed(2)} s / ${(Math.max(...delays) / 1000).toFixed(2)} s | ` +
        `${(median(loop.map((o) => o.delayMs)) / 1000).toFixed(2)} s |`,
    );
  }
}
