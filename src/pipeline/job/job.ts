// The scan job: validate → check the key → trigger (or follow scan-id) → wait → failed results →
// report → verdict. It owns the timeout and cancellation: a scan it triggered is never left running
// when it stops early (abort, scan timeout, or a failure while waiting).

import type { Scan, TenantClient } from '../../client/index.js';
import {
  JobCancelledError,
  JobError,
  JobTimeoutError,
  redact,
  secretsOf,
  toJobError,
} from '../common/errors.js';
import { worstFirst, type ReadFinding } from '../common/findings.js';
import { readScanResults } from '../common/results.js';
import {
  countResults,
  countsFromScan,
  countsLine,
  isEvaluatedResult,
  isFailedResult,
  type ResultCounts,
} from '../common/result-kinds.js';
import { coverageWanted } from '../gate/coverage.js';
import { ProgressWatch, StallGuard } from './stall.js';
import { jobWording } from '../common/wording.js';
import { applyGate, type GateFiles } from '../gate/apply.js';
import {
  DEFAULT_GATE,
  describeGate,
  isDefaultGate,
  type GateOutcome,
  type GateSettings,
} from '../gate/judge.js';
import {
  cancelAndReport,
  cancelFailureReason,
  cancelNote,
  type CancelOutcome,
} from './cancel-scan.js';
import { fetchReport } from './report.js';
import { TriggerStep } from './trigger.js';
import { decideVerdict } from './verdict.js';
import type {
  JobReporter,
  JobResult,
  LostTriggerReport,
  ReportOutcome,
  ResultFileWriter,
  RunJobOptions,
} from './types.js';
import type { JobSettings } from '../settings/types.js';
import type { JobWording, JobPhase } from '../common/wording.js';

const DEFAULT_CANCEL_GRACE_MS = 7_000;

function minutesText(ms: number): string {
  const minutes = ms / 60_000;
  const shown = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(2).replace(/0+$/, '');
  return `${shown} minute${minutes === 1 ? '' : 's'}`;
}

export class ScanJob {
  private readonly signal: AbortSignal;
  private readonly timeout = new AbortController();
  /** How long the scan has stood still, and what stops it after stall-minutes. */
  private readonly watch = new ProgressWatch();
  private stall: StallGuard | undefined;
  private settled = false;
  /** Known once read (the scan as last polled): for the record and page of a run that ends in an
   *  error. */
  tenantName?: string;
  lastScan?: Scan;
  private readonly wording: JobWording;
  private resultsPath?: string;
  private readonly gate: GateSettings;
  private readonly trigger: TriggerStep;

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
    this.wording = jobWording(options.wording);
    this.trigger = new TriggerStep({
      client,
      settings,
      reporter,
      signal: this.signal,
      wording: this.wording,
      cancelGraceMs: options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
    });
  }

  /** What the lookup after a lost trigger answer found, for the record. */
  get lostTrigger(): LostTriggerReport | undefined {
    return this.trigger.lostTrigger;
  }

  private get triggeredId(): string | undefined {
    return this.trigger.triggeredId;
  }

  async run(): Promise<JobResult> {
    this.failIfAborted('Sanity checks');
    await this.phase('Authentication', () => this.checkKey());
    // Following a given scan triggers nothing: its first read is the wait's.
    const start = this.settings.scanId ? 'Wait' : 'Trigger';
    const scan = await this.phase(start, () => this.trigger.startOrFollow());
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
        `Not waiting for scan ${scan.id} (${this.wording.noWait}): status ${scan.status}`,
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
    const counts = all
      ? countResults(all.map((finding) => finding.result))
      : countsFromScan(finished.summary, failed.length);
    if (counts && counts.notEvaluated > 0) this.reporter.info(`Checks: ${countsLine(counts)}`);
    const gate = await this.phase('Baseline', () => this.judge(finished, failed, all, counts));
    const report = await this.reportStep(finished);
    return this.result(finished, gate, all, report, counts);
  }

  private async judge(
    scan: Scan,
    failed: ReadFinding[],
    all: ReadFinding[] | undefined,
    counts: ResultCounts | undefined,
  ): Promise<GateOutcome> {
    if (!isDefaultGate(this.gate)) this.reporter.info(`Gate: ${describeGate(this.gate)}`);
    const evaluated = all
      ?.filter((finding) => isEvaluatedResult(finding.result))
      .map((finding) => finding.identity);
    return applyGate(
      this.client,
      () => Promise.resolve(scan),
      {
        failed,
        evaluated,
        evaluatedCount: counts ? counts.passed + counts.failed : undefined,
      },
      this.gate,
      this.gateFiles,
      {
        listed: this.trigger.listedBefore,
        signal: this.signal,
        log: this.reporter,
        maxBytes: this.settings.resultsMaxBytes,
        owned: true,
      },
    );
  }

  private async checkKey(): Promise<void> {
    const me = await this.client.tenants.me({ signal: this.signal });
    const name = typeof me.name === 'string' && me.name.trim() !== '' ? me.name.trim() : undefined;
    this.tenantName = name;
    this.reporter.info(`Tenant: ${name ?? '(no organisation name set)'}`);
  }

  private async waitForEnd(scan: Scan): Promise<Scan> {
    if (scan.terminal) return scan;
    const timer = setTimeout(() => this.timeout.abort(), this.settings.scanTimeoutMs);
    const stall = new StallGuard(this.watch, this.settings.stallMs ?? 0, () =>
      this.client.scans.get(scan.id, { signal: this.signal }),
    );
    this.stall = stall;
    const signal = AbortSignal.any([this.signal, this.timeout.signal, stall.signal]);
    let last: Scan | undefined = scan;
    stall.seen(scan);
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
        stall.seen(snapshot);
        if (last.status !== snapshot.status || last.progress !== snapshot.progress)
          this.reporter.progress(snapshot);
        last = snapshot;
        this.lastScan = snapshot;
      }
    } finally {
      clearTimeout(timer);
      stall.stop();
    }
    if (!last.terminal) {
      // The client's iterator ended without a terminal snapshot: read it once more.
      last = await this.client.scans.get(scan.id, { signal: this.signal });
    }
    return last;
  }

  private async fetchResults(scan: Scan): Promise<{ failed: ReadFinding[]; all?: ReadFinding[] }> {
    // Every result, not only the failed ones, when JUnit lists them or coverage compares them: one
    // read either way, never two.
    const wantAll = Boolean(this.settings.junitPath) || coverageWanted(this.gate);
    const { findings: read, resultsPath } = await readScanResults(this.client, scan, {
      all: wantAll,
      signal: this.signal,
      note: (message) => this.reporter.info(message),
      maxBytes: this.settings.resultsMaxBytes,
      resultsFile: this.settings.resultsPath,
    });
    const failed = worstFirst(read.filter((finding) => isFailedResult(finding.result)));
    const count = `${failed.length} failed finding${failed.length === 1 ? '' : 's'}`;
    this.resultsPath = resultsPath;
    this.reporter.info(resultsPath ? `${count}; written to ${resultsPath}` : count);
    return { failed, all: wantAll ? read : undefined };
  }

  private async reportStep(scan: Scan): Promise<ReportOutcome> {
    if (this.settings.report === 'none') return { policy: 'none' };
    try {
      return await fetchReport(this.client, scan.id, this.settings, this.reporter, {
        signal: this.signal,
        pollMs: this.options.pollIntervalMs?.min,
        wording: this.wording,
      });
    } catch (error) {
      if (this.signal.aborted) throw new JobCancelledError('Report', 'the job was cancelled');
      const message = redact(
        toJobError('Report', error, { wording: this.wording }).message,
        secretsOf(this.settings),
      );
      this.reporter.warning(message);
      return { policy: this.settings.report, note: message };
    }
  }

  private async result(
    scan: Scan,
    gate: GateOutcome | undefined,
    all: ReadFinding[] | undefined,
    report: ReportOutcome,
    counts?: ResultCounts,
  ): Promise<JobResult> {
    const { completed, verdict, verdictReason, failStep } = decideVerdict({
      waited: this.settings.wait,
      scan,
      gate,
      failOnFindings: this.settings.failOnFindings,
    });
    const findings = gate?.findings ?? [];
    const files =
      completed && gate
        ? await this.writeResultFiles({
            scan,
            gate,
            all,
            tenantName: this.tenantName,
            results: counts,
          })
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
      ...(counts ? { results: counts } : {}),
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
    if (this.stall?.signal.aborted && !this.signal.aborted) {
      const stallMs = this.settings.stallMs ?? 0;
      return new JobTimeoutError(
        phase,
        this.watch.stalledDetail(stallMs, this.wording.stallMinutes ?? 'stall-minutes'),
        { cause: error },
      );
    }
    if (this.timeout.signal.aborted && !this.signal.aborted) {
      const stuck = this.watch.stuckNote(Date.now());
      return new JobTimeoutError(
        phase,
        `the scan did not finish within ${minutesText(this.settings.scanTimeoutMs)} (${this.wording.scanTimeout})${stuck ? `; ${stuck}` : ''}`,
        { cause: error },
      );
    }
    if (this.signal.aborted)
      return new JobCancelledError(phase, 'the job was cancelled', { cause: error });
    return toJobError(phase, error, { scanId: this.settings.scanId, wording: this.wording });
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
        return jobError.withNote(
          `scan ${scanId} was left running (it was not started by this job)`,
        );
      }
      return jobError;
    }
    const outcome = await this.cancelRemote(scanId);
    jobError.remoteCancel = outcome;
    return jobError.withNote(cancelNote(outcome, `scan ${scanId}`));
  }

  private async cancelRemote(scanId: string): Promise<CancelOutcome> {
    const outcome = await cancelAndReport(this.client, scanId, {
      budgetMs: this.options.cancelGraceMs ?? DEFAULT_CANCEL_GRACE_MS,
      reporter: this.reporter,
      reason: (error) => this.reason(error),
    });
    if (outcome !== 'failed') this.markSettled(scanId);
    return outcome;
  }

  private reason(error: unknown): string {
    return cancelFailureReason(error, secretsOf(this.settings), this.wording);
  }
}
