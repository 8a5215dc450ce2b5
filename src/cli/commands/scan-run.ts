// scan run --type <t> [--watch] [--fail-on-findings] [--report …] [--junit …] [--sarif …] [--csv …]
// The one-line pipeline step: the shared scan job (src/pipeline) with a CLI reporter.

import {
  DEFAULT_REPORT_PATH,
  DEFAULT_SCAN_TIMEOUT_MINUTES,
  readSettings,
  runRecord,
  trendLine,
  countsLine,
  dispositionCountWords,
  namedChecks,
  type CoverageJudgement,
  readGateFiles,
  pollIntervalsOf,
  describeGate,
  gateForNotify,
  isDefaultGate,
  runScanJob,
  JobError,
  SettingsProblems,
  validateSettings,
  writeFailureWords,
  type JobReporter,
  type JobResult,
  type JobSettings,
  type LostTriggerReport,
  type NotifySettings,
  type SettingNames,
} from '../../pipeline/index.js';
import {
  stringOption,
  type CommandContext,
  type CommandOutput,
  type CommandSpec,
  type ParsedInput,
} from '../command.js';
import {
  CLI_JOB_WORDING,
  EXIT_ERROR,
  EXIT_FINDINGS,
  UsageError,
  errorLine,
  errorCause,
  findingsGateLine,
} from '../errors.js';
import { ProgressDisplay, retryLine } from '../progress.js';
import { record } from '../render.js';
import { gateIsOn, gateSettingsOf, noteGateOff } from '../gate-options.js';
import { checkSarifLocationUse, sarifLocationOf } from '../result-files.js';
import { findingsTable } from './scan.js';
import { SCAN_RUN_FLAGS, flagSource } from '../flag-table.js';
import { checkOutputFiles } from '../output-files.js';
import { lineLog } from '../line-log.js';
import { notifying, notifySettingsOf } from '../notify.js';
import { TENANTS_OPTIONS, isTenantsRun, runTenantsScan } from './scan-run-tenants.js';
import { COMMAND, WATCH_ONLY, checkUsage } from './scan-run-usage.js';

const NAMES: SettingNames = {
  apiKey: 'SERVICE_API_KEY',
  apiUrl: 'SERVICE_API_URL',
  scanType: '--type',
  scanId: '--scan-id',
  scanTimeout: '--timeout',
  requestTimeout: '--request-timeout',
  reportPath: '-o/--out',
  resultsPath: '--results-file',
  junitPath: '--junit',
  sarifPath: '--sarif',
  csvPath: '--csv',
  ocsfPath: '--ocsf',
  recordPath: '--record',
  tenantLabel: '--tenant-label',
};

/** Settings from the command line and the environment; every problem at once, before any request. */
async function settingsOf(
  ctx: CommandContext,
  input: ParsedInput,
): Promise<{
  settings: JobSettings;
  sarifLocation: string;
  notify?: NotifySettings;
  htmlFile?: string;
}> {
  const problems = new SettingsProblems();
  const { apiKey, apiUrl, requestTimeoutMs } = ctx.settings;
  const flags = readSettings(SCAN_RUN_FLAGS, flagSource(input, problems), problems);
  const gate = await gateSettingsOf(input, problems);
  const sarifLocation = problems.check(() => sarifLocationOf(input, ctx.io.env), '');
  const notify = notifySettingsOf(ctx, input, problems);
  const followed = stringOption(input, 'scan-id');
  problems.throwIfAny();
  const settings: JobSettings = {
    apiKey,
    apiUrl,
    scanType: flags.scanType,
    wait: input.values.watch === true,
    scanTimeoutMs: flags.scanTimeoutMs,
    stallMs: flags.stallMs,
    requestTimeoutMs,
    failOnFindings: gateIsOn(input),
    gate: notify ? gateForNotify(gate, notify.on) : gate,
    report: flags.report,
    reportPath: flags.reportPath,
    resultsPath: flags.resultsFile,
    resultsMaxBytes: flags.resultsMaxBytes,
    junitPath: flags.junitFile,
    sarifPath: flags.sarifFile,
    csvPath: flags.csvFile,
    ocsfPath: flags.ocsfFile,
    record: { path: flags.recordFile, label: flags.tenantLabel },
    ...(followed === undefined ? {} : { scanId: followed }),
  };
  await checkOutputFiles([['--html', flags.htmlFile]]);
  return { settings, sarifLocation, notify, htmlFile: flags.htmlFile };
}

/** What the job told the CLI besides its result: kept for the JSON output. */
interface JobNotes {
  lostTrigger?: LostTriggerReport;
}

function reporterOf(ctx: CommandContext, display: ProgressDisplay, notes: JobNotes): JobReporter {
  const debug = ['1', 'true'].includes((ctx.io.env.TENANT_SCAN_DEBUG ?? '').toLowerCase());
  return {
    ...lineLog((line) => display.line(line)),
    debug: (message) => (debug ? display.line(`debug: ${message}`) : undefined),
    scanTriggered: () => undefined,
    lostTriggerLookup: (report) => (notes.lostTrigger = report),
    progress: (scan) => display.update(scan),
    scanSettled: () => undefined,
    retrying: (event) => display.line(retryLine(event)),
  };
}

async function runScan(ctx: CommandContext, input: ParsedInput): Promise<CommandOutput> {
  if (isTenantsRun(input)) return runTenantsScan(ctx, input);
  checkSarifLocationUse(input, COMMAND);
  if (
    stringOption(input, 'out') !== undefined &&
    (stringOption(input, 'report') ?? 'none') === 'none'
  ) {
    throw new UsageError(
      '-o/--out is the report file: give --report if-ready or --report generate too',
      COMMAND,
    );
  }
  const display = new ProgressDisplay(ctx.io.stderr);
  try {
    const { settings: given, sarifLocation, notify, htmlFile } = await settingsOf(ctx, input);
    const settings = await validateSettings(given, NAMES);
    // The gate's files are read before the job (which takes them): a bad one stays one line.
    const gateFiles = settings.gate
      ? await readGateFiles(settings.gate, CLI_JOB_WORDING.waiversMaxDays)
      : undefined;
    noteGateOff(ctx, input);
    const notes: JobNotes = {};
    const result = await notifying(ctx, display, notify, () =>
      runScanJob(settings, reporterOf(ctx, display, notes), {
        signal: ctx.signal,
        env: ctx.io.env,
        userAgentSuffix: 'cli',
        wording: CLI_JOB_WORDING,
        sarifLocationUri: sarifLocation,
        pollIntervalMs: pollIntervalsOf(ctx.io.env),
        gateFiles,
      }),
    ).catch(async (error: unknown) => {
      display.stop();
      if (htmlFile) await writeErrorPage(ctx, htmlFile, error, settings);
      throw error;
    });
    display.stop();
    const htmlPath = htmlFile ? await writePage(ctx, htmlFile, result, settings) : undefined;
    const output = outputOf(result, settings, notes, htmlPath);
    if (output.exitCode === EXIT_FINDINGS)
      ctx.note(findingsGateLine(result.failureReason ?? `${result.failed} failed findings`));
    // A scan that failed or was cancelled remotely: the one error line says so.
    if (output.exitCode === EXIT_ERROR) {
      ctx.note(
        errorLine(
          `Verdict failed: ${result.failureReason ?? `scan status ${result.status}`}`,
          ctx.settings.apiKey,
        ),
      );
    }
    return output;
  } finally {
    display.stop();
  }
}

/** The run's report page (--html); returns where it went. One that cannot be written after the
 *  scan is a warning, as a result file's: the verdict and its exit code stand. */
async function writePage(
  ctx: CommandContext,
  path: string,
  result: JobResult,
  settings: JobSettings,
): Promise<string | undefined> {
  const { runInputOf, writeRunPage } = await import('../../render/html/write.js');
  try {
    const written = await writeRunPage(path, runInputOf(result, settings.record?.label), {
      secrets: [settings.apiKey],
    });
    ctx.note(`HTML report written to ${written}`);
    return written;
  } catch (error) {
    ctx.note(
      `warning: The HTML report ${path} could not be written: ${writeFailureWords(error)}; the verdict stands`,
    );
    return undefined;
  }
}

/** The page of a run that ended in an error (--html): no verdict, the error line's words, what
 *  was known. None for an error before the job; one that cannot be written is a note. */
async function writeErrorPage(
  ctx: CommandContext,
  path: string,
  error: unknown,
  settings: JobSettings,
): Promise<void> {
  const known = error instanceof JobError ? error.known : undefined;
  if (known === undefined) return;
  const line = errorCause(error, settings.apiKey);
  try {
    const { errorInputOf, writeRunPage } = await import('../../render/html/write.js');
    const written = await writeRunPage(path, errorInputOf(line, known, settings.record?.label), {
      secrets: [settings.apiKey],
    });
    ctx.note(`HTML report written to ${written} (no verdict: the run ended in an error)`);
  } catch (failure) {
    ctx.note(
      `warning: The HTML report ${path} could not be written: ${writeFailureWords(failure)}`,
    );
  }
}

function outputOf(
  result: JobResult,
  settings: JobSettings,
  notes: JobNotes,
  htmlPath?: string,
): CommandOutput {
  const json = runRecord(result, {
    waited: settings.wait,
    label: settings.record?.label,
    lostTrigger: notes.lostTrigger,
  });
  return { json, text: () => textOf(result, settings, htmlPath), exitCode: json.exitCode };
}

function textOf(result: JobResult, settings: JobSettings, htmlPath?: string): string {
  const download = result.report.download;
  const verdict = result.verdict
    ? `${result.verdict}${result.verdictReason ? ` (${result.verdictReason})` : ''}`
    : 'not waited for (use --watch)';
  const head = record([
    ['scan', result.scan.id],
    ['type', result.scan.scanType ?? settings.scanType],
    ['status', result.status],
    ['tenant', result.tenantName],
    ['verdict', verdict],
    ['total', result.total],
    ['failed', settings.wait ? result.failed : undefined],
    ['checks', result.results ? countsLine(result.results) : undefined],
    ...gateRecord(result),
    [
      'report',
      download
        ? `${download.path} (${download.bytes} bytes)`
        : settings.report === 'none'
          ? undefined
          : result.report.note,
    ],
    ['results', result.resultsPath],
    ['junit', result.junitPath],
    ['sarif', result.sarifPath],
    ['html', htmlPath],
    ['csv', result.csvPath],
    ['ocsf', result.ocsfPath],
  ]);
  if (!settings.wait || result.findings.length === 0) return head;
  return `${head}\n${findingsTable(result.findings)}`;
}

function gateRecord(result: JobResult): Array<[string, string | number | undefined]> {
  const gate = result.gate;
  if (!gate || isDefaultGate(gate.settings)) return [];
  return [
    ['gate', describeGate(gate.settings)],
    [
      'baseline',
      gate.baseline.kind === 'found'
        ? gate.baseline.source
        : gate.baseline.kind === 'missing'
          ? `none (${gate.baseline.why})`
          : undefined,
    ],
    ['new', gate.baseline.kind === 'none' ? undefined : gate.counts.new],
    ['fixed', gate.baseline.kind === 'none' ? undefined : gate.counts.fixed],
    [
      'waived',
      gate.settings.waiversFile
        ? `${gate.counts.waived}${gate.counts.waived > 0 ? ` (${dispositionCountWords(gate.counts.dispositions)})` : ''}`
        : undefined,
    ],
    ['coverage', gate.baseline.kind === 'none' ? undefined : coverageText(gate.coverage)],
    ['overdue', gate.history.kind === 'none' ? undefined : gate.counts.overdue],
    ['trend', gate.trend.length > 0 ? trendLine(gate.trend) : undefined],
    [
      'evaluated',
      gate.evaluatedTrend.length > 0
        ? gate.evaluatedTrend.map((n) => (n === null ? '?' : String(n))).join(' → ')
        : undefined,
    ],
  ];
}

/** "200 of 240 evaluated in scan X; 40 not evaluated now (MT.1201, …)", or why not compared. */
function coverageText(coverage: CoverageJudgement): string | undefined {
  if (coverage.kind === 'off') return undefined;
  if (coverage.kind === 'none') return `not compared (${coverage.why})`;
  const drop = coverage.dropped.length;
  const lost = drop > 0 ? `; ${drop} not evaluated now (${namedChecks(coverage.dropped)})` : '';
  return `${coverage.evaluatedNow} evaluated now, ${coverage.baselineEvaluated} in ${coverage.source}${lost}${coverage.fails ? ': fails the gate' : ''}`;
}

export const SCAN_RUN: CommandSpec = {
  path: ['scan', 'run'],
  summary: 'Trigger a scan; with --watch follow it, judge it and write the result files',
  options: ['type', 'watch', ...WATCH_ONLY, 'record', 'tenant-label', ...TENANTS_OPTIONS],
  usage: '--type <scan_type>|--scan-id <id>',
  checkUsage: checkUsage,
  ownConnections: isTenantsRun,
  details: [
    'Progress goes to stderr: a live bar on a terminal, a line per status change or 10% step otherwise.',
    'Ctrl-C (SIGINT) or SIGTERM cancels the scan this command started, then exits 130 (143 on SIGTERM).',
    '--scan-id <id> --watch follows a scan that exists instead of --type triggering one (a scheduled scan,',
    "another job's): judged and written the same; it is never cancelled by this command.",
    'Without --watch the command prints the new scan and exits; the other options need --watch.',
    `--report defaults to none; -o/--out defaults to ${DEFAULT_REPORT_PATH}. --timeout defaults to ${DEFAULT_SCAN_TIMEOUT_MINUTES} minutes.`,
    '--record writes the run record (what --output json prints) also when the run ends in an error: `tenant-scan rollup` reads records of many tenants.',
    'Exit codes: 0 done; 1 an error or the scan did not complete (or stalled: --stall-minutes); 2 failed',
    'findings that fail the gate, or a coverage drop beyond --max-coverage-drop (with a baseline), when',
    'the gate is on: --fail-on-findings, --fail-on-severity or --fail-on (--baseline, --waivers,',
    '--history and --sla-days alone change the verdict, not the exit code).',
    '',
    'Many tenants in one process: --tenants FILE (a JSON list [{"name", "api-url", "secret"}], each',
    "secret naming the environment variable that holds that tenant's key) --records DIR; implies",
    '--watch. Every tenant is scanned at once (at most --concurrency, default 50), each with its own',
    'key, pacing, gate and record (DIR/<name>.json); a line per tenant state change; then the',
    'roll-up of the records (as `tenant-scan rollup`). A tenant whose key is missing or refused is one',
    '`error` row. Exit codes: 0 the roll-up passes (--max-failed-tenants, default 0); 1 a tenant has no',
    'verdict; 2 failed findings fail it with the gate on. SIGINT/SIGTERM cancel every scan started.',
    '',
    'Pipeline step:',
    '  tenant-scan scan run --type compliance --watch --fail-on-findings \\',
    '    --report generate -o report.pdf --junit results.xml --sarif results.sarif --html report.html',
  ].join('\n'),
  run: runScan,
};
