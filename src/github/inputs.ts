// The Action's inputs, typed (names as in action.yml). Secrets are masked the moment they are read,
// before anything is validated or logged. Every bad input is one line; no request is sent.

import * as core from '@actions/core';
import { basename } from 'node:path';
import { secretPart } from '../client/index.js';
import { checkInsideRoots, checkWritableFile } from '../pipeline/common/output-paths.js';
import { SettingsProblems } from '../pipeline/common/settings-problems.js';
import type { GateSettings } from '../pipeline/gate/judge.js';
import type { JobWording } from '../pipeline/common/wording.js';
import {
  validateSettings,
  type CheckedSettings,
  type SettingNames,
} from '../pipeline/settings/validate.js';
import { parseRequestTimeout } from '../pipeline/settings/request-timeout.js';
import { readGateSettings, readSettings, type SettingSource } from '../pipeline/settings/table.js';
import type { JobSettings } from '../pipeline/settings/types.js';
import { eventFileProblem } from './event.js';
import { ACTION_INPUTS } from './input-table.js';
import { stepFile, writableRoots } from './runner-paths.js';
import type { TrackingMode } from './tracking/site.js';
import type { NotifySettings } from '../pipeline/notify/settings.js';
import { notifyInputs } from './notify/inputs.js';

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
  | 'stallMs'
  | 'requestTimeoutMs'
  | 'failOnFindings'
  | 'report'
  | 'reportPath'
  | 'resultsMaxBytes'
> {
  /** fail-on-severity, fail-on, baseline, waivers-file. */
  gate: GateSettings;
  /** JUnit XML and SARIF files of the results (undefined: not written). */
  junitFile?: string;
  sarifFile?: string;
  /** The run's report page (render/html), written and uploaded by the step (undefined: none). */
  htmlFile?: string;
  /** The findings as CSV and OCSF, each uploaded as an artifact (undefined: not written). */
  csvFile?: string;
  ocsfFile?: string;
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
  /** Tracking issues (tracking/issues.ts): none, one, per-finding. */
  tracking: TrackingMode;
  trackingLabels: string[];
  trackingAssignees: string[];
  /** The chat notification (undefined: notify-webhook is empty). */
  notify?: NotifySettings;
  /** The job's settings, checked once here (naming the inputs): what runScanJob runs. */
  job: CheckedSettings;
}

type Env = Record<string, string | undefined>;

/** How the shared job's messages name what an Action user changes: the inputs. */
export const ACTION_JOB_WORDING: JobWording = {
  noWait: 'wait is false',
  reportGenerate: 'report: generate',
  insteadOfTrigger: 'follow an existing scan with scan-id',
  scanId: 'scan-id',
  scanTimeout: 'scan-timeout-minutes',
  apiKey: 'the api-key secret',
  apiUrl: 'the api-url input (or SERVICE_API_URL)',
  requestTimeout: 'request-timeout-seconds',
  waiversMaxDays: 'waivers-max-days',
  stallMinutes: 'stall-minutes',
  resultsMax: 'results-max-mib',
};

function inputName(name: string): string {
  return `input '${name}'`;
}

/** Masks secret inputs at once: the raw value and each of its lines; of the API key also its
 *  secret part (after `ak_live_`) alone and case-folded, the forms a service may echo it in. */
export function maskSecrets(): void {
  for (const name of ['api-key', 'github-token', 'notify-webhook']) {
    const value = core.getInput(name, { trimWhitespace: false });
    if (name === 'api-key') maskApiKey(value);
    else maskPieces(value);
  }
}

/** An API key as given and in the forms a log could show it (its secret part in either case). */
export function maskApiKey(value: string): void {
  const part = secretPart(value.trim());
  maskPieces(value, part ? [part, part.toLowerCase(), part.toUpperCase()] : []);
}

function maskPieces(value: string, extra: string[] = []): void {
  const lines = value.split(/\r?\n/).map((l) => l.trim());
  for (const piece of new Set([value, value.trim(), ...lines, ...extra])) {
    if (piece !== '') core.setSecret(piece);
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

/** Where the Action reads a row: its input, else the row's environment variable. */
function actionSource(env: Env): SettingSource {
  return (row) => {
    const name = row.input ?? '';
    const raw = core.getInput(name);
    if (raw === '' && row.env) return { name: `env ${row.env}`, raw: env[row.env] };
    return { name: inputName(name), raw };
  };
}

/** Reads and checks every input. Throws SettingsError (one line per bad input). */
export async function getInputs(env: Env = process.env): Promise<ActionInputs> {
  maskSecrets();
  const problems = new SettingsProblems();
  const source = actionSource(env);
  const values = readSettings(ACTION_INPUTS, source, problems);
  const inputs: Omit<ActionInputs, 'job'> = {
    ...values,
    artifactName: values.artifactName ?? basename(values.reportPath),
    gate: await readGateSettings(source, problems, { wait: values.wait, waitLabel: 'wait: true' }),
  };
  inputs.notify = notifyInputs(problems, inputName, inputs);
  for (const problem of inputsTogetherProblems(inputs, env)) problems.add(problem);
  for (const problem of await outputPathProblems(inputs, env)) problems.add(problem);
  problems.throwIfAny();
  return { ...inputs, job: await validateSettings(toJobSettings(inputs, env), VALIDATION_NAMES) };
}

/** How validateSettings names what it checks again. */
const VALIDATION_NAMES: Partial<SettingNames> = {
  apiKey: inputName('api-key'),
  apiUrl: inputName('api-url'),
  scanType: inputName('scan-type'),
  scanId: inputName('scan-id'),
  scanTimeout: inputName('scan-timeout-minutes'),
  requestTimeout: inputName('request-timeout-seconds'),
  reportPath: inputName('report-path'),
  resultsPath: 'the results file in RUNNER_TEMP',
  junitPath: inputName('junit-file'),
  sarifPath: inputName('sarif-file'),
  csvPath: inputName('csv-file'),
  ocsfPath: inputName('ocsf-file'),
};

/** Inputs that are fine alone and wrong together, and what the runner must give. */
function inputsTogetherProblems(inputs: Omit<ActionInputs, 'job'>, env: Env): string[] {
  const problems: string[] = [];
  if (core.getInput('api-url') === '' && (env.SERVICE_API_URL ?? '').trim() === '') {
    problems.push(NO_API_ADDRESS);
  }
  if ((inputs.checkRun || inputs.prComment || inputs.tracking !== 'none') && !inputs.githubToken) {
    problems.push(
      `${inputName('github-token')} is empty but check-run, pr-comment or tracking-issue is on: pass a token (the default is the workflow's token)`,
    );
  }
  const noLabel = core
    .getInput('tracking-labels')
    .split(',')
    .every((name) => name.trim() === '');
  if (inputs.tracking !== 'none' && noLabel) {
    problems.push(
      `${inputName('tracking-labels')} is empty but tracking-issue is ${inputs.tracking}: give at least one label (the default is tenant-scan); the tracking issues are found again by it`,
    );
  }
  for (const [name, value] of [
    ['junit-file', inputs.junitFile],
    ['sarif-file', inputs.sarifFile],
    ['html-file', inputs.htmlFile],
    ['csv-file', inputs.csvFile],
    ['ocsf-file', inputs.ocsfFile],
  ] as const) {
    if (!inputs.wait && value !== undefined) {
      problems.push(
        `${inputName(name)} needs wait: true (results exist only once the scan has finished)`,
      );
    }
  }
  if (!inputs.wait && inputs.report !== 'none') {
    problems.push(
      `${inputName('report')} needs wait: true (a report exists only once the scan has finished)`,
    );
  }
  const eventProblem = eventFileProblem(env);
  if (eventProblem) problems.push(eventProblem);
  return problems;
}

/** Files the step writes stay where the runner lets a step write, after symlinks: a path such as
 *  ../x.pdf, /etc/x.sarif or /dev/stdout is refused before any request. */
async function outputPathProblems(inputs: Omit<ActionInputs, 'job'>, env: Env): Promise<string[]> {
  const paths: Array<[string, string | undefined]> = [
    ['report-path', inputs.report === 'none' ? undefined : inputs.reportPath],
    ['junit-file', inputs.junitFile],
    ['sarif-file', inputs.sarifFile],
    ['html-file', inputs.htmlFile],
    ['csv-file', inputs.csvFile],
    ['ocsf-file', inputs.ocsfFile],
  ];
  const roots = writableRoots(env);
  const problems: string[] = [];
  for (const [name, path] of paths) {
    if (path === undefined) continue;
    const outside = await checkInsideRoots(inputName(name), path, roots);
    // The job checks the files it writes (validateSettings); the page is the step's own.
    const problem =
      outside ??
      (name === 'html-file' ? await checkWritableFile(inputName(name), path) : undefined);
    if (problem) problems.push(problem);
  }
  return problems;
}

function toJobSettings(inputs: Omit<ActionInputs, 'job'>, env: Env): JobSettings {
  return {
    apiKey: inputs.apiKey,
    apiUrl: inputs.apiUrl,
    scanType: inputs.scanType,
    scanId: inputs.scanId,
    wait: inputs.wait,
    scanTimeoutMs: inputs.scanTimeoutMs,
    stallMs: inputs.stallMs,
    requestTimeoutMs: inputs.requestTimeoutMs,
    failOnFindings: inputs.failOnFindings,
    gate: inputs.gate,
    report: inputs.report,
    reportPath: inputs.reportPath,
    resultsPath: resultsFilePath(env),
    resultsMaxBytes: inputs.resultsMaxBytes,
    junitPath: inputs.junitFile,
    sarifPath: inputs.sarifFile,
    csvPath: inputs.csvFile,
    ocsfPath: inputs.ocsfFile,
    record: { path: recordFilePath(env), label: inputs.tenantLabel },
  };
}

/** request-timeout-seconds as milliseconds (the post step reads it too). */
export function requestTimeoutInput(): number {
  return parseRequestTimeout(
    inputName('request-timeout-seconds'),
    core.getInput('request-timeout-seconds'),
  );
}
