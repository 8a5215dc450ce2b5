// The CLI's settings, one row each: the pipeline's rows both faces share (the flag beside the
// Action's input) and the rows only the CLI has. Read from the command line by flagSource.

import {
  DEFAULT_TENANT_CONCURRENCY,
  JOB_SETTINGS,
  MAX_TENANT_CONCURRENCY,
  parseInteger,
  parseOptionalPath,
  setting,
  type SettingSource,
  type SettingsProblems,
} from '../pipeline/index.js';
import { AS_TYPED, stringOption, type OptionNaming, type ParsedInput } from './command.js';
import type { OptionName } from './options.js';

/** Where the CLI reads a row: its flag, named as the user typed it (or as `optionName` says: an
 *  embedding face's own setting). A flag given an empty value (`--junit ""`, an unset variable) is
 *  a problem, not "not given": an Action input left empty means its default, but on a command line
 *  it is a mistake the user should hear of. */
export function flagSource(
  input: ParsedInput,
  problems: SettingsProblems,
  optionName: OptionNaming = AS_TYPED,
): SettingSource {
  const reported = new Set<string>();
  return (row) => {
    const name = optionName(`--${row.flag}`);
    const raw = stringOption(input, row.flag as OptionName);
    if (raw === undefined || raw.trim() !== '') return { name, raw };
    if (!reported.has(name)) problems.add(`${name} is empty: give a value, or leave the flag out`);
    reported.add(name);
    return { name, raw: undefined };
  };
}

const optionalPath = (flag: string) =>
  setting({ flag, parse: parseOptionalPath, fallback: undefined as string | undefined });

/** `scan run` for one tenant (the gate's rows are read apart: gate-options.ts). */
export const SCAN_RUN_FLAGS = {
  scanType: JOB_SETTINGS.scanType,
  scanTimeoutMs: JOB_SETTINGS.scanTimeoutMs,
  stallMs: JOB_SETTINGS.stallMs,
  report: JOB_SETTINGS.report,
  reportPath: JOB_SETTINGS.reportPath,
  junitFile: JOB_SETTINGS.junitFile,
  sarifFile: JOB_SETTINGS.sarifFile,
  htmlFile: JOB_SETTINGS.htmlFile,
  csvFile: JOB_SETTINGS.csvFile,
  ocsfFile: JOB_SETTINGS.ocsfFile,
  tenantLabel: JOB_SETTINGS.tenantLabel,
  resultsMaxBytes: JOB_SETTINGS.resultsMaxBytes,
  resultsFile: optionalPath('results-file'),
  recordFile: optionalPath('record'),
};

/** `scan run --tenants`: the job's rows every tenant shares, and how the run is spread. */
export const TENANTS_FLAGS = {
  scanType: JOB_SETTINGS.scanType,
  /** The fleet's report page. */
  htmlFile: JOB_SETTINGS.htmlFile,
  scanTimeoutMs: JOB_SETTINGS.scanTimeoutMs,
  stallMs: JOB_SETTINGS.stallMs,
  resultsMaxBytes: JOB_SETTINGS.resultsMaxBytes,
  concurrency: setting({
    flag: 'concurrency',
    parse: (name, raw) =>
      parseInteger(name, raw, DEFAULT_TENANT_CONCURRENCY, {
        min: 1,
        max: MAX_TENANT_CONCURRENCY,
      }) ?? DEFAULT_TENANT_CONCURRENCY,
    fallback: DEFAULT_TENANT_CONCURRENCY,
  }),
  maxFailedTenants: setting({
    flag: 'max-failed-tenants',
    parse: (name, raw) => parseInteger(name, raw, 0, { min: 0, max: 100_000 }) ?? 0,
    fallback: 0,
  }),
};
