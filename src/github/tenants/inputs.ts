// The tenants sub-action (tenants/action.yml): a chunk of the reusable workflow's tenant list,
// scanned by the bundled CLI's `scan run --tenants` in the step's own process. Its inputs become
// that command line; the list goes to a file of this step; each tenant's key is in the step's
// environment under the name its entry gives (the workflow maps only its chunk's secrets there).

import * as core from '@actions/core';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { checkInsideRoots } from '../../pipeline/common/output-paths.js';
import type { JobWording } from '../../pipeline/index.js';
import { stepFile, writableRoots } from '../runner-paths.js';

type Env = Record<string, string | undefined>;

/** Input → the CLI option it becomes (given only when the input is not empty). */
const PASSED_ON: ReadonlyArray<[input: string, option: string]> = [
  ['scan-type', '--type'],
  ['records', '--records'],
  ['concurrency', '--concurrency'],
  ['scan-timeout-minutes', '--timeout'],
  ['stall-minutes', '--stall-minutes'],
  ['max-coverage-drop', '--max-coverage-drop'],
  ['results-max-mib', '--results-max-mib'],
  ['request-timeout-seconds', '--request-timeout'],
  ['fail-on-severity', '--fail-on-severity'],
  ['fail-on', '--fail-on'],
  ['baseline', '--baseline'],
  ['history', '--history'],
  ['sla-days', '--sla-days'],
  ['max-failed-tenants', '--max-failed-tenants'],
  ['html-file', '--html'],
  ['csv-file', '--csv'],
  ['ocsf-file', '--ocsf'],
];

/** The list's input: the CLI reads it from a file of this step (`--tenants FILE`). */
const LIST: [input: string, option: string] = ['tenants', '--tenants'];

/** How the CLI names each option an input became, in the line a bad value gets: as that input,
 *  since the user set the input and never saw the option. */
export const INPUT_OF_OPTION: ReadonlyMap<string, string> = new Map(
  [LIST, ...PASSED_ON].map(([input, option]) => [option, `input '${input}'`]),
);

/** How a tenant's error line names what to change: this sub-action's inputs (or that none moves
 *  it). */
export const TENANTS_WORDING: Partial<JobWording> = {
  scanTimeout: 'scan-timeout-minutes',
  stallMinutes: 'stall-minutes',
  resultsMax: 'results-max-mib',
  requestTimeout: 'request-timeout-seconds',
  // a waiver too far ahead: the limit is the default, which no input of this sub-action moves
  waiversMaxDays: 'a limit the tenants sub-action has no input for',
};

/** Inputs naming a file or folder the step writes: it must stay inside the workspace or
 *  RUNNER_TEMP. */
const OUTPUT_PATHS = ['records', 'html-file', 'csv-file', 'ocsf-file'];

/** The command line of the step's CLI run; the list is written to a file of this step (the CLI
 *  checks it, and every other input, before any request). */
export async function tenantsCommandLine(env: Env = process.env): Promise<string[]> {
  for (const input of OUTPUT_PATHS) {
    const path = core.getInput(input);
    const problem =
      path === ''
        ? undefined
        : await checkInsideRoots(`input '${input}'`, path, writableRoots(env));
    if (problem) throw new Error(problem);
  }
  const listFile = stepFile('tenants', env);
  await mkdir(dirname(listFile), { recursive: true });
  await writeFile(listFile, core.getInput(LIST[0], { required: true }), { mode: 0o600 });
  const argv = ['scan', 'run', LIST[1], listFile, '--fail-on-findings'];
  // `--option=value`: a value that starts with a dash is the option's value, not another option,
  // and a bad one reaches the setting's own line (which names the input).
  for (const [input, option] of PASSED_ON) {
    const value = core.getInput(input);
    if (value !== '') argv.push(`${option}=${value}`);
  }
  // The chunk's roll-up is the step's summary: its tenants, worst first.
  if (env.GITHUB_STEP_SUMMARY) argv.push('--markdown', env.GITHUB_STEP_SUMMARY);
  return argv;
}
