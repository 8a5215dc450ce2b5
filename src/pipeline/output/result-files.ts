// The JUnit and SARIF files of a run: one writer for both faces (the job after a completed scan,
// the CLI's `scan results`).

import type { Scan } from '../../client/index.js';
import { writeFileAtomic } from '../common/files.js';
import type { ReadFinding } from '../common/findings.js';
import { isFailedResult, type ResultCounts } from '../common/result-kinds.js';
import type { GateOutcome } from '../gate/judge.js';
import type { ResultsInput } from './checks.js';

export interface ResultFilePaths {
  junitPath?: string;
  sarifPath?: string;
}

/** Writes the files asked for (each whole, or not at all) and returns where they went. */
export async function writeResultFiles(
  input: ResultsInput,
  paths: ResultFilePaths,
): Promise<ResultFilePaths> {
  const written: ResultFilePaths = {};
  if (paths.junitPath) {
    const { toJunitXml } = await import('./junit.js');
    written.junitPath = await writeFileAtomic(paths.junitPath, toJunitXml(input));
  }
  if (paths.sarifPath) {
    const { toSarif } = await import('./sarif.js');
    written.sarifPath = await writeFileAtomic(
      paths.sarifPath,
      `${JSON.stringify(toSarif(input), null, 2)}\n`,
    );
  }
  return written;
}

export interface JudgedScan {
  scan: Scan;
  gate: GateOutcome;
  /** Every result read (JUnit lists every check), when the job read them all. */
  all: ReadFinding[] | undefined;
  tenantName: string | undefined;
  /** The checks by what became of them. */
  results?: ResultCounts;
}

/** The files of a judged scan: JUnit lists every check read (its failed ones with the marks their
 *  failed finding got), SARIF the failed findings and the fixed ones. */
export async function writeJudgedScanFiles(
  { scan, gate, all, tenantName, results }: JudgedScan,
  paths: ResultFilePaths,
  sarifLocationUri: string | undefined,
  tenantLabel?: string,
): Promise<ResultFilePaths> {
  // Waiver and baseline state depend on the check's identity only.
  const marks = new Map(
    gate.findings.map(({ identity, waiver, baselineState, age }) => [
      identity,
      { waiver, baselineState, age },
    ]),
  );
  const common = {
    scan,
    tenantName,
    tenantLabel,
    results,
    coverage: gate.coverage,
    baselineFound: gate.baseline.kind === 'found',
  };
  const written: ResultFilePaths = {};
  if (paths.junitPath) {
    const findings = all
      ? all.map(({ view }) =>
          isFailedResult(view.result) ? { ...view, ...marks.get(view.identity) } : view,
        )
      : gate.findings;
    Object.assign(
      written,
      await writeResultFiles({ ...common, findings }, { junitPath: paths.junitPath }),
    );
  }
  if (paths.sarifPath) {
    Object.assign(
      written,
      await writeResultFiles(
        { ...common, findings: gate.findings, fixed: gate.fixed, sarifLocationUri },
        { sarifPath: paths.sarifPath },
      ),
    );
  }
  return written;
}
