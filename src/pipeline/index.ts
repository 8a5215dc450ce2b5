// The CI-agnostic scan job, shared by the GitHub Action and the CLI.
export { runScanJob } from './run.js';
export {
  JobError,
  JobUserError,
  JobFailure,
  JobCancelledError,
  JobTimeoutError,
  toJobError,
  oneLine,
  jobErrorLine,
  redact,
  type JobErrorKind,
  type RunFacts,
} from './common/errors.js';
export {
  parseBoolean,
  parseMinutes,
  parseInteger,
  parseReportPolicy,
  parseScanType,
  parseList,
  parseTenantLabel,
  parseSeverityThreshold,
  parseFailOn,
  parseHistory,
  parseSlaDays,
  parseBaseline,
  parseScanId,
  parseApiKey,
  parseApiUrl,
  parseFileName,
  parsePath,
  parseOptionalPath,
  API_KEY_PREFIX,
  DEFAULT_REPORT_PATH,
  DEFAULT_SCAN_TIMEOUT_MINUTES,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  MAX_REQUEST_TIMEOUT_SECONDS,
  REPORT_POLICIES,
} from './settings/parse.js';
export { validateSettings, type CheckedSettings, type SettingNames } from './settings/validate.js';
export {
  parseRequestTimeout,
  requestTimeoutFromEnv,
  requestTimeoutOrEnv,
} from './settings/request-timeout.js';
export { parseResultsMaxMib } from './settings/results-max.js';
export { quoteValue } from './common/text.js';
export { EXAMPLE_API_URL } from './common/api-address.js';
export { SettingsError, SettingProblem, SettingsProblems } from './common/settings-problems.js';
export { writeFailureWords, writeFileAtomic } from './common/files.js';
export { readScanResults, IncompleteResultsError } from './common/results.js';
export {
  countResults,
  countsFromScan,
  countsLine,
  isEvaluatedResult,
  isFailedResult,
  kindWords,
  resultKind,
  NOT_EVALUATED_KINDS,
  type KindCount,
  type ResultCounts,
} from './common/result-kinds.js';
export {
  COVERAGE_OFF,
  DEFAULT_MAX_COVERAGE_DROP,
  coverageDropLine,
  coverageFails,
  namedChecks,
  type CoverageJudgement,
} from './gate/coverage.js';
export {
  DISPOSITIONS,
  DEFAULT_DISPOSITION,
  dispositionCountWords,
  dispositionWords,
  type Disposition,
  type DispositionCounts,
} from './gate/dispositions.js';
export { checkInsideRoots, checkWritableFile, type Root } from './common/output-paths.js';
export { waitWhileRendering } from './job/report.js';
export { DEFAULT_JOB_WORDING } from './common/wording.js';
export { causeOf, type ErrorCause } from './common/error-causes.js';
export {
  SEVERITY_ORDER,
  severityRank,
  countBySeverity,
  worstFirst,
  type ReadFinding,
} from './common/findings.js';
export {
  DEFAULT_GATE,
  GATE_SEVERITIES,
  describeGate,
  gateFails,
  gateReason,
  isDefaultGate,
  type GateOutcome,
  type GateSettings,
  type JudgedFinding,
} from './gate/judge.js';
export { applyGate, readGateFiles } from './gate/apply.js';
export { countRows, headline, type CountRow } from './output/headline.js';
export { decideVerdict } from './job/verdict.js';
export { gateProblem, waiversFileOrDefault } from './gate/consistency.js';
export {
  DEFAULT_WAIVERS_FILE,
  DEFAULT_WAIVERS_MAX_DAYS,
  parseWaiversMaxDays,
  parseWaiversText,
  readWaivers,
} from './gate/waivers.js';
export {
  DEFAULT_SLA_DAYS,
  describeDeadline,
  trendLine,
  type FindingAge,
  type SlaDays,
} from './gate/deadlines.js';
export { DEFAULT_HISTORY, MAX_HISTORY } from './gate/history.js';
export type * from './job/types.js';
export type * from './settings/types.js';
export type { JobWording, JobPhase } from './common/wording.js';
export { TEST_PACING_ENV, pollIntervalsOf, testPacingMs } from './job/pacing.js';
export {
  RECORD_VERSION,
  errorRecord,
  findingJson,
  runRecord,
  scanJson,
  scanRunExitCode,
  writeRecord,
  type FindingJson,
  type RunRecord,
  type ScanJson,
} from './output/record.js';
export {
  readRecords,
  summarize,
  MAX_RECORD_BYTES,
  type RecordEntry,
  type RecordSummary,
} from './rollup/records.js';
export {
  RollupBuilder,
  rollUpFiles,
  type CheckRow,
  type Rollup,
  type RollupSettings,
  type TenantRow,
  type TenantVerdict,
} from './rollup/rollup.js';
export { type CodeRow, type PlanRollup, type PlanRow } from './rollup/plans.js';
export { rollUpWithExports } from './rollup/fleet-exports.js';
export type { ExportPaths } from './output/exports.js';
export {
  GATE_SETTINGS,
  readGateSettings,
  readSettings,
  JOB_SETTINGS,
  ROLLUP_SETTINGS,
  setting,
  type SettingRow,
  type SettingSource,
  type SettingValues,
} from './settings/table.js';
export {
  NOTIFY_FORMATS,
  NOTIFY_ON_WORDS,
  formatOfHost,
  gateForNotify,
  notifyNeedsBaseline,
  parseNotifyFormat,
  parseNotifyOn,
  parseNotifyWebhook,
  readNotifySettings,
  NOTIFY_SETTINGS,
  type NotifyFormat,
  type NotifyOn,
  type NotifySettings,
} from './notify/settings.js';
export {
  changesOf,
  changeWords,
  changedSinceBaseline,
  decideNotify,
  type Changes,
  type RunEnd,
} from './notify/changes.js';
export {
  notifyRollup,
  notifyRun,
  redactingLog,
  runEndOf,
  type NotifyContext,
  type NotifyLinks,
  type NotifyLog,
  type NotifyMessage,
  type NotifyRenderer,
} from './notify/notify.js';
export { deliver, type Delivery, type DeliveryOptions } from './notify/deliver.js';
export { decideFleetNotify, type FleetDecision } from './notify/fleet.js';
export {
  runTenantJobs,
  tenantJobsOf,
  tenantKeysOf,
  type TenantJob,
  type TenantOutcome,
  type TenantRunOptions,
  type TenantScanObserver,
} from './run-tenants.js';
export {
  parseTenantList,
  readTenantList,
  DEFAULT_TENANT_CONCURRENCY,
  MAX_TENANT_CONCURRENCY,
  MAX_TENANTS,
  type TenantEntry,
} from './settings/tenants.js';
