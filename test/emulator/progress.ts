// How a scan's progress grows over its running phase: the shapes the wait planner must handle
// (issue 24). Shared by the emulator and the planner's pure simulation, so both see the same scans.

export const PROGRESS_SHAPES = [
  'linear',
  'back-loaded',
  'front-loaded',
  'stalled',
  'none',
  'stall-then-jump',
] as const;
export type ProgressShape = (typeof PROGRESS_SHAPES)[number];

/** The fraction done (0..1) at fraction `x` of the running phase. */
function curve(shape: ProgressShape, x: number): number {
  switch (shape) {
    case 'front-loaded':
      return 1 - (1 - x) ** 2;
    case 'back-loaded':
      return x ** 3;
    case 'stalled':
      return Math.min(x, 0.1);
    case 'stall-then-jump':
      return x < 0.9 ? 0.1 : 0.95;
    default:
      return x;
  }
}

/** Progress as a service reports it while running: an integer 0..99; undefined for a service that
 *  reports none. */
export function runningProgress(shape: ProgressShape, x: number): number | undefined {
  if (shape === 'none') return undefined;
  return Math.min(99, Math.floor(curve(shape, Math.min(1, Math.max(0, x))) * 100));
}
