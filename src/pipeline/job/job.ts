// The scan job: validate → check the key → trigger (or follow scan-id) → wait → failed results →
// report → verdict. It owns the timeout and cancellation: a scan it triggered is never left running
// when it stops early (abort, scan timeout, or a failure while waiting).

import {
  displayLine,
  isAddressable,
  isFailedFinding,
  isPlainIdentifier,
} from '../../client/index.js';
import { NetworkError, TenantApiError } from '../../client/errors.js';
import type { Scan, TenantClient } from '../../client/types.js';
import {
  JobCancelledError,
  JobError,
  JobFailure,
  JobTimeoutError,
  redact,
  toJobError,
} from '../common/errors.js';
import { applyGate, type GateFiles } from '../gate/apply.js';
import { cancelScanUntilDone } from './cancel-scan.js';
import { jsonArray, writeFileAtomic } from '../common/files.js';
import { worstFirst, type ReadFinding } from '../common/findings.js';
import {
  DEFAULT_GATE,
  describeGate,
  gateReason,
  isDefaultGate,
  type GateOutcome,
  type GateSettings,
} from '../gate/judge.js';
import { jobLabels } from '../common/wording.js';
import {
  describeLookup,
  findTriggeredScan,
  lostTriggerReport,
  openTriggerWindow,
} from './lost-trigger.js';
import { fetchReport } from './report.js';
import { readScanResults } from '../common/results.js';
import type {
  JobReporter,
  JobResult,
  LostTriggerReport,
  PendingTrigger,
  ReportOutcome,
  ResultFileWriter,
  RunJobOptions,
} from './types.js';
import type { JobSettings } from '../settings/types.js';
import type { JobLabels, JobPhase } from '../common/wording.js';

const DEFAULT_CANCEL_GRACE_MS = 7_000;
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

function progressChanged(before: Scan | undefined, after: Scan): boolean {
  return !before || before.status !== after.status || before.progress !== after.progress;
}

function minutesText(ms: number): string {
  const minutes = ms / 60_000;
  const shown = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(2).replace(/0+$/, '');
  return `${shown} minute${minutes === 1 ? '' : 's'}`;
}

export class ScanJob {
  private readonly signal: AbortSignal;
  private readonly timeout = new AbortController();
  private triggeredId?: string;
  private settled = false;
  /** Known once read: for the record of a run that ends in an error. */
  tenantName?: string;
  lastScan?: Scan;
  lostTrigger?: LostTriggerReport;
  private readonly labels: JobLabels;
  private resultsPath?: string;
  /** The scans listed before the trigger: the lost-trigger lookup's and the baseline's. */
  private listedBefore?: Scan[];
  private readonly gate: GateSettings;

  constructor(
    private readonly settings: JobSettings,
    private readonly reporter: JobReporter,
    private readonly client: TenantClient,
    private readonly options: RunJobOptions,
    private readonly gateFiles: GateFiles,
    private readonly writeResultFiles: ResultFileWriter,
  ) {
    this.gate = settings.gate ?? DEFAULT_GATE;
    this.signal = options.signal ?? new AbortController().signal;
    this.labels = jobLabels(options.labels);
  }

  async run(): Promise<JobResult> {
    this.failIfAborted('Sanity checks');
    await this.phase('Authentication', () => this.checkKey());
    const scan = await this.phase('Trigger', () => this.startOrFollow());
    this.lastScan = scan;
    try {
      return await this.afterTrigger(scan);
    } catch (error) {
      throw await this.stopEarly(error, scan.id);
    }
  }

  private async afterTrigger(scan: Scan): Promise<JobResult> {
    if (!this.settings.wait) {
      this.reporter.info(
        `Not waiting for scan ${scan.id} (${this.labels.noWait}): status ${scan.status}`,
      );
      return this.result(scan, undefined, undefined, {
        policy: this.settings.report,
        note: 'not waited for',
      });
    }
    const finished = await this.phase('Wait', () => this.waitForEnd(scan));
    this.lastScan = finished;
    this.markSettled(finished.id);
    if (finished.phase !== 'succeeded') {
      return this.result(finished, undefined, undefined, {
        policy: this.settings.report,
        note: 'the scan did not complete',
      });
    }
    const { failed, all } = await this.phase('Results', () => this.fetchResults(finished));
    const gate = await this.phase('Baseline', () => this.judge(finished, failed));
    const report = await this.reportStep(finished);
    return this.result(finished, gate, all, report);
  }

  private async judge(scan: Scan, failed: ReadFinding[]): Promise<GateOutcome> {
    if (!isDefaultGate(this.gate)) this.reporter.info(`Gate: ${describeGate(this.gate)}`);
    return applyGate(
      this.client,
      () => Promise.resolve(scan),
      failed.map(({ view }) => view),
      this.gate,
      this.gateFiles,
      { listed: this.listedBefore, signal: this.signal, log: this.reporter },
    );
  }

  private async checkKey(): Promise<void> {
    const me = await this.client.tenants.me({ signal: this.signal });
    const name = typeof me.name === 'string' && me.name.trim() !== '' ? me.name.trim() : undefined;
    this.tenantName = name;
    this.reporter.info(`Tenant: ${name ?? '(no organisation name set)'}`);
  }

  private async startOrFollow(): Promise<Scan> {
    if (this.settings.scanId) {
      // The client keeps the id it was asked for: a body naming another cannot change it.
      const scan = await this.client.scans.get(this.settings.scanId, { signal: this.signal });
      this.reporter.info(
        `Following scan ${scan.id} (status ${scan.status}); it will not be cancelled by this job`,
      );
      return scan;
    }
    // Read as late as possible: should the answer be lost, none of these scans is taken for ours.
    const listedBefore = await this.listScansBeforeTrigger();
    this.failIfAborted('Trigger');
    // Not aborted at once: a trigger in flight may already have created the scan, and only its
    // answer tells us which scan to cancel.
    const late = abortLater(this.signal, TRIGGER_ANSWER_GRACE_MS);
    const pending = openTriggerWindow(this.client, this.settings.scanType, listedBefore);
    // Saved before sending: a step killed before the answer leaves its clean-up a way to the scan.
    if (this.settings.wait) this.reporter.triggerPending?.(pending);
    this.reporter.debug(`Sending the trigger (${this.existingNote(pending)})`);
    let scan: Scan;
    try {
      scan = await this.client.scans.create(this.settings.scanType, { signal: late.signal });
    } catch (error) {
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
    if (this.settings.wait) this.reporter.scanTriggered(scan.id);
    this.clearPendingTrigger();
    this.reporter.info(
      `Triggered ${this.settings.scanType} scan ${scan.id} (status ${scan.status})`,
    );
    return scan;
  }

  /** The scans that exist before the trigger is sent. A list that cannot be read does not stop
   *  the job: it only matters if the trigger's answer is then lost, and the lookup falls back to
   *  the time window alone (the rule before this list existed). Failing here would turn any error
   *  of a read that is mere insurance (a single 500 is not retried) into a failed job. */
  private async listScansBeforeTrigger(): Promise<Scan[] | undefined> {
    try {
      this.listedBefore = await this.client.scans.list({ signal: this.signal });
      return this.listedBefore;
    } catch (error) {
      if (this.signal.aborted) throw error;
      const reason = redact(toJobError('Trigger', error, { labels: this.labels }).detail, [
        this.settings.apiKey,
      ]);
      this.reporter.info(
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
    this.reporter.warning(
      'The answer to the trigger was lost; looking for the scan it may have started (the trigger is not repeated)',
    );
    const lookup = await findTriggeredScan(this.client, pending, signal);
    this.lostTrigger = lostTriggerReport(lookup, pending);
    this.reporter.lostTriggerLookup?.(this.lostTrigger);
    if (lookup.kind === 'found') {
      this.reporter.info(
        `Found scan ${lookup.scan.id}: the only ${this.settings.scanType} scan created since the trigger was sent`,
      );
      return lookup.scan;
    }
    // A clear answer (none, or several) is final; an unreadable list is left to the clean-up.
    if (lookup.kind !== 'unreadable') this.clearPendingTrigger();
    throw new JobFailure(
      'Trigger',
      `the connection dropped after the request was sent; a scan may have been started — check \`scan list\` / the dashboard (${describeLookup(lookup, this.settings.scanType)})`,
      { cause: lost },
    );
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
    const budgetMs = this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    const { outcome } = await cancelScanUntilDone(this.client, scanId, { budgetMs });
    const fate =
      outcome === 'cancelled'
        ? 'the scan was cancelled'
        : outcome === 'ended'
          ? 'the scan had already ended'
          : 'it could not be cancelled: cancel it in the dashboard';
    throw new JobFailure('Trigger', `${what}; ${fate}`);
  }

  private clearPendingTrigger(): void {
    if (this.settings.wait) this.reporter.triggerPending?.(undefined);
  }

  private async waitForEnd(scan: Scan): Promise<Scan> {
    if (scan.terminal) return scan;
    const timer = setTimeout(() => this.timeout.abort(), this.settings.scanTimeoutMs);
    const signal = AbortSignal.any([this.signal, this.timeout.signal]);
    let last: Scan | undefined = scan;
    this.reporter.progress(scan);
    try {
      for await (const snapshot of this.client.scans.wait(scan.id, {
        signal,
        initial: scan,
        minIntervalMs: this.options.pollIntervalMs?.min,
        maxIntervalMs: this.options.pollIntervalMs?.max,
        onUnknownStatus: (status) =>
          this.reporter.info(
            `Scan status "${status}" is not a known word; still waiting for the end`,
          ),
      })) {
        if (progressChanged(last, snapshot)) this.reporter.progress(snapshot);
        last = snapshot;
      }
    } finally {
      clearTimeout(timer);
    }
    if (!last.terminal) {
      // The client's iterator ended without a terminal snapshot: read it once more.
      last = await this.client.scans.get(scan.id, { signal: this.signal });
    }
    return last;
  }

  private async fetchResults(scan: Scan): Promise<{ failed: ReadFinding[]; all?: ReadFinding[] }> {
    const wantAll = Boolean(this.settings.junitPath);
    const read = await readScanResults(this.client, scan, {
      all: wantAll,
      signal: this.signal,
      note: (message) => this.reporter.info(message),
    });
    const failed = worstFirst(read.filter(({ raw: finding }) => isFailedFinding(finding)));
    const count = `${failed.length} failed finding${failed.length === 1 ? '' : 's'}`;
    if (this.settings.resultsPath) {
      this.resultsPath = await writeFileAtomic(
        this.settings.resultsPath,
        jsonArray(failed.map(({ raw: f }) => f)),
      );
      this.reporter.info(`${count}; written to ${this.resultsPath}`);
    } else {
      this.reporter.info(count);
    }
    return { failed, all: wantAll ? read : undefined };
  }

  private async reportStep(scan: Scan): Promise<ReportOutcome> {
    if (this.settings.report === 'none') return { policy: 'none' };
    try {
      return await fetchReport(this.client, scan.id, this.settings, this.reporter, {
        signal: this.signal,
        pollMs: this.options.pollIntervalMs?.min,
        labels: this.labels,
      });
    } catch (error) {
      if (this.signal.aborted) throw new JobCancelledError('Report', 'the job was cancelled');
      const message = redact(toJobError('Report', error, { labels: this.labels }).message, [
        this.settings.apiKey,
      ]);
      this.reporter.warning(message);
      return { policy: this.settings.report, note: message };
    }
  }

  private async result(
    scan: Scan,
    gate: GateOutcome | undefined,
    all: ReadFinding[] | undefined,
    report: ReportOutcome,
  ): Promise<JobResult> {
    const waited = this.settings.wait;
    const completed = scan.phase === 'succeeded' && gate !== undefined;
    const findings = gate?.findings ?? [];
    const gating = gate?.counts.gating ?? 0;
    const verdictReason = !waited
      ? undefined
      : !completed
        ? `the scan ended with status "${scan.status}"`
        : gateReason(gate);
    const verdict = !waited ? undefined : completed && gating === 0 ? 'passed' : 'failed';
    const failStep = waited && (!completed || (gating > 0 && this.settings.failOnFindings));
    const files = completed
      ? await this.writeResultFiles({ scan, gate, all, tenantName: this.tenantName })
      : {};
    return {
      scanId: scan.id,
      status: scan.status,
      scan,
      tenantName: this.tenantName,
      verdict,
      total: scan.summary?.total ?? all?.length,
      failed: findings.length,
      findings,
      gate,
      fixed: gate?.fixed ?? [],
      resultsPath: completed ? this.resultsPath : undefined,
      report,
      failureReason: verdict === 'failed' ? verdictReason : undefined,
      verdictReason,
      failStep,
      triggered: this.triggeredId !== undefined,
      ...files,
    };
  }

  /** Runs one phase; anything it throws becomes a JobError named after the phase. */
  private async phase<T>(phase: JobPhase, step: () => Promise<T>): Promise<T> {
    this.failIfAborted(phase);
    try {
      return await step();
    } catch (error) {
      throw this.classify(phase, error);
    }
  }

  private classify(phase: JobPhase, error: unknown): JobError {
    if (error instanceof JobError) return error;
    if (this.timeout.signal.aborted && !this.signal.aborted) {
      return new JobTimeoutError(
        phase,
        `the scan did not finish within ${minutesText(this.settings.scanTimeoutMs)} (${this.labels.scanTimeout})`,
        { cause: error },
      );
    }
    if (this.signal.aborted)
      return new JobCancelledError(phase, 'the job was cancelled', { cause: error });
    return toJobError(phase, error, { scanId: this.settings.scanId, labels: this.labels });
  }

  private failIfAborted(phase: JobPhase): void {
    if (this.signal.aborted) throw new JobCancelledError(phase, 'the job was cancelled');
  }

  private markSettled(scanId: string): void {
    if (this.triggeredId === scanId && !this.settled) {
      this.settled = true;
      this.reporter.scanSettled(scanId);
    }
  }

  /** The job stops before the end: cancel the scan we triggered (never a followed one), then
   *  return the error to throw, its message saying what happened to the scan. */
  private async stopEarly(error: unknown, scanId: string): Promise<JobError> {
    const jobError = error instanceof JobError ? error : this.classify('Wait', error);
    jobError.scanId = scanId;
    const mustCancel = this.triggeredId === scanId && !this.settled && this.settings.wait;
    if (!mustCancel) {
      if (this.settings.scanId && (jobError.kind === 'timeout' || jobError.kind === 'cancelled')) {
        return this.withNote(
          jobError,
          `scan ${scanId} was left running (it was not started by this job)`,
        );
      }
      return jobError;
    }
    const outcome = await this.cancelRemote(scanId);
    jobError.remoteCancel = outcome;
    return this.withNote(
      jobError,
      outcome === 'cancelled'
        ? `scan ${scanId} was cancelled remotely`
        : outcome === 'ended'
          ? `scan ${scanId} had already ended`
          : `scan ${scanId} could not be cancelled; cancel it in the dashboard`,
    );
  }

  private withNote(error: JobError, note: string): JobError {
    error.message = `${error.message}; ${note}`;
    return error;
  }

  private async cancelRemote(scanId: string): Promise<'cancelled' | 'ended' | 'failed'> {
    const budgetMs = this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS;
    const { outcome, error } = await cancelScanUntilDone(this.client, scanId, {
      budgetMs,
      onRetry: (failure) =>
        this.reporter.info(`Cancel of scan ${scanId} failed (${this.reason(failure)}); retrying`),
    });
    if (outcome === 'failed') {
      this.reporter.warning(
        `Cancel failed: ${this.reason(error)}; gave up after ${budgetMs / 1000} s (scan ${scanId})`,
      );
      return outcome;
    }
    this.markSettled(scanId);
    if (outcome === 'cancelled') this.reporter.info(`Cancelled scan ${scanId} remotely`);
    return outcome;
  }

  private reason(error: unknown): string {
    const message =
      error instanceof TenantApiError
        ? toJobError('Cancel', error, { labels: this.labels }).detail
        : 'no answer in time';
    return redact(message, [this.settings.apiKey]);
  }
}

/** The trigger failed in a way that tells the job no scan is left to look for: the service answered
 *  (any status: like the job, the clean-up looks only after a lost answer) or nothing was sent.
 *  Only a lost answer and an abort before the answer leave the scan unknown. */
function provedNotStarted(error: unknown): boolean {
  if (error instanceof NetworkError) return !error.mayHaveBeenProcessed;
  return error instanceof TenantApiError;
}
