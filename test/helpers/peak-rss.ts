// The peak resident memory of a child process, as the kernel counts it (VmHWM in /proc/<pid>/status),
// sampled while it runs: a test of a memory bound measures the real process, not a counter it keeps.
import { readFileSync } from 'node:fs';

const SAMPLE_MS = 25;

export interface PeakRssWatch {
  /** Stops sampling; the highest VmHWM seen, in bytes (undefined without /proc). */
  stop(): number | undefined;
}

function vmHwmBytes(pid: number): number | undefined {
  try {
    const kb = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined; // gone, or no /proc here
  }
}

export function watchPeakRss(pid: number | undefined): PeakRssWatch {
  let peak: number | undefined;
  const sample = () => {
    const now = pid === undefined ? undefined : vmHwmBytes(pid);
    if (now !== undefined) peak = Math.max(peak ?? 0, now);
  };
  sample();
  const timer = setInterval(sample, SAMPLE_MS);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
