// The CSV and OCSF files of a run or of a fleet: each written tenant by tenant to a temp file and
// renamed into place at the end, so a fleet of thousands of tenants is never held whole and a file
// is there whole or not at all. One writer for every face (scan run, scan results, the roll-up,
// the Action and its sub-actions).

import type { FindingView, Scan } from '../../client/index.js';
import { AtomicFileWriter } from '../common/files.js';
import type { JudgedFinding } from '../gate/judge.js';
import { csvHead, csvLines } from './csv.js';
import { exportRows, type ExportSource } from './export-rows.js';
import { ocsfLines } from './ocsf.js';
import { findingJson } from './record.js';

export interface ExportPaths {
  csvPath?: string;
  ocsfPath?: string;
}

/** Both files being written; `add` each tenant's source in turn, then `commit`. */
export class FindingsExport {
  private constructor(
    private readonly csv: AtomicFileWriter | undefined,
    private readonly ocsf: AtomicFileWriter | undefined,
    private readonly nowMs: number,
  ) {}

  /** Opens the files asked for (none: an export that writes nothing). */
  static async open(paths: ExportPaths, nowMs = Date.now()): Promise<FindingsExport> {
    const csv = paths.csvPath ? await AtomicFileWriter.open(paths.csvPath) : undefined;
    let ocsf: AtomicFileWriter | undefined;
    try {
      ocsf = paths.ocsfPath ? await AtomicFileWriter.open(paths.ocsfPath) : undefined;
      await csv?.write(csvHead());
    } catch (error) {
      await Promise.all([csv?.abort(), ocsf?.abort()]);
      throw error;
    }
    return new FindingsExport(csv, ocsf, nowMs);
  }

  get wanted(): boolean {
    return this.csv !== undefined || this.ocsf !== undefined;
  }

  async add(source: ExportSource): Promise<void> {
    if (!this.wanted) return;
    const rows = [...exportRows(source)];
    await this.csv?.write(csvLines(rows));
    await this.ocsf?.write(ocsfLines(rows, this.nowMs));
  }

  async commit(): Promise<ExportPaths> {
    const written: ExportPaths = {};
    if (this.csv) written.csvPath = await this.csv.commit();
    if (this.ocsf) written.ocsfPath = await this.ocsf.commit();
    return written;
  }

  async abort(): Promise<void> {
    await Promise.all([this.csv?.abort(), this.ocsf?.abort()]);
  }
}

/** Writes the files of the sources given, whole or not at all. */
export async function writeExports(
  sources: Iterable<ExportSource> | AsyncIterable<ExportSource>,
  paths: ExportPaths,
): Promise<ExportPaths> {
  if (!paths.csvPath && !paths.ocsfPath) return {};
  const exports = await FindingsExport.open(paths);
  try {
    for await (const source of sources) await exports.add(source);
    return await exports.commit();
  } catch (error) {
    await exports.abort();
    throw error;
  }
}

export interface JudgedRun {
  /** The record's label, else the service's tenant name. */
  tenant: string | undefined;
  scan: Pick<Scan, 'id'> & Partial<Pick<Scan, 'completedAt'>>;
  findings: readonly JudgedFinding[];
  fixed: readonly FindingView[];
}

/** A judged run as an export source: its findings as its record lists them. */
export function runSource(run: JudgedRun): ExportSource {
  return {
    tenant: run.tenant ?? '',
    scanId: run.scan.id,
    time: run.scan.completedAt ?? null,
    findings: run.findings.map(findingJson),
    fixed: run.fixed.map(findingJson),
  };
}
