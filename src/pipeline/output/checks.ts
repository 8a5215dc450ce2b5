// What the result writers (JUnit, SARIF) take: the scan and its findings as the client reads them.
// Both faces (the Action and the CLI) build this from the pipeline's JobResult.

import type { FindingView, Scan } from '../../client/index.js';
import type { JudgedFinding } from '../gate/judge.js';
import type { ResultCounts } from '../common/result-kinds.js';
import type { CoverageJudgement } from '../gate/coverage.js';

/** What the gate adds to a failed finding (gate/judge.ts's JudgedFinding), in words both formats
 *  have: SARIF's baselineState and suppressions, JUnit's skipped; an age with a history. */
export type FindingMarks = Partial<Pick<JudgedFinding, 'baselineState' | 'waiver' | 'age'>>;

/** A finding's age as properties: failingSince, failingScans, dueAt, overdue (none without one). */
export function ageProperties(marks: FindingMarks): Record<string, string | number | boolean> {
  const age = marks.age;
  if (!age) return {};
  return {
    ...(age.failingSince ? { failingSince: age.failingSince } : {}),
    failingScans: age.failingScans,
    ...(age.dueAt ? { dueAt: age.dueAt } : {}),
    overdue: age.overdue,
  };
}

export interface ResultsInput {
  /** The scan the findings belong to (id, status, type, times, summary). */
  scan: Pick<Scan, 'id' | 'status'> & Partial<Scan>;
  /**
   * Every check the writer should list. Give all results (Passed, Failed, Skipped, Error) for a
   * complete JUnit file; a list of failed findings only is valid too (then only those appear).
   */
  findings: Array<FindingView & FindingMarks>;
  /** A baseline was compared with: every SARIF result then carries a baselineState. */
  baselineFound?: boolean;
  /** Failed in the baseline, not failed now (SARIF results with baselineState absent). */
  fixed?: FindingView[];
  tenantName?: string;
  /** The tenant's label (tenant-label, a many-tenants run's entry name): SARIF's category and
   *  every fingerprint carry it, so tenants' alerts live apart in code scanning. */
  tenantLabel?: string;
  /** The checks by what became of them (SARIF's invocation notes). */
  results?: ResultCounts;
  /** The checks evaluated now against the baseline's (SARIF's invocation notes). */
  coverage?: CoverageJudgement;
  /** Tool version written into SARIF's driver (default: the package version). */
  toolVersion?: string;
  /** Address of the tenant-scan project, written into SARIF's driver. */
  toolUri?: string;
  /**
   * A repository file every SARIF result points at (e.g. the workflow file that ran the scan).
   * A tenant scan has no source location; consumers that insist on one (GitHub code scanning
   * rejects results without a location) get this file, line 1. Absent: results carry no location.
   */
  sarifLocationUri?: string;
}
