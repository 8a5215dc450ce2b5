// The emulator clock: wall time scaled by clockSpeed, plus manual advances.

export class Clock {
  private readonly wallStart = Date.now();
  private advancedMs = 0;

  constructor(
    private readonly epochMs: number,
    private readonly speed: number,
  ) {}

  /** Emulator time in epoch milliseconds. */
  now(): number {
    return this.epochMs + (Date.now() - this.wallStart) * this.speed + this.advancedMs;
  }

  iso(at = this.now()): string {
    return new Date(Math.floor(at)).toISOString();
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('advance(ms) needs a finite ms >= 0');
    this.advancedMs += ms;
  }

  /** Wall milliseconds since the emulator started (warm-up, rate limits). */
  wallAge(): number {
    return Date.now() - this.wallStart;
  }
}
