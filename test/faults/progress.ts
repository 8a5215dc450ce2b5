// The campaign's progress line: a run of 300 takes minutes, so it says where it is every few
// percent — runs done, failures so far, time spent and a rough time left.

/** Percent between two progress lines. */
export const PROGRESS_STEP_PERCENT = 5;

function clock(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The line to print once `done` of `total` runs have ended, or undefined when this run does not
 *  cross a step of PROGRESS_STEP_PERCENT (the last run never does: the closing lines say it). */
export function progressLine(
  done: number,
  total: number,
  failed: number,
  elapsedMs: number,
): string | undefined {
  if (done <= 0 || done >= total) return undefined;
  const step = (n: number) => Math.floor((n * 100) / total / PROGRESS_STEP_PERCENT);
  if (step(done) === step(done - 1)) return undefined;
  const percent = Math.floor((done * 100) / total);
  const left = (elapsedMs / done) * (total - done);
  return `progress: ${done}/${total} runs (${percent}%), ${failed} failed, ${clock(elapsedMs)} elapsed, about ${clock(left)} left`;
}
