// A completed scan's results, read whole: every page (the client refuses anything less), and at
// least as many failed results — and, when every result is read, as many results — as the scan's
// own counts say. A read that shows fewer is read once more, then it is an error: the gate never
// passes on evidence it could not read whole. Each result is kept as its view (text cut, its result
// word and check identity kept: the kinds and coverage need them), and a failed one is spooled to
// the results file as it is read.
import { keptFinding, TextPool } from '../../client/index.js';
import type { Scan, TenantClient } from '../../client/index.js';
import type { ReadFinding } from './findings.js';
import { isFailedResult } from './result-kinds.js';
import { ResultsSpool } from './results-spool.js';

/** The results read fewer failed checks (or fewer checks) than the scan's counts: the read is not
 *  whole. */
export class IncompleteResultsError extends Error {
  constructor(
    readonly scanId: string,
    readonly expected: number,
    readonly shown: number,
    what = 'failed',
  ) {
    super(
      `GET /scans/${encodeURIComponent(scanId)}/results: the scan's counts say ${expected} ${what} but the results read shows ${shown}, also when read again; no verdict rests on a read that is not whole`,
    );
    this.name = 'IncompleteResultsError';
  }
}

export interface ReadResultsOptions {
  /** Every result (for JUnit, coverage and the counts of each kind), or only the failed ones (the
   *  results filter). */
  all: boolean;
  signal: AbortSignal;
  /** Told when a short read is read again. */
  note?: (message: string) => void;
  /** The most bytes the results' pages may hold together (the client's MAX_LIST_BYTES). */
  maxBytes?: number;
  /** Where the failed results go as they are read (results-spool.ts): written whole once the
   *  read is whole, never when it is not. */
  resultsFile?: string;
}

export interface ScanResults {
  findings: ReadFinding[];
  /** The results file, when one was asked for. */
  resultsPath?: string;
}

function failedCount(findings: readonly ReadFinding[]): number {
  return findings.reduce((n, finding) => n + (isFailedResult(finding.result) ? 1 : 0), 0);
}

/** What a read shows short of the scan's counts, or undefined when it agrees with them. */
function shortOf(
  scan: Scan,
  findings: readonly ReadFinding[],
  all: boolean,
): { expected: number; shown: number; what: string } | undefined {
  const failed = scan.summary?.failed;
  if (failed !== undefined && failedCount(findings) < failed)
    return { expected: failed, shown: failedCount(findings), what: 'failed' };
  const total = scan.summary?.total;
  if (all && total !== undefined && findings.length < total)
    return { expected: total, shown: findings.length, what: 'results in all' };
  return undefined;
}

/** One read of the scan's results, each kept as a view (its text cut, equal texts shared) and,
 *  when failed, spooled to the results file as it is read. */
function readOnce(
  client: TenantClient,
  scan: Scan,
  options: ReadResultsOptions,
  spool: ResultsSpool | undefined,
): Promise<ReadFinding[]> {
  const pool = new TextPool();
  return client.scans.results<ReadFinding>(scan.id, {
    signal: options.signal,
    maxBytes: options.maxBytes,
    // The service is asked for `Failed`; a service that ignores the filter is filtered here by
    // every word that says failed, the same as everywhere else.
    ...(options.all ? {} : { result: 'Failed', matches: (raw) => isFailedResult(raw.result) }),
    attemptStarted: () => spool?.rollback(),
    pageAccepted: () => spool?.mark(),
    keep: (raw) => {
      const view = keptFinding(raw, pool);
      if (spool && isFailedResult(view.result)) spool.add(raw, view.severity);
      return view;
    },
  });
}

/** The scan's results (failed ones only unless `all`), checked against its counts. */
export async function readScanResults(
  client: TenantClient,
  scan: Scan,
  options: ReadResultsOptions,
): Promise<ScanResults> {
  const newSpool = async () =>
    options.resultsFile ? await ResultsSpool.open(options.resultsFile) : undefined;
  let spool = await newSpool();
  try {
    let findings = await readOnce(client, scan, options, spool);
    const short = shortOf(scan, findings, options.all);
    if (short) {
      options.note?.(
        `The scan's counts say ${short.expected} ${short.what} but the results read shows ${short.shown}: reading them again`,
      );
      await spool?.discard();
      spool = await newSpool();
      findings = await readOnce(client, scan, options, spool);
      const still = shortOf(scan, findings, options.all);
      if (still) throw new IncompleteResultsError(scan.id, still.expected, still.shown, still.what);
    }
    const resultsPath = await spool?.finish();
    spool = undefined;
    return { findings, resultsPath };
  } finally {
    await spool?.discard();
  }
}
