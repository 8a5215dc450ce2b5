// A completed scan's results, read whole: every page (the client refuses anything less), and at
// least as many failed results — and, when every result is read, as many results — as the scan's
// own counts say. A read that shows fewer is read once more, then it is an error: the gate never
// passes on evidence it could not read whole.
import { describeFinding } from '../../client/index.js';
import type { Scan, TenantClient } from '../../client/index.js';
import type { ReadFinding } from './findings.js';
import { isFailedResult } from './result-kinds.js';

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
}

function failedCount(findings: readonly ReadFinding[]): number {
  return findings.reduce((n, { view }) => n + (isFailedResult(view.result) ? 1 : 0), 0);
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

/** The scan's results (failed ones only unless `all`), checked against its counts. */
export async function readScanResults(
  client: TenantClient,
  scan: Scan,
  options: ReadResultsOptions,
): Promise<ReadFinding[]> {
  const read = async () =>
    (
      await client.scans.results(scan.id, {
        signal: options.signal,
        ...(options.all ? {} : { result: 'Failed' }),
      })
    ).map((raw) => ({ raw, view: describeFinding(raw) }));
  let findings = await read();
  const short = shortOf(scan, findings, options.all);
  if (!short) return findings;
  options.note?.(
    `The scan's counts say ${short.expected} ${short.what} but the results read shows ${short.shown}: reading them again`,
  );
  findings = await read();
  const still = shortOf(scan, findings, options.all);
  if (still) throw new IncompleteResultsError(scan.id, still.expected, still.shown, still.what);
  return findings;
}
