// The job's settings checked as a whole, once, by the face that built them: every value and the
// writability of every file the job will write, each problem one line in the face's own words for
// the setting. Nothing here sends a request.

import { dirname, resolve } from 'node:path';
import { checkWritableFile } from '../common/output-paths.js';
import { SettingsProblems } from '../common/settings-problems.js';
import {
  MAX_REQUEST_TIMEOUT_SECONDS,
  MAX_SCAN_TIMEOUT_MINUTES,
  REPORT_POLICIES,
  parseApiKey,
  parseApiUrl,
  parseScanId,
  parseScanType,
  parseTenantLabel,
} from './parse.js';
import type { JobSettings } from './types.js';

export interface SettingNames {
  apiKey: string;
  apiUrl: string;
  scanType: string;
  scanId: string;
  scanTimeout: string;
  requestTimeout: string;
  reportPath: string;
  resultsPath: string;
  junitPath: string;
  sarifPath: string;
  csvPath: string;
  ocsfPath: string;
  recordPath: string;
  tenantLabel: string;
}

const DEFAULT_NAMES: SettingNames = {
  apiKey: 'api-key',
  apiUrl: 'api-url',
  scanType: 'scan-type',
  scanId: 'scan-id',
  scanTimeout: 'scan-timeout-minutes',
  requestTimeout: 'request-timeout-seconds',
  reportPath: 'report-path',
  resultsPath: 'results file',
  junitPath: 'junit path',
  sarifPath: 'sarif path',
  csvPath: 'csv path',
  ocsfPath: 'ocsf path',
  recordPath: 'record file',
  tenantLabel: 'tenant-label',
};

declare const checked: unique symbol;

/** Settings that validateSettings passed. runScanJob takes only these, so a face checks its
 *  settings once, where it can name them its own way, and nothing checks them again. */
export type CheckedSettings = JobSettings & { readonly [checked]: true };

/** Checks a JobSettings built by a face (or by hand) and the writability of every output path.
 *  Throws SettingsError listing every problem; sends nothing. */
export async function validateSettings(
  settings: JobSettings,
  given: Partial<SettingNames> = {},
): Promise<CheckedSettings> {
  const names = { ...DEFAULT_NAMES, ...given };
  const problems = new SettingsProblems();
  problems.check(() => parseApiKey(names.apiKey, settings.apiKey), '');
  if (settings.apiUrl !== undefined)
    problems.check(() => parseApiUrl(names.apiUrl, settings.apiUrl), '');
  problems.check(() => parseScanType(names.scanType, settings.scanType), '');
  if (settings.scanId !== undefined)
    problems.check(() => parseScanId(names.scanId, settings.scanId), '');
  if (!(settings.scanTimeoutMs > 0) || settings.scanTimeoutMs > MAX_SCAN_TIMEOUT_MINUTES * 60_000) {
    problems.add(
      `${names.scanTimeout} must be above 0 and at most ${MAX_SCAN_TIMEOUT_MINUTES} minutes`,
    );
  }
  const requestMs = settings.requestTimeoutMs;
  if (
    requestMs !== undefined &&
    !(requestMs > 0 && requestMs <= MAX_REQUEST_TIMEOUT_SECONDS * 1000)
  ) {
    problems.add(
      `${names.requestTimeout} must be above 0 and at most ${MAX_REQUEST_TIMEOUT_SECONDS} seconds`,
    );
  }
  if (!REPORT_POLICIES.includes(settings.report)) {
    problems.add(`report must be one of ${REPORT_POLICIES.join(', ')}`);
  }
  const files: Array<[string, string | undefined]> = [
    [names.resultsPath, settings.resultsPath],
    [names.reportPath, settings.report === 'none' ? undefined : settings.reportPath],
    [names.junitPath, settings.junitPath],
    [names.sarifPath, settings.sarifPath],
    [names.csvPath, settings.csvPath],
    [names.ocsfPath, settings.ocsfPath],
    [names.recordPath, settings.record?.path],
  ];
  if (settings.record?.label !== undefined)
    problems.check(() => parseTenantLabel(names.tenantLabel, settings.record?.label), '');
  // Files of one directory (the results file and the record in RUNNER_TEMP) that cannot be
  // written for the same reason are one problem, said once.
  const failedDirectories = new Set<string>();
  for (const [label, path] of files) {
    if (path === undefined || failedDirectories.has(dirname(resolve(path)))) continue;
    const problem = await checkWritableFile(label, path);
    if (problem) {
      problems.add(problem);
      failedDirectories.add(dirname(resolve(path)));
    }
  }
  problems.throwIfAny();
  return settings as CheckedSettings;
}
