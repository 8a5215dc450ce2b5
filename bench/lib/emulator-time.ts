// Converts the emulator clock (scan timestamps) to the wall clock of this process (request log,
// spawn and exit instants). Valid while nothing calls emulator.advance().
import type { Emulator } from '../../test/emulator/types.js';

export function emulatorToWall(
  emulator: Emulator,
  clockSpeed: number,
): (emulatorMs: number) => number {
  const now = emulator.now;
  if (!now) throw new Error('the emulator does not expose now()');
  return (emulatorMs) => Date.now() - (now.call(emulator) - emulatorMs) / clockSpeed;
}

/** Wall instant at which a scan created at `createdAt` (ISO) with a plan of `durationMs` ends. */
export function scanEndWall(
  toWall: (emulatorMs: number) => number,
  createdAt: string,
  durationMs: number,
): number {
  return toWall(Date.parse(createdAt) + durationMs);
}
