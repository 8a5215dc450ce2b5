// The CI-agnostic scan job, shared by the GitHub Action and the CLI.
export { runScanJob } from './job.js';
export {
  JobError,
  JobUserError,
  JobFailure,
  JobCancelledError,
  JobTimeoutError,
  toJobError,
  basePathHint,
  oneLine,
  jobErrorLine,
  redact,
  type JobErrorKind,
} from './errors.js';
export {
  SettingsError,
  SettingProblem,
  SettingsProblems,
  parseBoolean,
  parseMinutes,
  parseSeconds,
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
  validateSettings,
  quoteValue,
  API_KEY_PREFIX,
  DEFAULT_REPORT_PATH,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  MAX_REQUEST_TIMEOUT_SECONDS,
  REPORT_POLICIES,
  type SettingLabels,
} from './settings.js';
export { writeFileAtomic } from './files.js';
export { readScanResults, IncompleteResultsError } from './results.js';
export { checkInsideRoots, checkWritableFile, type Root } from './output-paths.js';
export { waitWhileRendering } from './report.js';
export { DEFAULT_JOB_LABELS } from './labels.js';
export {
  SEVERITY_ORDER,
  severityRank,
  countBySeverity,
  worstFirst,
  type ReadFinding,
} from './findings.js';
export {
  DEFAULT_GATE,
  GATE_SEVERITIES,
  describeGate,
  gateReason,
  isDefaultGate,
  type GateOutcome,
  type GateSettings,
  type JudgedFinding,
} from './gate.js';
export { applyGate, readGateFiles } from './apply-gate.js';
export { countRows, headline, type CountRow } from './headline.js';
export { gateProblem, waiversFileOrDefault } from './gate-settings.js';
export { DEFAULT_WAIVERS_FILE } from './waivers.js';
export {
  DEFAULT_SLA_DAYS,
  describeDeadline,
  trendLine,
  type FindingAge,
  type SlaDays,
} from './deadlines.js';
export { DEFAULT_HISTORY, MAX_HISTORY } from './history.js';
export { TEST_PACING_ENV, pollIntervalsOf, testPacingMs } from './pacing.js';
export type * from './types.js';
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
} from './record.js';
export {
  readRecords,
  summarize,
  MAX_RECORD_BYTES,
  type RecordEntry,
  type RecordSummary,
} from './rollup-records.js';
export {
  RollupBuilder,
  rollUpFiles,
  type CheckRow,
  type Rollup,
  type RollupSettings,
  type TenantRow,
  type TenantVerdict,
} from './rollup.js';
