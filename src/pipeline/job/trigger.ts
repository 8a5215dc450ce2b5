// The trigger phase: start a scan (or follow the one named by scan-id), listing the scans before it
// so that a lost answer can be recovered without ever taking another job's scan for ours, and
// refusing a scan id that is not a plain identifier (cancelled first when it can still be named).

import {
  displayLine,
  isAddressable,
  isPlainIdentifier,
  NetworkError,
  TenantApiError,
} from '../../client/index.js';
import type { Scan, TenantClient } from '../../client/index.js';
import { JobCancelledError, JobFailure, redact, secretsOf, toJobError } from '../common/errors.js';
import type { JobWording } from '../common/wording.js';
import type { JobSettings } from '../settings/types.js';
import {
  cancelAndReport,
  cancelFailureReason,
  cancelNote,
  cancelScanUntilDone,
} from './cancel-scan.js';
import {
  describeLookup,
  findTriggeredScan,
  lostTriggerReport,
  openTriggerWindow,
} from './lost-trigger.js';
import type { JobReporter, LostTriggerReport, PendingTrigger } from './types.js';

/** A trigger already sent when the user cancels may still answer with the scan's id: wait this long. */
const TRIGGER_ANSWER_GRACE_MS = 2_000;

/** A signal that aborts `delayMs` after `signal` does: lets a request in flight finish briefly. */
function abortLater(
  signal: AbortSignal,
  delayMs: number,
): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const onAbort = () => {
    timer = setTimeout(() => controller.abort(signal.reason), delayMs);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    dispose() {
      signal.removeEventListener('abort', onAbort);
      if (timer) clearTimeout(timer);
    },
  };
}

export interface TriggerContext {
  client: TenantClient;
  settings: JobSettings;
  reporter: JobReporter;
  signal: AbortSignal;
  wording: JobWording;
  /** How long the cancel of a refused scan id may take. */
  cancelGraceMs: number;
}

export class TriggerStep {
  /** The scans listed before the trigger: the lost-trigger lookup's and the baseline's. */
  listedBefore?: Scan[];
  /** What the lookup after a lost answer found (for the record). */
  lostTrigger?: LostTriggerReport;
  /** The scan this job started, once it is known and accepted. */
  triggeredId?: string;

  constructor(private readonly ctx: TriggerContext) {}

  async startOrFollow(): Promise<Scan> {
    if (this.ctx.settings.scanId) {
      // The client keeps the id it was asked for: a body naming another cannot change it.
      const scan = await this.ctx.client.scans.get(this.ctx.settings.scanId, {
        signal: this.ctx.signal,
      });
      this.ctx.reporter.info(
        `Following scan ${scan.id} (status ${scan.status}); it will not be cancelled by this job`,
      );
      return scan;
    }
    // Read as late as possible: should the answer be lost, none of these scans is taken for ours.
    const listedBefore = await this.listScansBeforeTrigger();
    if (this.ctx.signal.aborted) throw new JobCancelledError('Trigger', 'the job was cancelled');
    // Not aborted at once: a trigger in flight may already have created the scan, and only its
    // answer tells us which scan to cancel.
    const late = abortLater(this.ctx.signal, TRIGGER_ANSWER_GRACE_MS);
    const pending = openTriggerWindow(
      this.ctx.client,
      this.ctx.settings.scanType,
      listedBefore,
      this.ctx.settings.pendingTriggerIdsMax,
    );
    // Saved before sending: a step killed before the answer leaves its clean-up a way to the scan.
    if (this.ctx.settings.wait) this.ctx.reporter.triggerPending?.(pending);
    this.ctx.reporter.debug(`Sending the trigger (${this.existingNote(pending)})`);
    let scan: Scan;
    try {
      scan = await this.ctx.client.scans.create(this.ctx.settings.scanType, {
        signal: late.signal,
      });
    } catch (error) {
      if (late.signal.aborted && this.ctx.settings.wait && !provedNotStarted(error)) {
        throw await this.cancelUnansweredTrigger(pending, error);
      }
      if (!(error instanceof NetworkError && error.mayHaveBeenProcessed) || late.signal.aborted) {
        if (provedNotStarted(error)) this.clearPendingTrigger();
        throw error;
      }
      // Within the same grace as the answer: a cancel now still lets the lookup finish.
      scan = await this.recoverLostTrigger(error, pending, late.signal);
    } finally {
      late.dispose();
    }
    await this.refuseUnplainId(scan.id);
    this.triggeredId = scan.id;
    if (this.ctx.settings.wait) this.ctx.reporter.scanTriggered(scan.id);
    this.clearPendingTrigger();
    this.ctx.reporter.info(
      `Triggered ${this.ctx.settings.scanType} scan ${scan.id} (status ${scan.status})`,
    );
    return scan;
  }

  /** The scans that exist before the trigger is sent. A list that cannot be read does not stop
   *  the job: it only matters if the trigger's answer is then lost, and the lookup falls back to
   *  the time window alone (the rule before this list existed). Failing here would turn any error
   *  of a read that is mere insurance (a single 500 is not retried) into a failed job. */
  private async listScansBeforeTrigger(): Promise<Scan[] | undefined> {
    try {
      this.listedBefore = await this.ctx.client.scans.list({ signal: this.ctx.signal });
      return this.listedBefore;
    } catch (error) {
      if (this.ctx.signal.aborted) throw error;
      const reason = redact(
        toJobError('Trigger', error, { wording: this.ctx.wording }).detail,
        secretsOf(this.ctx.settings),
      );
      this.ctx.reporter.info(
        `Could not list the scans before the trigger (${reason}); should its answer be lost, its scan would be looked up by creation time alone`,
      );
      return undefined;
    }
  }

  private existingNote({ existing, scanType }: PendingTrigger): string {
    if (!existing) return 'the scans before it could not be listed';
    const count = existing.ids.length;
    return `${count} ${scanType} scan${count === 1 ? '' : 's'} listed before it, never taken for its own`;
  }

  /** The trigger's answer was lost after the request was sent: the scan may exist. It is never
   *  sent twice (a second scan costs quota). Other jobs may share the tenant, so a scan is taken as
   *  ours (followed, and cancelled if the job stops early) only when it is the one scan of this type
   *  not listed before the trigger and created between the last answer before the trigger and the
   *  scan list, on the service's clock (see lost-trigger.ts); otherwise the job stops. */
  private async recoverLostTrigger(
    lost: NetworkError,
    pending: PendingTrigger,
    signal: AbortSignal,
  ): Promise<Scan> {
    this.ctx.reporter.warning(
      'The answer to the trigger was lost; looking for the scan it may have started (the trigger is not repeated)',
    );
    const lookup = await findTriggeredScan(this.ctx.client, pending, signal);
    this.lostTrigger = lostTriggerReport(lookup, pending);
    this.ctx.reporter.lostTriggerLookup?.(this.lostTrigger);
    if (lookup.kind === 'found') {
      this.ctx.reporter.info(
        `Found scan ${lookup.scan.id}: the only ${this.ctx.settings.scanType} scan created since the trigger was sent`,
      );
      return lookup.scan;
    }
    // A clear answer (none, or several) is final; an unreadable list is left to the clean-up.
    if (lookup.kind !== 'unreadable') this.clearPendingTrigger();
    throw new JobFailure(
      'Trigger',
      `the connection dropped after the request was sent; a scan may have been started — check \`scan list\` / the dashboard (${describeLookup(lookup, this.ctx.settings.scanType)})`,
      { cause: lost },
    );
  }

  /** The job was cancelled while the trigger's answer was out, and it did not come within the
   *  grace: the scan may exist. It is looked up as after a lost answer and cancelled, within the
   *  cancel grace, so that a cancelled job does not leave it to a clean-up that may never run.
   *  A lookup that finds nothing keeps the pending trigger: the service may act on it later. */
  private async cancelUnansweredTrigger(pending: PendingTrigger, cause: unknown) {
    const deadline = Date.now() + this.ctx.cancelGraceMs;
    const lookup = await findTriggeredScan(
      this.ctx.client,
      pending,
      AbortSignal.timeout(this.ctx.cancelGraceMs),
    );
    this.lostTrigger = lostTriggerReport(lookup, pending);
    this.ctx.reporter.lostTriggerLookup?.(this.lostTrigger);
    const error = new JobCancelledError(
      'Trigger',
      "the job was cancelled before the trigger's answer arrived",
      { cause },
    );
    if (lookup.kind === 'several') this.clearPendingTrigger();
    if (lookup.kind !== 'found' || !isPlainIdentifier(lookup.scan.id)) {
      const found = lookup.kind === 'found' ? 'a scan whose id is not a plain identifier' : '';
      return error.withNote(found || describeLookup(lookup, this.ctx.settings.scanType));
    }
    const scanId = lookup.scan.id;
    this.triggeredId = scanId;
    this.ctx.reporter.scanTriggered(scanId);
    this.clearPendingTrigger();
    const outcome = lookup.scan.terminal
      ? 'ended'
      : await cancelAndReport(this.ctx.client, scanId, {
          budgetMs: Math.max(1, deadline - Date.now()),
          reporter: this.ctx.reporter,
          reason: (failure) =>
            cancelFailureReason(failure, secretsOf(this.ctx.settings), this.ctx.wording),
        });
    if (outcome !== 'failed') this.ctx.reporter.scanSettled(scanId);
    error.scanId = scanId;
    error.remoteCancel = outcome;
    return error.withNote(cancelNote(outcome, `scan ${scanId}`));
  }

  /** A scan id the service made becomes an output, a file name, a log line: only a plain one is
   *  used. Another is cancelled when it can still name the scan in a route, then the job stops. */
  private async refuseUnplainId(scanId: string): Promise<void> {
    if (isPlainIdentifier(scanId)) return;
    this.clearPendingTrigger();
    const shown = JSON.stringify(displayLine(scanId).slice(0, 60));
    const what = `the service returned a scan id that is not a plain identifier (${shown})`;
    if (!isAddressable(scanId)) {
      throw new JobFailure(
        'Trigger',
        `${what}; it cannot name the scan even to cancel it: cancel it in the dashboard`,
      );
    }
    const budgetMs = this.ctx.cancelGraceMs;
    const { outcome } = await cancelScanUntilDone(this.ctx.client, scanId, { budgetMs });
    throw new JobFailure('Trigger', `${what}; ${cancelNote(outcome, 'the scan')}`);
  }

  private clearPendingTrigger(): void {
    if (this.ctx.settings.wait) this.ctx.reporter.triggerPending?.(undefined);
  }
}

/** The trigger failed in a way that tells the job no scan is left to look for: the service answered
 *  (any status: like the job, the clean-up looks only after a lost answer) or nothing was sent.
 *  Only a lost answer and an abort before the answer leave the scan unknown. */
function provedNotStarted(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.mayHaveBeenProcessed;
  return error instanceof TenantApiError;
}
