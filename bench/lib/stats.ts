// Order statistics for benchmark samples (nearest-rank percentiles: no interpolation surprises).

export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export const median = (samples: readonly number[]): number => percentile(samples, 50);

export interface Spread {
  n: number;
  min: number;
  median: number;
  p95: number;
  max: number;
}

export function spread(samples: readonly number[]): Spread {
  return {
    n: samples.length,
    min: samples.length ? Math.min(...samples) : Number.NaN,
    median: median(samples),
    p95: percentile(samples, 95),
    max: samples.length ? Math.max(...samples) : Number.NaN,
  };
}

/** Wall-clock time in ms with sub-millisecond resolution, comparable with Date.now(). */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}
