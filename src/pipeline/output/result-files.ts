// The JUnit, SARIF, CSV and OCSF files of a run: one writer for both faces (the job after a
// completed scan, the CLI's `scan results`).

import type { FindingView, Scan } from '../../client/index.js';
import { writeFileAtomic } from '../common/files.js';
import type { ReadFinding } from '../common/findings.js';
import { isFailedResult, type ResultCounts } from '../common/result-kinds.js';
import type { GateOutcome } from '../gate/judge.js';
import type { ResultsInput } from './checks.js';
import type { ExportPaths } from './exports.js';

export interface ResultFilePaths extends ExportPaths {
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
    const { junitLines } = await import('./junit.js');
    written.junitPath = await writeFileAtomic(paths.junitPath, linesOf(junitLines(input)));
  }
  if (paths.sarifPath) {
    const { sarifText } = await import('./sarif.js');
    written.sarifPath = await writeFileAtomic(paths.sarifPath, sarifText(input));
  }
  return written;
}

function* linesOf(lines: Iterable<string>): Generator<string> {
  for (const line of lines) yield `${line}\n`;
}

/** Every result read, its failed ones with the marks their judged finding got (waiver and
 *  baseline state depend on the check's identity only). Made only when JUnit asks for them. */
function withMarks(all: ReadFinding[], gate: GateOutcome): FindingView[] {
  const marks = new Map(
    gate.findings.map(({ identity, waiver, baselineState, age }) => [
      identity,
      { waiver, baselineState, age },
    ]),
  );
  return all.map((view) =>
    isFailedResult(view.result) ? { ...view, ...marks.get(view.identity) } : view,
  );
}

export interface JudgedScan {
  scan: Scan;
  gate: GateOutcome;
  /** Every result read (JUnit lists every check), when the job read them all. */
  all: ReadFinding[] | undefined;
  tenantName: string | undefined;
  /** The tenant's name in the CSV and OCSF files (the record's label), else tenantName. */
  tenantLabel?: string;
  /** The checks by what became of them. */
  results?: ResultCounts;
}

/** A result file that could not be written after the scan: the verdict stands, the other files
 *  are still written, and the face says which file failed. */
export type FileFailure = (what: string, path: string, error: unknown) => void;

/** The files of a judged scan: JUnit lists every check read (its failed ones with the marks their
 *  failed finding got), SARIF, CSV and OCSF the failed findings and the fixed ones. */
export async function writeJudgedScanFiles(
  { scan, gate, all, tenantName, tenantLabel, results }: JudgedScan,
  paths: ResultFilePaths,
  sarifLocationUri: string | undefined,
  onFailure: FileFailure,
): Promise<ResultFilePaths> {
  const common = {
    scan,
    tenantName,
    tenantLabel,
    results,
    coverage: gate.coverage,
    baselineFound: gate.baseline.kind === 'found',
  };
  const written: ResultFilePaths = {};
  const attempt = async (what: string, path: string, write: () => Promise<ResultFilePaths>) => {
    try {
      Object.assign(written, await write());
    } catch (error) {
      onFailure(what, path, error);
    }
  };
  if (paths.junitPath) {
    const junitPath = paths.junitPath;
    const findings = all ? withMarks(all, gate) : gate.findings;
    await attempt('JUnit file', junitPath, () =>
      writeResultFiles({ ...common, findings }, { junitPath }),
    );
  }
  if (paths.sarifPath) {
    const sarifPath = paths.sarifPath;
    await attempt('SARIF file', sarifPath, () =>
      writeResultFiles(
        { ...common, findings: gate.findings, fixed: gate.fixed, sarifLocationUri },
        { sarifPath },
      ),
    );
  }
  if (paths.csvPath || paths.ocsfPath) {
    const exportPaths = { csvPath: paths.csvPath, ocsfPath: paths.ocsfPath };
    const shown = [paths.csvPath, paths.ocsfPath].filter((p) => p !== undefined).join(' and ');
    await attempt('findings file', shown, async () => {
      const { runSource, writeExports } = await import('./exports.js');
      const source = runSource({
        tenant: tenantLabel ?? tenantName,
        scan,
        findings: gate.findings,
        fixed: gate.fixed,
      });
      return writeExports([source], exportPaths);
    });
  }
  return written;
}
