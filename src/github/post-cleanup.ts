// A post step's clean-up of one scan a killed main step left running, within the step's budget:
// the scan is read (already ended: a line, nothing to do), then cancelled until done. Shared by
// the Action's post step (post.ts) and the tenants sub-action's (tenants/post.ts), which prefixes
// each line with the tenant's name. Problems are warnings: the job already ended.

import * as log from './log.js';
import { TenantApiError } from '../client/index.js';
import type { TenantClient } from '../client/index.js';
import { cancelScanUntilDone } from '../pipeline/job/cancel-scan.js';
import { oneLine, redact, toJobError } from '../pipeline/common/errors.js';
import { describeLookup, findTriggeredScan } from '../pipeline/job/lost-trigger.js';
import type { LostTriggerOutcome, PendingTrigger } from '../pipeline/job/types.js';

/** Time for a post step's whole clean-up: lookups, every cancel attempt and the waits between them. */
export const POST_CANCEL_BUDGET_MS = 20_000;

/** An error's message as one line (the caller redacts what it knows is secret). */
export function message(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

export interface CleanupOptions {
  /** Epoch ms by which every request and wait of this clean-up ends. */
  deadline: number;
  /** Put before each line (the tenant's name); '' for the Action's one scan. */
  prefix?: string;
  /** Who left the scan running, for the line said before cancelling it; undefined: no such line
   *  (one line per scan: its outcome). */
  leftBy?: string;
}

export class Cleanup {
  private readonly prefix: string;

  constructor(
    private readonly client: TenantClient,
    /** Every key the step holds: redacted from what it says. */
    private readonly secrets: readonly string[],
    private readonly options: CleanupOptions,
  ) {
    this.prefix = options.prefix ?? '';
  }

  async cancelLeftScan(scanId: string): Promise<void> {
    const scan = await this.client.scans
      .get(scanId, { signal: this.remaining() })
      .catch(() => undefined);
    if (scan?.terminal) {
      this.info(`Scan ${scanId} already ended (${scan.status}); nothing to cancel`);
      return;
    }
    if (this.options.leftBy !== undefined) {
      this.info(
        `${this.options.leftBy} left scan ${scanId} running${scan ? ` (${scan.status})` : ''}: cancelling it`,
      );
    }
    await this.cancel(scanId);
  }

  /** Looks up the scan a trigger whose answer never came may have started, and cancels it; the
   *  lookup's outcome is returned (the Action's post step saves it). */
  async cancelPendingTriggerScan(pending: PendingTrigger): Promise<LostTriggerOutcome> {
    const lookup = await findTriggeredScan(this.client, pending, this.remaining());
    if (lookup.kind !== 'found') {
      log.warning(
        `${this.prefix}The main step was stopped before the answer to its trigger arrived: a ${pending.scanType} scan may have been started and left running (${describeLookup(lookup, pending.scanType)}); check \`scan list\` / the dashboard and cancel it there`,
      );
      return lookup.kind;
    }
    const { scan } = lookup;
    if (scan.terminal) {
      this.info(
        `Scan ${scan.id}, started by the main step's trigger, already ended (${scan.status})`,
      );
      return lookup.kind;
    }
    this.info(
      `The main step was stopped before the answer to its trigger arrived; ${describeLookup(lookup, pending.scanType)}: cancelling it`,
    );
    await this.cancel(scan.id);
    return lookup.kind;
  }

  private async cancel(scanId: string): Promise<void> {
    const { outcome, error } = await cancelScanUntilDone(this.client, scanId, {
      budgetMs: Math.max(1, this.options.deadline - Date.now()),
      onRetry: (failure) =>
        this.info(`Cancel of scan ${scanId} failed (${this.reason(failure)}); retrying`),
    });
    if (outcome === 'cancelled') this.info(`Cancelled scan ${scanId}`);
    else if (outcome === 'ended') this.info(`Scan ${scanId} already ended; nothing to cancel`);
    else {
      log.warning(
        `${this.prefix}Cleanup failed: could not cancel scan ${scanId}: ${this.reason(error)}; cancel it in the dashboard`,
      );
    }
  }

  private info(line: string): void {
    log.info(`${this.prefix}${line}`);
  }

  private remaining(): AbortSignal {
    return AbortSignal.timeout(Math.max(1, this.options.deadline - Date.now()));
  }

  private reason(error: unknown): string {
    const text =
      error instanceof TenantApiError ? toJobError('Cancel', error).detail : 'no answer in time';
    return redact(text, this.secrets);
  }
}
