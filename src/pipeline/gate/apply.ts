// Runs the gate for a completed scan: the files read before any request (readGateFiles), the
// baseline read after the results (applyGate), the judgement, and what the log should say.
// Shared by the scan job and the CLI's `scan results`.

import type { FindingView, Scan, TenantClient } from '../../client/index.js';
import {
  baselineFromHistory,
  readBaselineFile,
  readPreviousBaseline,
  type BaselineFile,
} from './baseline.js';
import {
  COVERAGE_OFF,
  coverageLogLine,
  coverageWanted,
  DEFAULT_MAX_COVERAGE_DROP,
  judgeCoverage,
  type CoverageJudgement,
} from './coverage.js';
import { agesOf, DEFAULT_SLA_DAYS, evaluatedTrend, failedTrend } from './deadlines.js';
import { readHistory, scanTime, type HistoryRead } from './history.js';
import { toJobError } from '../common/errors.js';
import {
  judgeFindings,
  type BaselineRead,
  type GateOutcome,
  type GateSettings,
  type Waiver,
} from './judge.js';
import { SettingsError } from '../common/settings-problems.js';
import { farAheadProblems, readWaivers } from './waivers.js';

/** What the gate reads from disk, before any request. */
export interface GateFiles {
  waivers: Waiver[];
  /** The findings of a baseline file (and the checks it evaluated, when it lists every result). */
  baselineFile?: BaselineFile;
}

export interface GateLog {
  info(message: string): void;
  warning(message: string): void;
}

/** Reads the waivers file and the baseline file; throws one SettingsError with every problem (a
 *  waiver further ahead than the gate's waivers-max-days is one, `maxDaysLabel` names it). */
export async function readGateFiles(gate: GateSettings, maxDaysLabel?: string): Promise<GateFiles> {
  const problems: string[] = [];
  const collect = async <T>(read: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await read();
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      for (const problem of error.problems) problems.push(problem);
      return undefined;
    }
  };
  const path = gate.waiversFile;
  const waivers = path ? await collect(() => readWaivers(path)) : [];
  if (path && waivers)
    for (const problem of farAheadProblems(path, waivers, gate.waiversMaxDays, maxDaysLabel))
      problems.push(problem);
  const { baseline } = gate;
  const baselineFile =
    baseline.kind === 'file' ? await collect(() => readBaselineFile(baseline.path)) : undefined;
  if (problems.length > 0) throw new SettingsError(problems);
  return { waivers: waivers ?? [], baselineFile };
}

/** The baseline the gate compares with. `previous` takes the newest scan of the history when one
 *  was read (no second read of it). */
async function baselineOf(
  client: TenantClient,
  current: () => Promise<Scan>,
  gate: GateSettings,
  files: GateFiles,
  history: HistoryRead,
  context: { listed?: readonly Scan[]; signal: AbortSignal; nowMs?: number; maxBytes?: number },
): Promise<BaselineRead> {
  const { baseline } = gate;
  if (baseline.kind === 'none') return { kind: 'none' };
  if (baseline.kind === 'file') {
    const file = files.baselineFile;
    return {
      kind: 'found',
      source: `baseline file ${baseline.path}`,
      failed: file?.failed ?? [],
      ...(file?.evaluated ? { evaluated: file.evaluated } : {}),
    };
  }
  if (history.kind === 'read') return baselineFromHistory(history, await current());
  if (history.kind === 'unreadable') {
    return { kind: 'missing', why: `the previous scan could not be read (${history.why})` };
  }
  try {
    return await readPreviousBaseline(client, await current(), context.listed, {
      ...context,
      all: coverageWanted(gate),
    });
  } catch (error) {
    if (context.signal.aborted) throw error;
    // The safe side: without the previous scan every failed finding counts as new.
    const why = toJobError('Baseline', error).detail;
    return { kind: 'missing', why: `the previous scan could not be read (${why})` };
  }
}

/** The checks of the current scan as the gate sees them: its failed findings (worst first), and
 *  the identities of the checks it evaluated when every result was read (coverage needs them). */
export interface CurrentChecks {
  failed: readonly FindingView[];
  evaluated?: readonly string[];
  /** Checks it evaluated by its own counts, for the trend when not every result was read. */
  evaluatedCount?: number;
}

/** Coverage against the baseline, when there is one to compare with (coverage.ts). */
function coverageOf(
  gate: GateSettings,
  baseline: BaselineRead,
  current: CurrentChecks,
): CoverageJudgement {
  if ((gate.maxCoverageDrop ?? DEFAULT_MAX_COVERAGE_DROP) >= COVERAGE_OFF) return { kind: 'off' };
  if (baseline.kind !== 'found') {
    return {
      kind: 'none',
      why:
        baseline.kind === 'missing'
          ? `no baseline (${baseline.why})`
          : 'no baseline to compare with',
    };
  }
  if (!baseline.evaluated) {
    return {
      kind: 'none',
      why: `${baseline.source} lists failed results only (a file with every result, such as \`scan results <id> --json\` writes, can be compared)`,
    };
  }
  if (!current.evaluated) return { kind: 'none', why: 'not every result of this scan was read' };
  return judgeCoverage(
    baseline.evaluated,
    current.evaluated,
    gate.maxCoverageDrop ?? DEFAULT_MAX_COVERAGE_DROP,
    baseline.source,
  );
}

/** Judges a completed scan's failed findings (worst first) and its coverage, and logs what the
 *  gate saw. `current` gives the scan (its type, creation and completion time), asked only for
 *  the baseline `previous` and the history. */
export async function applyGate(
  client: TenantClient,
  current: () => Promise<Scan>,
  checks: CurrentChecks,
  gate: GateSettings,
  files: GateFiles,
  context: {
    listed?: readonly Scan[];
    signal: AbortSignal;
    log: GateLog;
    nowMs?: number;
    /** The most bytes each results read of the history or the baseline may hold. */
    maxBytes?: number;
    /** The failed findings are the caller's own: judged in place (judge.ts). */
    owned?: boolean;
  },
): Promise<GateOutcome> {
  const { failed } = checks;
  const count = gate.history ?? 0;
  const history =
    count > 0
      ? await readHistory(client, await current(), count, {
          ...context,
          allNewest: gate.baseline.kind === 'previous' && coverageWanted(gate),
        })
      : ({ kind: 'none' } as const);
  const baseline = await baselineOf(client, current, gate, files, history, context);
  const common = {
    baseline,
    waivers: files.waivers,
    coverage: coverageOf(gate, baseline, checks),
    ...(checks.evaluated ? { evaluatedNow: new Set(checks.evaluated) } : {}),
  };
  const evidence =
    history.kind === 'none'
      ? common
      : {
          ...common,
          history,
          ages: agesOf(
            failed,
            scanTime(await current()),
            history,
            gate.slaDays ?? DEFAULT_SLA_DAYS,
          ),
          trend: failedTrend(history, failed.length),
          evaluatedTrend: evaluatedTrend(history, checks),
        };
  const outcome = judgeFindings(
    failed,
    gate,
    evidence,
    context.nowMs ?? Date.now(),
    context.owned ? 'in-place' : 'copy',
  );
  logGate(outcome, gate.waiversFile ?? '', context.log);
  return outcome;
}

function logGate(outcome: GateOutcome, file: string, log: GateLog): void {
  const { baseline, counts } = outcome;
  const coverage = coverageLogLine(outcome.coverage);
  if (coverage && outcome.coverage.kind === 'compared' && outcome.coverage.fails)
    log.warning(coverage);
  else if (coverage) log.info(coverage);
  const { history } = outcome;
  if (history.kind === 'read') {
    const scans = history.scans.length;
    const s = (n: number) => (n === 1 ? '' : 's');
    const later =
      history.later > 0 ? ` (${history.later} later scan${s(history.later)} left out)` : '';
    log.info(
      `History: ${scans} previous scan${s(scans)} read${later}; failed findings ${outcome.trend.join(' → ')}; ${counts.overdue} overdue`,
    );
  } else if (history.kind === 'unreadable') {
    const what = history.skew ? history.why : `could not be read whole (${history.why})`;
    log.warning(`History: ${what}; every age counts as unknown, so overdue`);
  }
  if (baseline.kind === 'found') {
    log.info(
      `Baseline: ${baseline.source} (${counts.new} new, ${counts.unchanged} unchanged, ${counts.fixed} fixed)`,
    );
  } else if (baseline.kind === 'missing') {
    log.info(`Baseline: none — ${baseline.why}; every failed finding counts as new`);
  }
  if (counts.unknownSeverity > 0) {
    log.info(
      `${counts.unknownSeverity} failed finding${counts.unknownSeverity === 1 ? ' has' : 's have'} no known severity: counted as failing the gate whatever the threshold`,
    );
  }
  for (const waiver of outcome.expired) {
    log.warning(
      `Waiver for ${waiver.check} (${file} line ${waiver.line}${waiver.owner ? `, owner ${waiver.owner}` : ''}) expired on ${waiver.expires}: it no longer waives; fix the finding or renew the waiver`,
    );
  }
  for (const waiver of outcome.stale) {
    log.info(
      `Waiver for ${waiver.check} (${file} line ${waiver.line}) matched no failed finding: it is stale; remove it if the check is fixed`,
    );
  }
}
