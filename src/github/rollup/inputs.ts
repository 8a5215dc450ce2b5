// The rollup sub-action's inputs (rollup/action.yml), typed and checked at once: one line per bad
// input, nothing read before they are all good.

import * as core from '@actions/core';
import { checkInsideRoots, checkWritableFile } from '../../pipeline/common/output-paths.js';
import { parseBoolean, parseInteger, parseList } from '../../pipeline/settings/parse.js';
import { SettingsProblems } from '../../pipeline/common/settings-problems.js';
import { writableRoots } from '../runner-paths.js';
import { notifyInputs } from '../notify/inputs.js';
import type { NotifySettings } from '../../pipeline/notify/settings.js';
import { parsePlanFailOn, type PlanFailOn } from '../../pipeline/tenant-settings/document.js';
import { ROLLUP_SETTINGS, readSettings } from '../../pipeline/settings/table.js';
import { patternBase } from '../../pipeline/rollup/records.js';

type Env = Record<string, string | undefined>;

export const DEFAULT_RECORDS = 'tenant-scan-records/**/*.json';

export interface RollupInputs {
  /** Record files or globs, relative to the workspace. */
  records: string[];
  expect?: string[];
  failOnFindings: boolean;
  maxFailedTenants: number;
  /** What fails a tenant's plan (plan files read beside the records). */
  planFailOn: PlanFailOn;
  /** A record or plan older than this (ms) is stale; undefined: any age. */
  maxAgeMs?: number;
  jobSummary: boolean;
  markdownFile?: string;
  /** The fleet's report page (render/html). */
  htmlFile?: string;
  /** The fleet's findings as CSV and OCSF (every tenant's), each uploaded as an artifact. */
  csvFile?: string;
  ocsfFile?: string;
  notify?: NotifySettings;
}

function inputName(name: string): string {
  return `input '${name}'`;
}

export async function getRollupInputs(env: Env = process.env): Promise<RollupInputs> {
  const webhook = core.getInput('notify-webhook', { trimWhitespace: false });
  for (const piece of new Set([webhook, webhook.trim()])) if (piece !== '') core.setSecret(piece);
  const problems = new SettingsProblems();
  const raw = (name: string) => core.getInput(name);
  const records = parseList(raw('records'));
  const expectRaw = raw('expect');
  const markdownFile = raw('markdown-file') || undefined;
  const htmlFile = raw('html-file') || undefined;
  const csvFile = raw('csv-file') || undefined;
  const ocsfFile = raw('ocsf-file') || undefined;
  const inputs: RollupInputs = {
    records: records.length > 0 ? records : [DEFAULT_RECORDS],
    expect: expectRaw === '' ? undefined : parseList(expectRaw),
    failOnFindings: problems.check(
      () => parseBoolean(inputName('fail-on-findings'), raw('fail-on-findings'), true),
      true,
    ),
    maxFailedTenants: problems.check(
      () =>
        parseInteger(inputName('max-failed-tenants'), raw('max-failed-tenants'), 0, {
          min: 0,
          max: 100_000,
        }) ?? 0,
      0,
    ),
    planFailOn: problems.check(
      () => parsePlanFailOn(inputName('plan-fail-on'), raw('plan-fail-on') || undefined, 'any'),
      'any',
    ),
    ...readSettings(
      ROLLUP_SETTINGS,
      (row) => ({ name: inputName(row.input ?? ''), raw: raw(row.input ?? '') }),
      problems,
    ),
    jobSummary: problems.check(
      () => parseBoolean(inputName('job-summary'), raw('job-summary'), true),
      true,
    ),
    markdownFile,
    htmlFile,
    csvFile,
    ocsfFile,
    notify: notifyInputs(problems, inputName),
  };
  for (const problem of await recordsOutsideWorkspace(inputs.records, env)) problems.add(problem);
  for (const [name, path] of [
    ['markdown-file', markdownFile],
    ['html-file', htmlFile],
    ['csv-file', csvFile],
    ['ocsf-file', ocsfFile],
  ] as const) {
    for (const problem of await outputFileProblems(inputName(name), path, env))
      problems.add(problem);
  }
  problems.throwIfAny();
  return inputs;
}

/** The records are read in the workspace only (docs/rollup.md): a plain path must resolve inside
 *  it after symlinks, a glob's fixed part (the folder its matches must stay in) too. One line per
 *  pattern that leaves it, before anything is read. */
async function recordsOutsideWorkspace(patterns: readonly string[], env: Env): Promise<string[]> {
  const [workspace] = writableRoots(env);
  if (!workspace) return [];
  const problems: string[] = [];
  for (const pattern of patterns) {
    const base = patternBase(pattern, workspace.path);
    const outside = await checkInsideRoots(inputName('records'), base, [workspace], pattern);
    if (outside) problems.push(outside);
  }
  return problems;
}

/** Why a file the step writes cannot be: outside the workspace and RUNNER_TEMP, or unwritable. */
async function outputFileProblems(label: string, path: string | undefined, env: Env) {
  if (path === undefined) return [];
  const where = await checkInsideRoots(label, path, writableRoots(env));
  if (where) return [where];
  const writable = await checkWritableFile(label, path);
  return writable ? [writable] : [];
}
