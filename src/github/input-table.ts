// The Action's inputs, one row each (names as in action.yml): its parser, the environment variable
// read when it is empty, and the value checking goes on with once it is found bad. The gate's rows
// are the pipeline's, shared with the CLI (pipeline/settings/table.ts), as are the job's rows both
// faces have (JOB_SETTINGS).

import { quoteValue } from '../pipeline/common/text.js';
import { SettingProblem } from '../pipeline/common/settings-problems.js';
import {
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  parseApiKey,
  parseApiUrl,
  parseBoolean,
  parseFileName,
  parseInteger,
  parseScanId,
} from '../pipeline/settings/parse.js';
import { parseRequestTimeout } from '../pipeline/settings/request-timeout.js';
import { JOB_SETTINGS, setting } from '../pipeline/settings/table.js';
import { TRACKING_MODES, type TrackingMode } from './tracking/site.js';

const DEFAULT_ANNOTATIONS = 10;

const LABEL_NAME = /^[^,]{1,50}$/;
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

function parseTrackingMode(label: string, raw: string | undefined): TrackingMode {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'none';
  const mode = TRACKING_MODES.find((m) => m === value);
  if (!mode) {
    throw new SettingProblem(
      `${label} must be ${TRACKING_MODES.join(', ')}, got ${quoteValue(raw ?? '')}`,
    );
  }
  return mode;
}

/** A comma-separated list of names (labels, users), each checked. */
function names(pattern: RegExp, what: string) {
  return (label: string, raw: string | undefined): string[] => {
    const list = (raw ?? '')
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '');
    const bad = list.find((n) => !pattern.test(n));
    if (bad !== undefined) {
      throw new SettingProblem(
        `${label} must be a comma-separated list, each ${what}, got ${quoteValue(bad)}`,
      );
    }
    return list;
  };
}

const flag = (input: string, fallback: boolean) =>
  setting({ input, parse: (label, raw) => parseBoolean(label, raw, fallback), fallback });

/** Every input but the gate's. */
export const ACTION_INPUTS = {
  apiKey: setting({ input: 'api-key', parse: parseApiKey, fallback: '' }),
  apiUrl: setting({
    input: 'api-url',
    env: 'SERVICE_API_URL',
    parse: parseApiUrl,
    fallback: undefined as string | undefined,
  }),
  scanType: JOB_SETTINGS.scanType,
  scanId: setting({
    input: 'scan-id',
    parse: parseScanId,
    fallback: undefined as string | undefined,
  }),
  wait: flag('wait', true),
  scanTimeoutMs: JOB_SETTINGS.scanTimeoutMs,
  stallMs: JOB_SETTINGS.stallMs,
  resultsMaxBytes: JOB_SETTINGS.resultsMaxBytes,
  requestTimeoutMs: setting({
    input: 'request-timeout-seconds',
    parse: parseRequestTimeout,
    fallback: DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000,
  }),
  failOnFindings: flag('fail-on-findings', true),
  report: JOB_SETTINGS.report,
  reportPath: JOB_SETTINGS.reportPath,
  junitFile: JOB_SETTINGS.junitFile,
  sarifFile: JOB_SETTINGS.sarifFile,
  htmlFile: JOB_SETTINGS.htmlFile,
  csvFile: JOB_SETTINGS.csvFile,
  ocsfFile: JOB_SETTINGS.ocsfFile,
  /** Undefined: named after the report file (getInputs). */
  artifactName: setting({
    input: 'artifact-name',
    parse: parseFileName,
    fallback: undefined as string | undefined,
  }),
  retentionDays: setting({
    input: 'retention-days',
    parse: (label, raw) => parseInteger(label, raw, undefined, { min: 1, max: 90 }),
    fallback: undefined as number | undefined,
  }),
  jobSummary: flag('job-summary', true),
  annotations: setting({
    input: 'annotations',
    parse: (label, raw) =>
      parseInteger(label, raw, DEFAULT_ANNOTATIONS, { min: 0, max: 1000 }) ?? DEFAULT_ANNOTATIONS,
    fallback: DEFAULT_ANNOTATIONS,
  }),
  githubToken: setting({
    input: 'github-token',
    parse: (_label, raw) => raw || undefined,
    fallback: undefined as string | undefined,
  }),
  checkRun: flag('check-run', false),
  prComment: flag('pr-comment', false),
  tenantLabel: JOB_SETTINGS.tenantLabel,
  tracking: setting({
    input: 'tracking-issue',
    parse: parseTrackingMode,
    fallback: 'none' as TrackingMode,
  }),
  trackingLabels: setting({
    input: 'tracking-labels',
    parse: names(LABEL_NAME, 'a label (1 to 50 characters, no comma)'),
    fallback: [] as string[],
  }),
  trackingAssignees: setting({
    input: 'tracking-assignees',
    parse: names(LOGIN, 'a GitHub user name'),
    fallback: [] as string[],
  }),
};
