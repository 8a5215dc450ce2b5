// Shared bits of the pipeline tests: a recording reporter, settings against an emulator, temp dirs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RetryEvent, Scan } from '../../src/client/types.js';
import { JobError, runScanJob, validateSettings } from '../../src/pipeline/index.js';
import type {
  JobReporter,
  JobResult,
  JobSettings,
  PendingTrigger,
  RunJobOptions,
} from '../../src/pipeline/index.js';
import type { Emulator, ScanPlan } from '../emulator/types.js';

export class RecordingReporter implements JobReporter {
  readonly lines: string[] = [];
  readonly warnings: string[] = [];
  readonly triggered: string[] = [];
  readonly settled: string[] = [];
  readonly snapshots: Scan[] = [];
  readonly retries: RetryEvent[] = [];
  /** What a face would save for its clean-up, in order: "pending", "triggered <id>", "cleared". */
  readonly saved: string[] = [];
  readonly pendingTriggers: PendingTrigger[] = [];
  /** Called when the pending trigger is saved (before the trigger is sent). */
  onPending?: (pending: PendingTrigger) => void;
  private readonly waiters: Array<{ match: RegExp; resolve: () => void }> = [];

  info(message: string): void {
    this.record(message);
  }
  warning(message: string): void {
    this.warnings.push(message);
    this.record(`warning: ${message}`);
  }
  debug(): void {}
  scanTriggered(scanId: string): void {
    this.triggered.push(scanId);
    this.saved.push(`triggered ${scanId}`);
  }
  triggerPending(pending: PendingTrigger | undefined): void {
    if (pending) {
      this.pendingTriggers.push(pending);
      this.onPending?.(pending);
    }
    this.saved.push(pending ? 'pending' : 'cleared');
  }
  progress(scan: Scan): void {
    this.snapshots.push(scan);
    this.record(`progress ${scan.status} ${scan.progress ?? ''}`);
  }
  scanSettled(scanId: string): void {
    this.settled.push(scanId);
  }
  retrying(event: RetryEvent): void {
    this.retries.push(event);
  }

  /** Resolves once a line matching `match` was recorded. */
  when(match: RegExp): Promise<void> {
    if (this.lines.some((line) => match.test(line))) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ match, resolve }));
  }

  private record(line: string): void {
    this.lines.push(line);
    for (const waiter of this.waiters.filter((w) => w.match.test(line))) waiter.resolve();
  }
}

export async function tempDir(): Promise<{ path: string; remove(): Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'tenant-scan-pipeline-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

export function settingsFor(
  emulator: Emulator,
  dir: string,
  patch: Partial<JobSettings> = {},
): JobSettings {
  return {
    apiKey: emulator.apiKey,
    apiUrl: emulator.url,
    scanType: 'compliance',
    wait: true,
    scanTimeoutMs: 60_000,
    failOnFindings: true,
    report: 'none',
    reportPath: join(dir, 'report.pdf'),
    resultsPath: join(dir, 'results.json'),
    ...patch,
  };
}

/** A fresh start for the next test: no faults, no variant, this scan plan, no requests logged. */
export function resetEmulator(emulator: Emulator, plan: ScanPlan): void {
  emulator.clearFaults();
  emulator.setVariant({});
  emulator.setScanPlan(plan);
  emulator.clearRequests();
}

/** Fast polling so scans of a fast emulator clock end the test quickly. */
export const FAST = { pollIntervalMs: { min: 40, max: 200 }, cancelGraceMs: 3_000 } as const;

export { apiRequests } from '../emulator/request-log.js';

/** The job as a face runs it: the settings checked once, then the job. */
export async function runJob(
  settings: JobSettings,
  reporter: JobReporter,
  options?: RunJobOptions,
): Promise<JobResult> {
  return runScanJob(await validateSettings(settings), reporter, options);
}

/** How a job ended: its result, or the JobError a face reports. */
export type JobOutcome = { result: JobResult } | { error: JobError };

/** The job run to its end with fast polling. Any error but a JobError is thrown: no job may end
 *  in one (it would be a crash, not a reported failure). */
export async function jobOutcome(
  settings: JobSettings,
  reporter: JobReporter,
  options: RunJobOptions = {},
): Promise<JobOutcome> {
  try {
    return {
      result: await runJob(settings, reporter, { pollIntervalMs: FAST.pollIntervalMs, ...options }),
    };
  } catch (error) {
    if (error instanceof JobError) return { error };
    throw error;
  }
}
