// The report step, by policy: 'if-ready' downloads only a report that needs no generation;
// 'generate' may generate one (a report credit may be spent: the user asked for it explicitly).
// A report that cannot be had is a note that says what to do, never a failed job.

import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ReportStatus, TenantClient } from '../../client/index.js';
import type { JobReporter, ReportOutcome } from './types.js';
import type { JobSettings } from '../settings/types.js';
import type { JobWording } from '../common/wording.js';

const DEFAULT_REPORT_TIMEOUT_MS = 300_000;
const DEFAULT_REPORT_POLL_MS = 1_000;

const ORG_NAME_NOTE =
  'the report needs an organisation name and the tenant has none: set it in the dashboard (Settings), then run again';
function lockedNote(wording: JobWording): string {
  return `the report has not been generated yet (status locked): ask for it with ${wording.reportGenerate} (this may spend a report credit), or generate it in the dashboard`;
}

interface ReportRunOptions {
  signal: AbortSignal;
  pollMs?: number;
  wording: JobWording;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

export async function fetchReport(
  client: TenantClient,
  scanId: string,
  settings: JobSettings,
  reporter: JobReporter,
  options: ReportRunOptions,
): Promise<ReportOutcome> {
  const policy = settings.report;
  let status = await client.reports.status(scanId, { signal: options.signal });
  reporter.info(`Report status: ${status.status || '(none)'}`);

  if (status.state === 'locked' && policy === 'generate') {
    reporter.info(
      `Generating the report (${options.wording.reportGenerate}; this may spend a report credit)`,
    );
    await client.reports.generate(scanId, { signal: options.signal });
    status = await client.reports.status(scanId, { signal: options.signal });
  }
  if (status.state === 'rendering') {
    status = await waitWhileRendering(client, scanId, {
      timeoutMs: settings.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS,
      pollMs: options.pollMs,
      signal: options.signal,
    });
  }

  switch (status.state) {
    case 'ready':
      return download(client, scanId, settings, reporter, options, status);
    case 'orgNameRequired':
      return warn(reporter, { policy, state: status.state, note: ORG_NAME_NOTE });
    case 'locked':
      return warn(reporter, { policy, state: status.state, note: lockedNote(options.wording) });
    case 'rendering':
      return warn(reporter, {
        policy,
        state: status.state,
        note: `the report was still rendering after ${Math.round((settings.reportTimeoutMs ?? DEFAULT_REPORT_TIMEOUT_MS) / 1000)} s: download it later from the dashboard`,
      });
    default:
      return warn(reporter, {
        policy,
        state: status.state,
        note: `the report status "${status.status}" is not a known one; no report was downloaded`,
      });
  }
}

function warn(reporter: JobReporter, outcome: ReportOutcome): ReportOutcome {
  reporter.warning(`Report: ${outcome.note}`);
  return outcome;
}

/** Reads the report's status until it is no longer rendering, or `timeoutMs` has passed (the last
 *  status read is returned either way). Shared with the CLI's `report download --wait`. */
export async function waitWhileRendering(
  client: TenantClient,
  scanId: string,
  options: { timeoutMs: number; pollMs?: number; signal: AbortSignal },
): Promise<ReportStatus> {
  const deadline = Date.now() + options.timeoutMs;
  const pollMs = options.pollMs ?? DEFAULT_REPORT_POLL_MS;
  let status = await client.reports.status(scanId, { signal: options.signal });
  while (status.state === 'rendering' && Date.now() + pollMs <= deadline) {
    await sleep(pollMs, options.signal);
    status = await client.reports.status(scanId, { signal: options.signal });
  }
  return status;
}

async function download(
  client: TenantClient,
  scanId: string,
  settings: JobSettings,
  reporter: JobReporter,
  options: ReportRunOptions,
  status: ReportStatus,
): Promise<ReportOutcome> {
  await mkdir(dirname(resolve(settings.reportPath)), { recursive: true });
  reporter.info(`Downloading the report to ${settings.reportPath}`);
  const result = await client.reports.download(scanId, settings.reportPath, {
    signal: options.signal,
  });
  reporter.info(
    `Report downloaded to ${result.path} (${result.bytes} bytes, sha256 ${result.sha256})`,
  );
  return { policy: settings.report, state: status.state, download: result };
}
