// The record of one run: the JSON document `tenant-scan scan run --output json` prints, the file the
// Action's `record-file` names and `--record FILE` writes. Version 1 is stable (docs/cli.md): keys
// are only ever added, every key is always present (null when unknown). A roll-up (rollup.ts) reads
// these records from many tenants' jobs.

import type { FindingView, Scan } from '../../client/index.js';
import { writeFileAtomic } from '../common/files.js';
import { jsonList, prettyJsonPieces, type JsonList } from '../common/json-text.js';
import type { FindingAge } from '../gate/deadlines.js';
import { DEFAULT_SLA_DAYS } from '../gate/deadlines.js';
import type { JobResult, LostTriggerReport } from '../job/types.js';
import type { ResultCounts } from '../common/result-kinds.js';
import { DEFAULT_MAX_COVERAGE_DROP, type CoverageJudgement } from '../gate/coverage.js';
import {
  countDispositions,
  DEFAULT_DISPOSITION,
  type Disposition,
  type DispositionCounts,
} from '../gate/dispositions.js';

export const RECORD_VERSION = 1;

export interface ScanJson {
  id: string;
  status: string;
  phase: Scan['phase'];
  terminal: boolean;
  progress: number | null;
  scanType: string | null;
  createdAt: string | null;
  completedAt: string | null;
  summary: {
    total: number | null;
    passed: number | null;
    failed: number | null;
    skipped: number | null;
  } | null;
}

export function scanJson(scan: Scan): ScanJson {
  return {
    id: scan.id,
    status: scan.status,
    phase: scan.phase,
    terminal: scan.terminal,
    progress: scan.progress ?? null,
    scanType: scan.scanType ?? null,
    createdAt: scan.createdAt ?? null,
    completedAt: scan.completedAt ?? null,
    summary: scan.summary
      ? {
          total: scan.summary.total ?? null,
          passed: scan.summary.passed ?? null,
          failed: scan.summary.failed ?? null,
          skipped: scan.summary.skipped ?? null,
        }
      : null,
  };
}

export interface FindingJson {
  id: string;
  /** The check's identity (FindingView.identity): what waivers and roll-ups name it by. */
  checkId: string;
  title: string;
  severity: FindingView['severity'];
  category: string | null;
  result: string;
  description: string | null;
  remediation: string | null;
  reference: string | null;
  /** Only with a baseline (--baseline): new or unchanged. */
  baselineState?: 'new' | 'unchanged';
  /** Only when a waiver in force matched it. */
  waiver?: { reason: string; expires: string; owner: string | null; disposition: Disposition };
  /** Only with --history: when its current failing streak began (null: unknown), how many scans
   *  it spans, its deadline (null: unknown) and whether it is overdue. */
  failingSince?: string | null;
  failingScans?: number;
  dueAt?: string | null;
  overdue?: boolean;
  /** Only in a record of `scan run`: whether it fails the gate. */
  gating?: boolean;
}

/** What the gate may add to a finding (gate.ts). */
type Marked = FindingView & {
  baselineState?: 'new' | 'unchanged';
  waiver?: { reason: string; expires: string; owner?: string; disposition?: Disposition };
  age?: FindingAge;
  gating?: boolean;
};

export function findingJson(finding: Marked): FindingJson {
  const { baselineState, waiver, age, gating } = finding;
  return {
    id: finding.id,
    checkId: finding.identity,
    title: finding.title,
    severity: finding.severity,
    category: finding.category ?? null,
    result: finding.result,
    description: finding.description ?? null,
    remediation: finding.remediation ?? null,
    reference: finding.reference ?? null,
    ...(baselineState ? { baselineState } : {}),
    ...(waiver
      ? {
          waiver: {
            reason: waiver.reason,
            expires: waiver.expires,
            owner: waiver.owner ?? null,
            disposition: waiver.disposition ?? DEFAULT_DISPOSITION,
          },
        }
      : {}),
    ...(age
      ? {
          failingSince: age.failingSince ?? null,
          failingScans: age.failingScans,
          dueAt: age.dueAt ?? null,
          overdue: age.overdue,
        }
      : {}),
    ...(gating === undefined ? {} : { gating }),
  };
}

/** The exit code of `tenant-scan scan run` for a result: 0, 2 when findings fail the gate and
 *  the run was asked to fail on them, 1 when the scan did not complete. */
export function scanRunExitCode(result: JobResult, waited: boolean): 0 | 1 | 2 {
  if (!waited) return 0;
  if (result.scan.phase !== 'succeeded') return 1;
  return result.failStep ? 2 : 0;
}

export interface RecordContext {
  waited: boolean;
  /** A name for the tenant in roll-ups, given by the job (else the service's tenant name). */
  label?: string;
  lostTrigger?: LostTriggerReport;
}

export interface RunRecord {
  version: typeof RECORD_VERSION;
  /** When the record was written, ISO 8601 UTC, on the writer's clock: the time of every record,
   *  also of a run that ended in an error before any scan (a roll-up's --max-age needs one). */
  writtenAt: string;
  label: string | null;
  scan: ScanJson | null;
  tenant: string | null;
  triggered: boolean;
  lostTrigger: LostTriggerReport | null;
  waited: boolean;
  verdict: 'passed' | 'failed' | null;
  failureReason: string | null;
  verdictReason: string | null;
  /** The one line of a run that ended in an error; null otherwise. */
  error: string | null;
  total: number | null;
  failed: number;
  new: number;
  fixed: number;
  waived: number;
  /** The waived findings by disposition: risk-accepted, false-positive, mitigated,
   *  compensating-control. */
  waivedBy: DispositionCounts;
  overdue: number | null;
  trend: number[];
  /** Checks evaluated per scan, aligned with `trend` (null: unknown); [] without a history. */
  evaluatedTrend: Array<number | null>;
  /** The checks by what became of them (result-kinds.ts); null when unknown. */
  results: ResultCounts | null;
  /** The checks evaluated now against the baseline's (null: coverage off, or no completed scan). */
  coverage: CoverageJson | null;
  gate: ReturnType<typeof gateJson>;
  /** Made as the record is written (a list of 250,000 is never held as JSON views at once). */
  findings: JsonList<FindingJson>;
  fixedFindings: FindingJson[];
  report: {
    policy: string;
    state: string | null;
    path: string | null;
    bytes: number | null;
    sha256: string | null;
    note: string | null;
  };
  files: {
    results: string | null;
    junit: string | null;
    sarif: string | null;
    csv: string | null;
    ocsf: string | null;
  };
  exitCode: number;
}

export function runRecord(result: JobResult, context: RecordContext): RunRecord {
  const download = result.report.download;
  return {
    version: RECORD_VERSION,
    writtenAt: new Date().toISOString(),
    label: context.label ?? null,
    scan: scanJson(result.scan),
    tenant: result.tenantName ?? null,
    triggered: result.triggered,
    lostTrigger: context.lostTrigger ?? null,
    waited: context.waited,
    verdict: result.verdict ?? null,
    failureReason: result.failureReason ?? null,
    verdictReason: result.verdictReason ?? null,
    error: null,
    total: result.total ?? null,
    failed: result.failed,
    new: result.gate?.counts.new ?? 0,
    fixed: result.gate?.counts.fixed ?? 0,
    waived: result.gate?.counts.waived ?? 0,
    waivedBy: result.gate?.counts.dispositions ?? countDispositions([]),
    overdue: result.gate && result.gate.history.kind !== 'none' ? result.gate.counts.overdue : null,
    trend: result.gate?.trend ?? [],
    evaluatedTrend: result.gate?.evaluatedTrend ?? [],
    results: result.results ?? null,
    coverage: coverageJson(result.gate?.coverage),
    gate: gateJson(result),
    findings: jsonList(result.findings, findingJson),
    fixedFindings: result.fixed.map(findingJson),
    report: {
      policy: result.report.policy,
      state: result.report.state ?? null,
      path: download?.path ?? null,
      bytes: download?.bytes ?? null,
      sha256: download?.sha256 ?? null,
      note: result.report.note ?? null,
    },
    files: {
      results: result.resultsPath ?? null,
      junit: result.junitPath ?? null,
      sarif: result.sarifPath ?? null,
      csv: result.csvPath ?? null,
      ocsf: result.ocsfPath ?? null,
    },
    exitCode: scanRunExitCode(result, context.waited),
  };
}

/** The record of a run that ended in an error (`error` is its one line): what is known, the
 *  rest null, so a roll-up lists the tenant with the reason instead of a missing record. */
export function errorRecord(
  error: string,
  context: RecordContext & { scan?: Scan; tenant?: string },
): RunRecord {
  return {
    version: RECORD_VERSION,
    writtenAt: new Date().toISOString(),
    label: context.label ?? null,
    scan: context.scan ? scanJson(context.scan) : null,
    tenant: context.tenant ?? null,
    triggered: false,
    lostTrigger: context.lostTrigger ?? null,
    waited: context.waited,
    verdict: null,
    failureReason: null,
    verdictReason: null,
    error,
    total: null,
    failed: 0,
    new: 0,
    fixed: 0,
    waived: 0,
    waivedBy: countDispositions([]),
    overdue: null,
    trend: [],
    evaluatedTrend: [],
    results: null,
    coverage: null,
    gate: null,
    findings: jsonList([], findingJson),
    fixedFindings: [],
    report: { policy: 'none', state: null, path: null, bytes: null, sha256: null, note: null },
    files: { results: null, junit: null, sarif: null, csv: null, ocsf: null },
    exitCode: 1,
  };
}

/** Writes the record whole or not at all; returns the absolute path. */
export function writeRecord(path: string, record: RunRecord): Promise<string> {
  return writeFileAtomic(path, recordText(record));
}

/** The record's text (pretty JSON and a line feed), a piece at a time. */
export function* recordText(record: RunRecord): Generator<string> {
  yield* prettyJsonPieces(record);
  yield '\n';
}

function gateJson(result: JobResult) {
  const gate = result.gate;
  if (!gate) return null;
  const waiver = (w: { check: string; expires: string; line: number }) => ({
    check: w.check,
    expires: w.expires,
    line: w.line,
  });
  return {
    failOnSeverity: gate.settings.threshold,
    failOn: gate.settings.failOn,
    baseline:
      gate.baseline.kind === 'found'
        ? gate.baseline.source
        : gate.baseline.kind === 'missing'
          ? null
          : 'none',
    baselineMissing: gate.baseline.kind === 'missing' ? gate.baseline.why : null,
    waiversFile: gate.settings.waiversFile ?? null,
    history: gate.settings.history ?? 0,
    historyRead:
      gate.history.kind === 'read'
        ? gate.history.scans.map((scan) => ({
            id: scan.id,
            at: scan.at,
            failed: scan.failedCount,
            evaluated: scan.evaluated,
          }))
        : null,
    historyMissing: gate.history.kind === 'unreadable' ? gate.history.why : null,
    slaDays: gate.history.kind === 'none' ? null : (gate.settings.slaDays ?? DEFAULT_SLA_DAYS),
    failing: gate.counts.gating,
    maxCoverageDrop: gate.settings.maxCoverageDrop ?? DEFAULT_MAX_COVERAGE_DROP,
    expiredWaivers: gate.expired.map(waiver),
    staleWaivers: gate.stale.map(waiver),
  };
}

/** Coverage in the record: what was compared and what dropped, or why nothing was. */
export type CoverageJson =
  | { compared: false; why: string }
  | {
      compared: true;
      baseline: string;
      baselineEvaluated: number;
      evaluatedNow: number;
      dropped: string[];
      dropPercent: number;
      maxDrop: number;
      fails: boolean;
    };

function coverageJson(coverage: CoverageJudgement | undefined): CoverageJson | null {
  if (!coverage || coverage.kind === 'off') return null;
  if (coverage.kind === 'none') return { compared: false, why: coverage.why };
  return {
    compared: true,
    baseline: coverage.source,
    baselineEvaluated: coverage.baselineEvaluated,
    evaluatedNow: coverage.evaluatedNow,
    dropped: coverage.dropped,
    dropPercent: coverage.dropPercent,
    maxDrop: coverage.maxDrop,
    fails: coverage.fails,
  };
}
