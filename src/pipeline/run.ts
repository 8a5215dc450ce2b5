// The scan job as both faces run it: gate files read (settings checked by the face), the job (trigger → wait →
// results → gate → report → verdict), its result files, and the run's record whatever its end.

import { createClient, ConfigError } from '../client/index.js';
import type { TenantClient } from '../client/index.js';
import { JobError, JobUserError, jobErrorLine, redact, secretsOf } from './common/errors.js';
import { writeFailureWords } from './common/files.js';
import { DEFAULT_GATE } from './gate/judge.js';
import { readGateFiles } from './gate/apply.js';
import { ScanJob } from './job/job.js';
import type { JobReporter, JobResult, RunJobOptions } from './job/types.js';
import { errorRecord, runRecord, writeRecord } from './output/record.js';
import { writeJudgedScanFiles } from './output/result-files.js';
import type { CheckedSettings } from './settings/validate.js';
import type { JobSettings } from './settings/types.js';

/** Runs the job of settings a face checked (validateSettings); reads the gate's files unless the
 *  face read them already (options.gateFiles). */
export async function runScanJob(
  settings: CheckedSettings,
  reporter: JobReporter,
  options: RunJobOptions = {},
): Promise<JobResult> {
  const gateFiles =
    options.gateFiles ??
    (await readGateFiles(settings.gate ?? DEFAULT_GATE, options.wording?.waiversMaxDays));
  const client = options.client ?? openClient(settings, reporter, options);
  const startedAt = new Date().toISOString();
  const job = new ScanJob(settings, reporter, client, options, gateFiles, (judged) =>
    writeJudgedScanFiles(
      { ...judged, tenantLabel: settings.record?.label },
      settings,
      options.sarifLocationUri,
      (what, path, error) =>
        reporter.warning(
          `The ${what} ${path} could not be written: ${writeFailureWords(error)}; the verdict stands`,
        ),
    ),
  );
  try {
    const result = await job.run();
    return { ...result, recordPath: await recordResult(settings, reporter, job, { result }) };
  } catch (error) {
    if (error instanceof JobError) {
      const stoppedAt = new Date().toISOString();
      error.known = { tenantName: job.tenantName, scan: job.lastScan, startedAt, stoppedAt };
    }
    await recordResult(settings, reporter, job, { error });
    throw error;
  } finally {
    if (!options.client) await client.close().catch(() => undefined);
  }
}

/** Writes the run's record (settings.record) for its result or its error; a record that cannot be
 *  written is a warning (a roll-up then lists the tenant as missing, which counts as failed). */
async function recordResult(
  settings: JobSettings,
  reporter: JobReporter,
  job: ScanJob,
  outcome: { result: JobResult } | { error: unknown },
): Promise<string | undefined> {
  const path = settings.record?.path;
  if (path === undefined) return undefined;
  const context = {
    waited: settings.wait,
    label: settings.record?.label,
    lostTrigger: job.lostTrigger,
  };
  const record =
    'result' in outcome
      ? runRecord(outcome.result, context)
      : errorRecord(jobErrorLine(outcome.error, secretsOf(settings)), {
          ...context,
          scan: job.lastScan,
          tenant: job.tenantName,
        });
  try {
    return await writeRecord(path, record);
  } catch (error) {
    reporter.warning(`The record file ${path} could not be written: ${writeFailureWords(error)}`);
    return undefined;
  }
}

function openClient(
  settings: JobSettings,
  reporter: JobReporter,
  options: RunJobOptions,
): TenantClient {
  try {
    return createClient({
      apiKey: settings.apiKey,
      secrets: settings.otherSecrets,
      baseUrl: settings.apiUrl,
      env: options.env,
      userAgentSuffix: options.userAgentSuffix,
      // Rate limiting and warm-up are retried for as long as the job may run: a job never fails
      // for a busy server while it still has time (calls of the wait are also cut by the timeout).
      retry: { maxElapsedMs: settings.scanTimeoutMs },
      requestTimeoutMs: settings.requestTimeoutMs,
      onRetry: (event) => reporter.retrying(event),
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      throw new JobUserError('Sanity checks', redact(error.message, secretsOf(settings)), {
        cause: error,
      });
    }
    throw error;
  }
}
