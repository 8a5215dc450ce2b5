// Gives the scans of a fleet different lengths and outcomes although the emulator has one scan
// plan per tenant: the plan is replaced every few ms while runs trigger scans, and each change is
// logged on the emulator clock, so each scan's plan is known from its createdAt. Without it every
// scan would last exactly as long, and a fixed poll interval that divides the length would look
// unrealistically punctual.
import type { Emulator, ScanPlan } from '../../test/emulator/types.js';

/** Failed findings per scan, in rotation: a quarter of the runs must pass. */
const FAILED_ROTATION = [3, 0, 7, 3];
export const FLEET_SCAN_TOTAL = 40;
/** Share of a scan spent queued: 0.5 s of a 60 s scan. */
const QUEUED_SHARE = 1 / 120;

interface PlanChange {
  atEmulatorMs: number;
  durationMs: number;
}

export class PlanRotation {
  private readonly changes: PlanChange[] = [];
  private timer: NodeJS.Timeout | undefined;
  private turn = 0;

  constructor(
    private readonly emulator: Emulator,
    private readonly baseDurationMs: number,
    private readonly spread = 0.15,
    private readonly random: () => number = Math.random,
  ) {}

  start(everyMs = 25): void {
    this.rotate();
    this.timer = setInterval(() => this.rotate(), everyMs);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** The plan's duration for a scan created at `createdAt` (ISO, emulator clock, floored to ms). */
  durationOf(createdAt: string): number | undefined {
    const at = Date.parse(createdAt);
    let found: PlanChange | undefined;
    for (const change of this.changes) {
      if (change.atEmulatorMs > at) break;
      found = change;
    }
    return found?.durationMs;
  }

  private rotate(): void {
    const durationMs = Math.round(
      this.baseDurationMs * (1 - this.spread + 2 * this.spread * this.random()),
    );
    const failed = FAILED_ROTATION[this.turn++ % FAILED_ROTATION.length] as number;
    const plan: ScanPlan = {
      durationMs,
      queuedMs: Math.round(durationMs * QUEUED_SHARE),
      progressCurve: 'linear',
      outcome: { kind: 'completed', total: FLEET_SCAN_TOTAL, failed },
    };
    // The emulator runs on this thread: while this spins, no scan is created. The change happens
    // at the start of an emulator millisecond m and nothing else happens until m + 1, so scans of
    // the old plan have createdAt < m and scans of the new one createdAt > m: no ambiguity.
    const m = this.spinToNextMillisecond();
    this.emulator.setScanPlan(plan);
    this.spinToNextMillisecond();
    this.changes.push({ atEmulatorMs: m + 0.5, durationMs });
  }

  /** Busy-waits (at most one emulator ms: 1 / clockSpeed wall ms) until a new ms begins. */
  private spinToNextMillisecond(): number {
    const now = () => Math.floor(this.emulator.now?.() ?? Date.now());
    const start = now();
    let current = start;
    while (current === start) current = now();
    return current;
  }
}
