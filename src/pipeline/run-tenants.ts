// Many tenants in one run: the single-tenant job (run.ts) once per tenant, at most `concurrency`
// at a time. Each tenant has its own client (requester, pacing, retries: the service throttles
// per account), its own gate, record and error: one tenant's failure, 429 storm or hang never
// fails another, and delays it only by the slot it holds (bounded by its own scan timeout).
// Cancellation reaches every job at once: each cancels the scan it triggered.

import { join } from 'node:path';
import { jobErrorLine, secretsOf } from './common/errors.js';
import { SettingProblem } from './common/settings-problems.js';
import { errorRecord, writeRecord } from './output/record.js';
import { runScanJob } from './run.js';
import { parseApiKey } from './settings/parse.js';
import { validateSettings } from './settings/validate.js';
import type { TenantEntry } from './settings/tenants.js';
import type { JobSettings } from './settings/types.js';
import type { JobReporter, PendingTrigger, RunJobOptions, Verdict } from './job/types.js';

/** One tenant's job: its settings, or the problem that keeps it from starting (a missing key). */
export interface TenantJob {
  name: string;
  settings?: JobSettings;
  problem?: string;
  recordPath: string;
}

/** How a tenant's run ended, small enough to keep for a thousand tenants. */
export interface TenantOutcome {
  name: string;
  verdict?: Verdict;
  failed: number;
  scanId?: string;
  /** The one error line when the tenant has no verdict. */
  error?: string;
  /** Whether the tenant's job started (false: a missing key, or cancelled before its turn). */
  started: boolean;
  recordPath?: string;
}

export interface TenantRunOptions {
  concurrency: number;
  /** Options of every tenant's job (the signal is shared: aborting it stops them all). */
  job: Omit<RunJobOptions, 'client'>;
  /** The reporter of one tenant's job (progress, warnings, retries: each face prefixes its name). */
  reporterFor(name: string): JobReporter;
  /** Called once per tenant as it ends, in the order they end. */
  finished?(outcome: TenantOutcome): void;
  /** Told of each tenant's triggered scan as it starts and settles (a face that can be killed
   *  remembers them, to cancel what is left running); the CLI gives none. */
  scans?: TenantScanObserver;
}

/** Each tenant's scan that a run triggered: pending (the trigger is about to be sent; undefined once
 *  its answer came or no scan can have started), known (its trigger answered), then settled (it
 *  ended or was cancelled). Only the tenant's name, the scan id and the trigger's window: never a
 *  key. */
export interface TenantScanObserver {
  /** At most this many scans listed before a trigger kept in its pending window (see
   *  JobSettings.pendingTriggerIdsMax): one window per tenant is saved. */
  readonly pendingIdsMax?: number;
  pending(tenant: string, pending: PendingTrigger | undefined): void;
  triggered(tenant: string, scanId: string): void;
  settled(tenant: string, scanId: string): void;
}

/** The tenants' jobs from the list: each key read from the variable its entry names; a key
 *  missing or malformed is that tenant's problem (one failed row), not the run's. Every job holds
 *  every tenant's key as a secret to redact (one list, shared): one service host serves them all. */
export function tenantJobsOf(
  entries: readonly TenantEntry[],
  env: Record<string, string | undefined>,
  template: Omit<JobSettings, 'apiKey' | 'apiUrl' | 'record'>,
  recordsDir: string,
): TenantJob[] {
  const keys: string[] = [];
  const jobs = entries.map((entry): TenantJob => {
    const recordPath = join(recordsDir, `${entry.name}.json`);
    try {
      const where = entry.secretName
        ? `secret ${entry.secretName} (given as ${entry.secret})`
        : entry.secret;
      const missing = entry.secretName
        ? undefined
        : `no API key — set ${entry.secret} (from a CI secret)`;
      const apiKey = parseApiKey(where, env[entry.secret], missing);
      keys.push(apiKey);
      const settings: JobSettings = {
        ...template,
        apiKey,
        otherSecrets: keys,
        apiUrl: entry.apiUrl,
        record: { path: recordPath, label: entry.name },
      };
      return { name: entry.name, settings, recordPath };
    } catch (error) {
      if (!(error instanceof SettingProblem)) throw error;
      return { name: entry.name, problem: error.message, recordPath };
    }
  });
  return jobs;
}

/** Every key the tenants' jobs hold. */
export function tenantKeysOf(jobs: readonly TenantJob[]): readonly string[] {
  return jobs.find((job) => job.settings?.otherSecrets)?.settings?.otherSecrets ?? [];
}

/** Runs every tenant's job, `concurrency` at a time; never throws for one tenant's error. The
 *  outcomes are in the order of `jobs`. */
export async function runTenantJobs(
  jobs: readonly TenantJob[],
  options: TenantRunOptions,
): Promise<TenantOutcome[]> {
  const outcomes: TenantOutcome[] = new Array<TenantOutcome>(jobs.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < jobs.length; index = next++) {
      const job = jobs[index] as TenantJob;
      const outcome = await runOneTenant(job, options);
      outcomes[index] = outcome;
      options.finished?.(outcome);
    }
  };
  const workers = Math.max(1, Math.min(options.concurrency, jobs.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return outcomes;
}

async function runOneTenant(job: TenantJob, options: TenantRunOptions): Promise<TenantOutcome> {
  if (options.job.signal?.aborted) {
    return notStarted(job, 'Cancelled: the run was stopped before this tenant started');
  }
  if (job.problem !== undefined || !job.settings) {
    return notStarted(job, `Sanity checks failed: ${job.problem ?? 'no settings'}`);
  }
  const idsMax = options.scans?.pendingIdsMax;
  const settings = idsMax ? { ...job.settings, pendingTriggerIdsMax: idsMax } : job.settings;
  try {
    const checked = await validateSettings(settings);
    const reporter = observed(options.reporterFor(job.name), job.name, options.scans);
    const result = await runScanJob(checked, reporter, options.job);
    return {
      name: job.name,
      verdict: result.verdict,
      failed: result.failed,
      scanId: result.scanId,
      error: result.verdict ? undefined : (result.failureReason ?? `scan ${result.status}`),
      started: true,
      recordPath: result.recordPath,
    };
  } catch (error) {
    // runScanJob wrote the tenant's error record; the line never carries its key.
    return {
      name: job.name,
      failed: 0,
      error: jobErrorLine(error, secretsOf(settings)),
      started: true,
      recordPath: settings.record?.path,
    };
  }
}

/** The tenant's reporter, also telling the observer of its scan's trigger and end. */
function observed(reporter: JobReporter, name: string, scans?: TenantScanObserver): JobReporter {
  if (!scans) return reporter;
  // reporterFor gives a plain object (its methods are own properties): spreading keeps them.
  return {
    ...reporter,
    triggerPending(pending) {
      scans.pending(name, pending);
      reporter.triggerPending?.(pending);
    },
    scanTriggered(scanId) {
      scans.triggered(name, scanId);
      reporter.scanTriggered(scanId);
    },
    scanSettled(scanId) {
      scans.settled(name, scanId);
      reporter.scanSettled(scanId);
    },
  };
}

/** A tenant that never started still leaves a record: the roll-up lists it failed, with why. */
async function notStarted(job: TenantJob, error: string): Promise<TenantOutcome> {
  const outcome: TenantOutcome = { name: job.name, failed: 0, error, started: false };
  try {
    await writeRecord(job.recordPath, errorRecord(error, { waited: true, label: job.name }));
    outcome.recordPath = job.recordPath;
  } catch {
    // No record: the roll-up lists the tenant as missing, which counts as failed too.
  }
  return outcome;
}
