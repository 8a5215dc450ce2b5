// Preloaded with --import (NODE_OPTIONS) in bench/tenants-lengths.ts: samples the size V8 gives
// its new space (the young generation) and its old space every 250 ms, and what the old space
// holds right after each full collection (what survived it: the run's live data, give or take
// what was allocated between the collection and this observer); writes the largest of each and
// the number of full collections to $BENCH_HEAP_TRACE at exit, in bytes. It reads, never collects.
import { writeFileSync } from 'node:fs';
import { constants } from 'node:perf_hooks';
import { PerformanceObserver } from 'node:perf_hooks';
import { getHeapSpaceStatistics } from 'node:v8';

const largest = { newSpace: 0, oldSpace: 0, oldAfterFullGc: 0, fullGcs: 0 };
const oldSpace = () => getHeapSpaceStatistics().find((s) => s.space_name === 'old_space');
const sample = () => {
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name === 'new_space')
      largest.newSpace = Math.max(largest.newSpace, space.space_size);
    if (space.space_name === 'old_space')
      largest.oldSpace = Math.max(largest.oldSpace, space.space_size);
  }
};
setInterval(sample, 250).unref();
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (entry.detail?.kind !== constants.NODE_PERFORMANCE_GC_MAJOR) continue;
    largest.fullGcs++;
    largest.oldAfterFullGc = Math.max(largest.oldAfterFullGc, oldSpace()?.space_used_size ?? 0);
  }
}).observe({ entryTypes: ['gc'] });
process.on('exit', () => {
  sample();
  if (process.env.BENCH_HEAP_TRACE)
    writeFileSync(process.env.BENCH_HEAP_TRACE, JSON.stringify(largest));
});
