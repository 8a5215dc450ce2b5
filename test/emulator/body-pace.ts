// How a faulted body goes out over time: trickled in small pieces (slow-body) or held back part-way
// (stall). The headers are written by the caller, with the body's real Content-Length.
import type { ServerResponse } from 'node:http';
import type { Fault } from './types.js';

export type PaceFault = Extract<Fault, { kind: 'slow-body' | 'stall' }>;

export function isPaceFault(fault: Fault | null | undefined): fault is PaceFault {
  return fault?.kind === 'slow-body' || fault?.kind === 'stall';
}

/** Resolves after ms (wall clock), or at once when the client is gone; Infinity: only then. */
function pause(res: ServerResponse, ms: number): Promise<void> {
  if (res.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      res.off('close', done);
      resolve();
    };
    const timer = Number.isFinite(ms) ? setTimeout(done, Math.max(0, ms)) : undefined;
    res.on('close', done);
  });
}

/**
 * Writes one body of `size` bytes, piece by piece as the caller has them, pausing where the fault
 * says: slow-body after every `bytesPerChunk` bytes; stall once, after `afterBytes` (at most
 * size − 1, so the stall always comes before the body is complete). An empty body cannot stall
 * part-way: `beforeHead()` holds the headers instead.
 */
export class PacedBody {
  private sent = 0;
  private stalled = false;
  private readonly gone: Promise<void>;

  constructor(
    private readonly res: ServerResponse,
    private readonly fault: PaceFault,
    private readonly size: number,
  ) {
    this.gone = new Promise((resolve) => res.once('close', () => resolve()));
  }

  /** Call before the headers are written. */
  async beforeHead(): Promise<void> {
    if (this.fault.kind === 'stall' && this.size === 0) await pause(this.res, this.fault.ms);
  }

  /** Writes the next piece of the body, pausing before the bytes a pause is due before; resolves
   *  once the piece is flushed. False when the client is gone. */
  async write(piece: Buffer): Promise<boolean> {
    let offset = 0;
    while (offset < piece.length) {
      if (this.res.destroyed) return false;
      await this.pauseIfDue();
      if (this.res.destroyed) return false;
      const length = Math.min(piece.length - offset, this.bytesBeforeNextPause());
      await this.flush(piece.subarray(offset, offset + length));
      offset += length;
      this.sent += length;
    }
    return !this.res.destroyed;
  }

  private step(): number {
    return this.fault.kind === 'slow-body' ? Math.max(1, Math.floor(this.fault.bytesPerChunk)) : 0;
  }

  private stallAt(): number {
    if (this.fault.kind !== 'stall') return Infinity;
    return Math.min(Math.max(0, Math.floor(this.fault.afterBytes)), this.size - 1);
  }

  private bytesBeforeNextPause(): number {
    if (this.fault.kind === 'slow-body') return this.step() - (this.sent % this.step());
    return this.stalled ? Infinity : this.stallAt() - this.sent;
  }

  private async pauseIfDue(): Promise<void> {
    const fault = this.fault;
    if (fault.kind === 'slow-body') {
      if (this.sent > 0 && this.sent % this.step() === 0) await pause(this.res, fault.intervalMs);
      return;
    }
    if (!this.stalled && this.sent >= this.stallAt()) {
      this.stalled = true;
      await pause(this.res, fault.ms);
    }
  }

  private async flush(bytes: Buffer): Promise<void> {
    if (bytes.length === 0) return;
    const written = new Promise<void>((resolve) => this.res.write(bytes, () => resolve()));
    await Promise.race([written, this.gone]);
  }
}
