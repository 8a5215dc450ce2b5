// scan run --type <t> --tenants FILE --records DIR [--concurrency N] [gate options]
// Many tenants followed at once by one process (src/pipeline/run-tenants.ts): each tenant's key
// from the variable its entry names, its record in DIR/<name>.json, one progress line per state
// change; then the roll-up of those records (the `rollup` command's table, JSON and verdict).

import { mkdir } from 'node:fs/promises';
import { parsedWithoutSecrets, redactSecrets } from '../../client/index.js';
import { resolve } from 'node:path';
import { rollupMarkdown } from '../../render/rollup-markdown.js';
import {
  SettingProblem,
  SettingsProblems,
  readGateFiles,
  readSettings,
  readTenantList,
  rollUpWithExports,
  pollIntervalsOf,
  runTenantJobs,
  tenantJobsOf,
  tenantKeysOf,
  writeFileAtomic,
  type GateSettings,
  type JobWording,
  type JobSettings,
  type Rollup,
  type TenantEntry,
  type TenantJob,
  type TenantOutcome,
} from '../../pipeline/index.js';
import {
  AS_TYPED,
  shownAsTyped,
  stringOption,
  type CommandContext,
  type OptionNaming,
  type CommandOutput,
  type ParsedInput,
} from '../command.js';
import {
  EXIT_ERROR,
  EXIT_FINDINGS,
  EXIT_OK,
  UsageError,
  findingsGateLine,
  listWords,
} from '../errors.js';
import { gateIsOn, gateSettingsOf, noteGateOff } from '../gate-options.js';
import type { OptionName } from '../options.js';
import { fleetOutputFiles } from '../output-files.js';
import { NO_API_ADDRESS } from '../settings.js';
import { TenantProgress } from '../tenant-progress.js';
import { TENANTS_FLAGS, flagSource } from '../flag-table.js';
import { rollupText } from './rollup.js';
import { noteExports } from '../result-files.js';

const COMMAND = 'scan run';
export const TENANTS_OPTIONS: OptionName[] = [
  'tenants',
  'concurrency',
  'records',
  'max-failed-tenants',
  'markdown',
];
/** The files of one tenant's run (they need --watch). */
export const RESULT_FILE_OPTIONS: OptionName[] = [
  'report',
  'out',
  'junit',
  'sarif',
  'sarif-location',
  'results-file',
];
/** The findings as CSV and OCSF: one tenant's, or with --tenants the fleet's (every tenant's). */
export const EXPORT_OPTIONS: OptionName[] = ['csv', 'ocsf'];
/** With many tenants, each tenant's record holds its results. */
const SINGLE_TENANT_ONLY: OptionName[] = [...RESULT_FILE_OPTIONS, 'record', 'tenant-label'];

/** How the shared job's messages name what a CLI user changes, per tenant. */
export const TENANTS_JOB_WORDING: Partial<JobWording> = {
  noWait: 'no --watch',
  scanTimeout: '--timeout',
  apiKey: "the tenant's secret variable",
  apiUrl: "the tenant's api-url",
  requestTimeout: '--request-timeout or SERVICE_REQUEST_TIMEOUT',
  waiversMaxDays: '--waivers-max-days',
  stallMinutes: '--stall-minutes',
  resultsMax: '--results-max-mib',
};

export function isTenantsRun(input: ParsedInput): boolean {
  return input.values.tenants !== undefined;
}

/** The options that only make sense with --tenants, refused without it. */
export function checkTenantsOnly(input: ParsedInput): void {
  const given = TENANTS_OPTIONS.filter((name) => input.values[name] !== undefined);
  if (given.length === 0) return;
  const verb = given.length === 1 ? 'needs' : 'need';
  throw new UsageError(`${listWords(given.map((n) => `--${n}`))} ${verb} --tenants`, COMMAND);
}

function checkUsage(input: ParsedInput, optionName: OptionNaming): string {
  const refused = SINGLE_TENANT_ONLY.filter((name) => input.values[name] !== undefined);
  if (refused.length > 0) {
    throw new UsageError(
      `${listWords(refused.map((n) => `--${n}`))} cannot be used with --tenants: each tenant's record (in --records) holds its results`,
      COMMAND,
    );
  }
  const records = stringOption(input, 'records');
  if (records === undefined || records.trim() === '') {
    const named = shownAsTyped(optionName, '--records')
      ? '--records <dir>'
      : optionName('--records');
    throw new UsageError(
      `${optionName('--tenants')} needs ${named}: each tenant writes its record there`,
      COMMAND,
    );
  }
  return records;
}

interface TenantsPlan {
  entries: TenantEntry[];
  template: Omit<JobSettings, 'apiKey' | 'apiUrl' | 'record'> & { gate: GateSettings };
  concurrency: number;
  maxFailedTenants: number;
  /** The fleet's report page (--html). */
  htmlFile?: string;
}

/** Every problem of the command line and the list at once, before any request. */
async function planOf(ctx: CommandContext, input: ParsedInput): Promise<TenantsPlan> {
  const problems = new SettingsProblems();
  const named = ctx.optionName ?? AS_TYPED;
  const {
    scanType,
    scanTimeoutMs,
    stallMs,
    resultsMaxBytes,
    concurrency,
    maxFailedTenants,
    htmlFile,
  } = readSettings(TENANTS_FLAGS, flagSource(input, problems, named), problems);
  const gate = await gateSettingsOf(input, problems, named);
  let entries: TenantEntry[] = [];
  try {
    entries = await readTenantList(named('--tenants'), stringOption(input, 'tenants') ?? '');
  } catch (error) {
    if (!(error instanceof SettingProblem)) throw error;
    problems.add(error.message);
  }
  const unaddressed = entries.filter((entry) => entry.apiUrl === undefined);
  if (unaddressed.length > 0 && ctx.settings.apiUrl === '') {
    problems.add(`${unaddressed[0]?.name} has no api-url and there is ${NO_API_ADDRESS}`);
  }
  problems.throwIfAny();
  const template = {
    scanType,
    wait: true,
    scanTimeoutMs,
    stallMs,
    resultsMaxBytes,
    requestTimeoutMs: ctx.settings.requestTimeoutMs,
    failOnFindings: gateIsOn(input),
    gate,
    report: 'none' as const,
    reportPath: '',
  };
  return {
    entries,
    template,
    concurrency,
    maxFailedTenants,
    htmlFile,
  };
}

export async function runTenantsScan(
  ctx: CommandContext,
  input: ParsedInput,
): Promise<CommandOutput> {
  const named = ctx.optionName ?? AS_TYPED;
  const records = checkUsage(input, named);
  const plan = await planOf(ctx, input);
  const { markdownFile, exportPaths } = await fleetOutputFiles(input, plan.htmlFile, named);
  // The gate's files are read once, here, for every tenant's job: a bad one stays one line.
  const wording = { ...TENANTS_JOB_WORDING, ...ctx.jobWording };
  const gateFiles = await readGateFiles(plan.template.gate, wording.waiversMaxDays);
  noteGateOff(ctx, input);
  const recordsDir = resolve(records);
  await mkdir(recordsDir, { recursive: true });
  const jobs = tenantJobsOf(plan.entries, ctx.io.env, plan.template, recordsDir);
  // Every tenant's key is redacted from everything the run says, whichever tenant says it.
  const keys = tenantKeysOf(jobs);
  const stderr = { write: (chunk: string) => ctx.io.stderr.write(redactSecrets(chunk, keys)) };
  const debug = ['1', 'true'].includes((ctx.io.env.TENANT_SCAN_DEBUG ?? '').toLowerCase());
  const progress = new TenantProgress(stderr, jobs.length, debug);
  progress.line(
    `Scanning ${jobs.length} tenant${jobs.length === 1 ? '' : 's'}, at most ${plan.concurrency} at once; records in ${recordsDir}`,
  );
  const outcomes = await runTenantJobs(jobs, {
    concurrency: plan.concurrency,
    job: {
      signal: ctx.signal,
      env: ctx.io.env,
      userAgentSuffix: 'cli',
      wording,
      pollIntervalMs: pollIntervalsOf(ctx.io.env),
      gateFiles,
    },
    reporterFor: (name) => progress.reporterFor(name),
    finished: (outcome) => progress.finished(outcome),
    scans: ctx.tenantScans,
  });
  // Every scan this run triggered was cancelled by its own job: the exit says interrupted.
  if (ctx.signal.aborted) throw new Error('interrupted');
  const page = plan.htmlFile === undefined ? undefined : await fleetPage(jobs);
  const { rollup, written } = await rollUpWithExports(
    jobs.map((job) => job.recordPath),
    process.cwd(),
    { expect: jobs.map((job) => job.name), maxFailedTenants: plan.maxFailedTenants },
    exportPaths,
    page?.findings.observe,
  );
  noteExports(ctx, written);
  if (markdownFile !== undefined) {
    const path = await writeFileAtomic(markdownFile, redactSecrets(rollupMarkdown(rollup), keys));
    ctx.note(`Markdown written to ${path}`);
  }
  if (page && plan.htmlFile !== undefined) {
    const path = await page.write(plan.htmlFile, rollup);
    ctx.note(`HTML report written to ${path}`);
  }
  const gated = gateIsOn(input) || input.values['max-failed-tenants'] !== undefined;
  const exitCode = exitCodeOf(rollup, outcomes, gated);
  const reason = redactSecrets(rollup.reason, keys);
  if (exitCode === EXIT_FINDINGS) ctx.note(findingsGateLine(reason));
  if (exitCode === EXIT_ERROR) ctx.note(`tenant-scan: error: the roll-up failed: ${reason}`);
  if (exitCode === EXIT_OK && rollup.verdict === 'failed') {
    ctx.note(
      `note: the roll-up failed: ${reason}; the gate is off, so the exit code is 0: add --fail-on-findings to exit 2 when it fails`,
    );
  }
  return {
    json: parsedWithoutSecrets({ version: 1, ...rollup, exitCode }, keys),
    text: () => redactSecrets(rollupText(rollup), keys),
    exitCode,
  };
}

/** The fleet's page, its records observed as the roll-up reads them; every tenant's key is kept
 *  out of it. The renderer loads only when a page is asked for. */
async function fleetPage(jobs: readonly TenantJob[]) {
  const { FleetFindings, writeFleetPage } = await import('../../render/html/write.js');
  const keys = jobs.flatMap((job) => (job.settings ? [job.settings.apiKey] : []));
  const findings = new FleetFindings(keys);
  return {
    findings,
    write: (path: string, rollup: Rollup) => writeFleetPage(path, rollup, findings),
  };
}

/** 0 when the roll-up passes (at most --max-failed-tenants failed); otherwise 1 when a tenant has
 *  no verdict (an error, as one tenant's scan run exits 1), else 2 with the gate on, 0 off. */
export function exitCodeOf(rollup: Rollup, outcomes: TenantOutcome[], gated: boolean): number {
  if (rollup.verdict === 'passed') return EXIT_OK;
  if (outcomes.some((outcome) => outcome.verdict === undefined)) return EXIT_ERROR;
  return gated ? EXIT_FINDINGS : EXIT_OK;
}
