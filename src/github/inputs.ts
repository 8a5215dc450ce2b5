// The Action's inputs, typed (names as in action.yml). Secrets are masked the moment they are read,
// before anything is validated or logged. Every bad input is one line; no request is sent.

import * as core from '@actions/core';
import { basename } from 'node:path';
import { secretPart } from '../client/index.js';
import { checkInsideRoots } from '../pipeline/common/output-paths.js';
import { stepFile, writableRoots } from './runner-paths.js';
import {
  parseTenantLabel,
  parseApiKey,
  parseApiUrl,
  parseBoolean,
  parseFileName,
  parseInteger,
  parseMinutes,
  parsePath,
  parseOptionalPath,
  parseSeconds,
  parseReportPolicy,
  parseScanId,
  parseScanType,
  validateSettings,
  parseBaseline,
  parseFailOn,
  parseHistory,
  parseSeverityThreshold,
  parseSlaDays,
  DEFAULT_REPORT_PATH,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  MAX_REQUEST_TIMEOUT_SECONDS,
} from '../pipeline/settings/parse.js';
import { quoteValue } from '../pipeline/common/text.js';
import { SettingProblem, SettingsProblems } from '../pipeline/common/settings-problems.js';
import type { GateSettings } from '../pipeline/gate/judge.js';
import type { JobSettings } from '../pipeline/settings/types.js';
import type { JobLabels } from '../pipeline/common/wording.js';
import { gateProblem, waiversFileOrDefault } from '../pipeline/gate/consistency.js';
import { DEFAULT_WAIVERS_MAX_DAYS, parseWaiversMaxDays } from '../pipeline/gate/waivers.js';
import { eventFileProblem } from './event.js';
import { TRACKING_MODES, type TrackingMode } from './tracking-site.js';
import type { NotifySettings } from '../pipeline/notify/settings.js';
import { notifyInputs } from './notify-inputs.js';

export const DEFAULT_SCAN_TIMEOUT_MINUTES = 60;
export const DEFAULT_ANNOTATIONS = 10;
/** The seed gives the service's address only as a placeholder: there is no default. */
const NO_API_ADDRESS = 'no API address — set the api-url input or SERVICE_API_URL';

/** The job's own settings as the Action's inputs give them, plus what only the Action does. */
export interface ActionInputs extends Pick<
  JobSettings,
  | 'apiKey'
  | 'apiUrl'
  | 'scanType'
  | 'scanId'
  | 'wait'
  | 'scanTimeoutMs'
  | 'requestTimeoutMs'
  | 'failOnFindings'
  | 'report'
  | 'reportPath'
> {
  /** fail-on-severity, fail-on, baseline, waivers-file. */
  gate: GateSettings;
  /** JUnit XML and SARIF files of the results (undefined: not written). */
  junitFile?: string;
  sarifFile?: string;
  /** File name the report artifact gets (skipArchive names the artifact after the file). */
  artifactName: string;
  retentionDays?: number;
  jobSummary: boolean;
  annotations: number;
  githubToken?: string;
  checkRun: boolean;
  prComment: boolean;
  /** The tenant's name in the record and roll-ups (default: the service's tenant name). */
  tenantLabel?: string;
  /** Tracking issues (tracking-issues.ts): none, one, per-finding. */
  tracking: TrackingMode;
  trackingLabels: string[];
  trackingAssignees: string[];
  /** The chat notification (undefined: notify-webhook is empty). */
  notify?: NotifySettings;
}

type Env = Record<string, string | undefined>;

/** How the shared job's messages name what an Action user changes: the inputs. */
export const ACTION_JOB_LABELS: JobLabels = {
  noWait: 'wait is false',
  reportGenerate: 'report: generate',
  followScan: 'scan-id',
  scanId: 'scan-id',
  scanTimeout: 'scan-timeout-minutes',
  apiKey: 'the api-key secret',
  apiUrl: 'the api-url input (or SERVICE_API_URL)',
  waiversMaxDays: 'waivers-max-days',
};

function label(name: string): string {
  return `input '${name}'`;
}

/** Masks secret inputs at once: the raw value and each of its lines; of the API key also its
 *  secret part (after `ak_live_`) alone and case-folded, the forms a service may echo it in. */
export function maskSecrets(): void {
  for (const name of ['api-key', 'github-token', 'notify-webhook']) {
    const value = core.getInput(name, { trimWhitespace: false });
    const pieces = new Set([value, value.trim(), ...value.split(/\r?\n/).map((l) => l.trim())]);
    if (name === 'api-key') {
      const part = secretPart(value.trim());
      if (part) for (const form of [part, part.toLowerCase(), part.toUpperCase()]) pieces.add(form);
    }
    for (const piece of pieces) if (piece !== '') core.setSecret(piece);
  }
}

/** Where the JSON of the failed results goes: the runner's temp dir, one file per step. */
export function resultsFilePath(env: Env = process.env): string {
  return stepFile('failed-results', env);
}

/** Where the run record goes (output record-file): beside the results file. */
export function recordFilePath(env: Env = process.env): string {
  return stepFile('record', env);
}

const LABEL_NAME = /^[^,]{1,50}$/;
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

function parseTrackingMode(raw: string): TrackingMode {
  const value = raw.trim().toLowerCase();
  if (value === '') return 'none';
  const mode = TRACKING_MODES.find((m) => m === value);
  if (!mode) {
    throw new SettingProblem(
      `${label('tracking-issue')} must be ${TRACKING_MODES.join(', ')}, got ${quoteValue(raw)}`,
    );
  }
  return mode;
}

/** A comma-separated list of names (labels, users), each checked. */
function parseNames(name: string, raw: string, pattern: RegExp, what: string): string[] {
  const names = raw
    .split(',')
    .map((n) => n.trim())
    .filter((n) => n !== '');
  const bad = names.find((n) => !pattern.test(n));
  if (bad !== undefined) {
    throw new SettingProblem(
      `${name} must be a comma-separated list, each ${what}, got ${quoteValue(bad)}`,
    );
  }
  return names;
}

/** Reads and checks every input. Throws SettingsError (one line per bad input). */
export async function getInputs(env: Env = process.env): Promise<ActionInputs> {
  maskSecrets();
  const raw = (name: string) => core.getInput(name);
  const problems = new SettingsProblems();
  const reportPath = problems.check(
    () => parsePath(label('report-path'), raw('report-path'), DEFAULT_REPORT_PATH),
    DEFAULT_REPORT_PATH,
  );
  const inputs: ActionInputs = {
    apiKey: problems.check(() => parseApiKey(label('api-key'), raw('api-key')), ''),
    apiUrl: problems.check(
      () =>
        parseApiUrl(label('api-url'), raw('api-url')) ??
        parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL),
      undefined,
    ),
    scanType: problems.check(
      () => parseScanType(label('scan-type'), raw('scan-type')),
      'compliance',
    ),
    scanId: problems.check(() => parseScanId(label('scan-id'), raw('scan-id')), undefined),
    wait: problems.check(() => parseBoolean(label('wait'), raw('wait'), true), true),
    scanTimeoutMs: problems.check(
      () =>
        parseMinutes(
          label('scan-timeout-minutes'),
          raw('scan-timeout-minutes'),
          DEFAULT_SCAN_TIMEOUT_MINUTES,
        ),
      0,
    ),
    requestTimeoutMs: problems.check(
      () => requestTimeoutInput(),
      DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000,
    ),
    failOnFindings: problems.check(
      () => parseBoolean(label('fail-on-findings'), raw('fail-on-findings'), true),
      true,
    ),
    report: problems.check(() => parseReportPolicy(label('report'), raw('report')), 'none'),
    reportPath,
    gate: {
      threshold: problems.check(
        () => parseSeverityThreshold(label('fail-on-severity'), raw('fail-on-severity')),
        'info',
      ),
      failOn: problems.check(() => parseFailOn(label('fail-on'), raw('fail-on')), 'any'),
      baseline: problems.check(() => parseBaseline(label('baseline'), raw('baseline')), {
        kind: 'none',
      }),
      waiversFile: await waiversFileOrDefault(
        problems.check(
          () => parseOptionalPath(label('waivers-file'), raw('waivers-file')),
          undefined,
        ),
      ),
      history: problems.check(() => parseHistory(label('history'), raw('history')), 0),
      slaDays: problems.check(() => parseSlaDays(label('sla-days'), raw('sla-days')), undefined),
      waiversMaxDays: problems.check(
        () => parseWaiversMaxDays(label('waivers-max-days'), raw('waivers-max-days')),
        DEFAULT_WAIVERS_MAX_DAYS,
      ),
    },
    junitFile: problems.check(
      () => parseOptionalPath(label('junit-file'), raw('junit-file')),
      undefined,
    ),
    sarifFile: problems.check(
      () => parseOptionalPath(label('sarif-file'), raw('sarif-file')),
      undefined,
    ),
    artifactName:
      problems.check(
        () => parseFileName(label('artifact-name'), raw('artifact-name')),
        undefined,
      ) ?? basename(reportPath),
    retentionDays: problems.check(
      () =>
        parseInteger(label('retention-days'), raw('retention-days'), undefined, {
          min: 1,
          max: 90,
        }),
      undefined,
    ),
    jobSummary: problems.check(
      () => parseBoolean(label('job-summary'), raw('job-summary'), true),
      true,
    ),
    annotations: problems.check(
      () =>
        parseInteger(label('annotations'), raw('annotations'), DEFAULT_ANNOTATIONS, {
          min: 0,
          max: 1000,
        }) ?? DEFAULT_ANNOTATIONS,
      DEFAULT_ANNOTATIONS,
    ),
    githubToken: raw('github-token') || undefined,
    checkRun: problems.check(
      () => parseBoolean(label('check-run'), raw('check-run'), false),
      false,
    ),
    prComment: problems.check(
      () => parseBoolean(label('pr-comment'), raw('pr-comment'), false),
      false,
    ),
    tenantLabel: problems.check(
      () => parseTenantLabel(label('tenant-label'), raw('tenant-label')),
      undefined,
    ),
    tracking: problems.check(() => parseTrackingMode(raw('tracking-issue')), 'none'),
    trackingLabels: problems.check(
      () =>
        parseNames(
          label('tracking-labels'),
          raw('tracking-labels'),
          LABEL_NAME,
          'a label (1 to 50 characters, no comma)',
        ),
      [],
    ),
    trackingAssignees: problems.check(
      () =>
        parseNames(
          label('tracking-assignees'),
          raw('tracking-assignees'),
          LOGIN,
          'a GitHub user name',
        ),
      [],
    ),
  };
  inputs.notify = notifyInputs(problems, label, inputs);
  if (raw('api-url') === '' && (env.SERVICE_API_URL ?? '').trim() === '') {
    problems.add(NO_API_ADDRESS);
  }
  if ((inputs.checkRun || inputs.prComment || inputs.tracking !== 'none') && !inputs.githubToken) {
    problems.add(
      `${label('github-token')} is empty but check-run, pr-comment or tracking-issue is on: pass a token (the default is the workflow's token)`,
    );
  }
  const noLabel = raw('tracking-labels')
    .split(',')
    .every((name) => name.trim() === '');
  if (inputs.tracking !== 'none' && noLabel) {
    problems.add(
      `${label('tracking-labels')} is empty but tracking-issue is ${inputs.tracking}: give at least one label (the default is tenant-scan); the tracking issues are found again by it`,
    );
  }
  for (const [name, value] of [
    ['junit-file', inputs.junitFile],
    ['sarif-file', inputs.sarifFile],
  ] as const) {
    if (!inputs.wait && value !== undefined) {
      problems.add(
        `${label(name)} needs wait: true (results exist only once the scan has finished)`,
      );
    }
  }
  if (!inputs.wait && inputs.report !== 'none') {
    problems.add(
      `${label('report')} needs wait: true (a report exists only once the scan has finished)`,
    );
  }
  const gateLine = gateProblem(inputs.gate, inputs.wait, {
    failOn: label('fail-on'),
    baseline: label('baseline'),
    wait: 'wait: true',
    history: label('history'),
    slaDays: label('sla-days'),
  });
  if (gateLine) problems.add(gateLine);
  const eventProblem = eventFileProblem(env);
  if (eventProblem) problems.add(eventProblem);
  for (const problem of await outputPathProblems(inputs, env)) problems.add(problem);
  problems.throwIfAny();
  const settings = toJobSettings(inputs, env);
  await validateSettings(settings, {
    apiKey: label('api-key'),
    apiUrl: label('api-url'),
    scanType: label('scan-type'),
    scanId: label('scan-id'),
    scanTimeout: label('scan-timeout-minutes'),
    requestTimeout: label('request-timeout-seconds'),
    reportPath: label('report-path'),
    resultsPath: 'the results file in RUNNER_TEMP',
    junitPath: label('junit-file'),
    sarifPath: label('sarif-file'),
  });
  return inputs;
}

/** Files the step writes stay where the runner lets a step write, after symlinks: a path such as
 *  ../x.pdf, /etc/x.sarif or /dev/stdout is refused before any request. */
async function outputPathProblems(inputs: ActionInputs, env: Env): Promise<string[]> {
  const paths: Array<[string, string | undefined]> = [
    ['report-path', inputs.report === 'none' ? undefined : inputs.reportPath],
    ['junit-file', inputs.junitFile],
    ['sarif-file', inputs.sarifFile],
  ];
  const roots = writableRoots(env);
  const problems: string[] = [];
  for (const [name, path] of paths) {
    const problem =
      path === undefined ? undefined : await checkInsideRoots(label(name), path, roots);
    if (problem) problems.push(problem);
  }
  return problems;
}

export function toJobSettings(inputs: ActionInputs, env: Env = process.env): JobSettings {
  return {
    apiKey: inputs.apiKey,
    apiUrl: inputs.apiUrl,
    scanType: inputs.scanType,
    scanId: inputs.scanId,
    wait: inputs.wait,
    scanTimeoutMs: inputs.scanTimeoutMs,
    requestTimeoutMs: inputs.requestTimeoutMs,
    failOnFindings: inputs.failOnFindings,
    gate: inputs.gate,
    report: inputs.report,
    reportPath: inputs.reportPath,
    resultsPath: resultsFilePath(env),
    junitPath: inputs.junitFile,
    sarifPath: inputs.sarifFile,
    record: { path: recordFilePath(env), label: inputs.tenantLabel },
  };
}

/** request-timeout-seconds as milliseconds (the post step reads it too). */
export function requestTimeoutInput(): number {
  return parseSeconds(
    label('request-timeout-seconds'),
    core.getInput('request-timeout-seconds'),
    DEFAULT_REQUEST_TIMEOUT_SECONDS,
    MAX_REQUEST_TIMEOUT_SECONDS,
  );
}
