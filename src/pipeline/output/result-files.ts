// The JUnit and SARIF files of a run: one writer for both faces (the job after a completed scan,
// the CLI's `scan results`).

import { isFailedWord } from '../../client/index.js';
import type { FindingView, Scan } from '../../client/index.js';
import { writeFileAtomic } from '../common/files.js';
import type { ReadFinding } from '../common/findings.js';
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
    isFailedWord(view.result) ? { ...view, ...marks.get(view.identity) } : view,
  );
}

export interface JudgedScan {
  scan: Scan;
  gate: GateOutcome;
  /** Every result read (JUnit lists every check), when the job read them all. */
  all: ReadFinding[] | undefined;
  tenantName: string | undefined;
}

/** The files of a judged scan: JUnit lists every check read (its failed ones with the marks their
 *  failed finding got), SARIF the failed findings and the fixed ones. */
export async function writeJudgedScanFiles(
  { scan, gate, all, tenantName }: JudgedScan,
  paths: ResultFilePaths,
  sarifLocationUri: string | undefined,
): Promise<ResultFilePaths> {
  const common = { scan, tenantName, baselineFound: gate.baseline.kind === 'found' };
  const written: ResultFilePaths = {};
  if (paths.junitPath) {
    const findings = all ? withMarks(all, gate) : gate.findings;
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
