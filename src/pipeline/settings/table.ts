// One row per setting: its Action input, its CLI flag, the environment variable read when neither
// is given, its parser and the value checking goes on with when it is bad. Each face reads the rows
// through its own source (core.getInput, the parsed command line) and names a setting its own way
// ("input 'fail-on'", "--fail-on"); the parsers are the same. The model is upload-artifact's
// Inputs enum and the CodeQL action's one table per setting.

import type { SettingsProblems } from '../common/settings-problems.js';
import { gateProblem, waiversFileOrDefault } from '../gate/consistency.js';
import type { GateSettings } from '../gate/judge.js';
import { DEFAULT_WAIVERS_MAX_DAYS, parseWaiversMaxDays } from '../gate/waivers.js';
import { DEFAULT_MAX_COVERAGE_DROP, parseMaxCoverageDrop } from '../gate/coverage.js';
import {
  DEFAULT_REPORT_PATH,
  DEFAULT_SCAN_TIMEOUT_MINUTES,
  parseBaseline,
  parseFailOn,
  parseHistory,
  parseMinutes,
  parseOptionalPath,
  parsePath,
  parseReportPolicy,
  parseScanType,
  parseSeverityThreshold,
  parseSlaDays,
  parseTenantLabel,
} from './parse.js';
import { parseDuration } from './duration.js';
import { parseStallMinutes } from './stall-minutes.js';
import { DEFAULT_RESULTS_MAX_MIB, parseResultsMaxMib } from './results-max.js';
import type { ReportPolicy } from './types.js';

export interface SettingRow<T> {
  /** The Action's input (action.yml); absent when only the CLI has it. */
  input?: string;
  /** The CLI's flag, without `--`; absent when only the Action has it. */
  flag?: string;
  /** Read when the input or flag is empty. */
  env?: string;
  /** `name` names the setting as the face does, for the one line a bad value gets. */
  parse(name: string, raw: string | undefined): T;
  /** What checking goes on with once a value was found bad (the problem is already recorded). */
  fallback: T;
}

/** A row, its value's type inferred from its parser. */
export function setting<T>(row: SettingRow<T>): SettingRow<T> {
  return row;
}

/** Where a face reads a row: the text given, and the setting's name in that face's words. */
export type SettingSource = (row: SettingRow<unknown>) => {
  name: string;
  raw: string | undefined;
};

export type SettingTable = Record<string, SettingRow<unknown>>;

/** The values a table's rows give. */
export type SettingValues<T extends SettingTable> = {
  [K in keyof T]: T[K] extends SettingRow<infer V> ? V : never;
};

/** Reads every row; each bad value is one problem in `problems` and its row's fallback. */
export function readSettings<T extends SettingTable>(
  table: T,
  source: SettingSource,
  problems: SettingsProblems,
): SettingValues<T> {
  const values: Record<string, unknown> = {};
  for (const [key, row] of Object.entries(table)) {
    const { name, raw } = source(row);
    values[key] = problems.check(() => row.parse(name, raw), row.fallback);
  }
  return values as SettingValues<T>;
}

const optionalPath = (input: string, flag: string) =>
  setting({ input, flag, parse: parseOptionalPath, fallback: undefined as string | undefined });

/** The scan job's settings that both faces have (the gate's are below). */
export const JOB_SETTINGS = {
  scanType: setting({
    input: 'scan-type',
    flag: 'type',
    parse: parseScanType,
    fallback: 'compliance',
  }),
  scanTimeoutMs: setting({
    input: 'scan-timeout-minutes',
    flag: 'timeout',
    parse: (name, raw) => parseMinutes(name, raw, DEFAULT_SCAN_TIMEOUT_MINUTES),
    fallback: 0,
  }),
  stallMs: setting({
    input: 'stall-minutes',
    flag: 'stall-minutes',
    parse: parseStallMinutes,
    fallback: 0,
  }),
  report: setting({
    input: 'report',
    flag: 'report',
    parse: parseReportPolicy,
    fallback: 'none' as ReportPolicy,
  }),
  reportPath: setting({
    input: 'report-path',
    flag: 'out',
    parse: (name, raw) => parsePath(name, raw, DEFAULT_REPORT_PATH),
    fallback: DEFAULT_REPORT_PATH,
  }),
  junitFile: optionalPath('junit-file', 'junit'),
  sarifFile: optionalPath('sarif-file', 'sarif'),
  /** The report page (render/html): the face writes it, from the job's result. */
  htmlFile: optionalPath('html-file', 'html'),
  csvFile: optionalPath('csv-file', 'csv'),
  ocsfFile: optionalPath('ocsf-file', 'ocsf'),
  tenantLabel: setting({
    input: 'tenant-label',
    flag: 'tenant-label',
    parse: parseTenantLabel,
    fallback: undefined as string | undefined,
  }),
  resultsMaxBytes: setting({
    input: 'results-max-mib',
    flag: 'results-max-mib',
    parse: parseResultsMaxMib,
    fallback: DEFAULT_RESULTS_MAX_MIB * 1024 * 1024,
  }),
};

/** The findings gate's settings, the same in the Action and the CLI. */
export const GATE_SETTINGS = {
  threshold: setting({
    input: 'fail-on-severity',
    flag: 'fail-on-severity',
    parse: parseSeverityThreshold,
    fallback: 'info' as GateSettings['threshold'],
  }),
  failOn: setting({
    input: 'fail-on',
    flag: 'fail-on',
    parse: parseFailOn,
    fallback: 'any' as GateSettings['failOn'],
  }),
  baseline: setting({
    input: 'baseline',
    flag: 'baseline',
    parse: parseBaseline,
    fallback: { kind: 'none' } as GateSettings['baseline'],
  }),
  waiversFile: setting({
    input: 'waivers-file',
    flag: 'waivers',
    parse: parseOptionalPath,
    fallback: undefined,
  }),
  history: setting({
    input: 'history',
    flag: 'history',
    parse: parseHistory,
    fallback: 0,
  }),
  slaDays: setting({
    input: 'sla-days',
    flag: 'sla-days',
    parse: parseSlaDays,
    fallback: undefined,
  }),
  waiversMaxDays: setting({
    input: 'waivers-max-days',
    flag: 'waivers-max-days',
    parse: parseWaiversMaxDays,
    fallback: DEFAULT_WAIVERS_MAX_DAYS,
  }),
  maxCoverageDrop: setting({
    input: 'max-coverage-drop',
    flag: 'max-coverage-drop',
    parse: parseMaxCoverageDrop,
    fallback: DEFAULT_MAX_COVERAGE_DROP,
  }),
};

/** The roll-up's settings both faces have (`tenant-scan rollup`, the rollup sub-action). */
export const ROLLUP_SETTINGS = {
  maxAgeMs: setting({
    input: 'max-age',
    flag: 'max-age',
    parse: parseDuration,
    fallback: undefined as number | undefined,
  }),
};

/**
 * The gate's settings from a face's source: every row, the waivers file by default when
 * `.tenant-scan/waivers.yml` exists, and one line when they contradict each other. `waitLabel`
 * names how the face waits for a scan to end ("wait: true", "--watch").
 */
export async function readGateSettings(
  source: SettingSource,
  problems: SettingsProblems,
  options: { wait: boolean; waitLabel: string },
): Promise<GateSettings> {
  const values = readSettings(GATE_SETTINGS, source, problems);
  const gate: GateSettings = {
    ...values,
    waiversFile: await waiversFileOrDefault(values.waiversFile),
  };
  const name = (row: SettingRow<unknown>) => source(row).name;
  const problem = gateProblem(gate, options.wait, {
    failOn: name(GATE_SETTINGS.failOn),
    baseline: name(GATE_SETTINGS.baseline),
    wait: options.waitLabel,
    history: name(GATE_SETTINGS.history),
    slaDays: name(GATE_SETTINGS.slaDays),
  });
  if (problem) problems.add(problem);
  return gate;
}
