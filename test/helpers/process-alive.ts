// Whether a process a test started (or left behind) still runs.
import { readFileSync } from 'node:fs';

/** Alive and not a zombie (a killed orphan may linger as one until init reaps it). */
export function alive(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}
