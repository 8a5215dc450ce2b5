// A completed scan's results, read whole: every page (the client refuses anything less), and at
// least as many failed results as the scan's own counts say. A read that shows fewer is read once
// more, then it is an error: the gate never passes on evidence it could not read whole.
import { describeFinding, isFailedFinding } from '../../client/index.js';
import type { Scan, TenantClient } from '../../client/index.js';
import type { ReadFinding } from './findings.js';

/** The results read fewer failed checks than the scan's counts: the read is not whole. */
export class IncompleteResultsError extends Error {
  constructor(
    readonly scanId: string,
    readonly expected: number,
    readonly shown: number,
  ) {
    super(
      `GET /scans/${encodeURIComponent(scanId)}/results: the scan's counts say ${expected} failed but the results read shows ${shown}, also when read again; no verdict rests on a read that is not whole`,
    );
    this.name = 'IncompleteResultsError';
  }
}

export interface ReadResultsOptions {
  /** Every result (for JUnit), or only the failed ones (the results filter). */
  all: boolean;
  signal: AbortSignal;
  /** Told when a short read is read again. */
  note?: (message: string) => void;
}

function failedCount(findings: readonly ReadFinding[]): number {
  return findings.reduce((n, { raw }) => n + (isFailedFinding(raw) ? 1 : 0), 0);
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
  const expected = scan.summary?.failed;
  let findings = await read();
  if (expected === undefined || failedCount(findings) >= expected) return findings;
  options.note?.(
    `The scan's counts say ${expected} failed but the results read shows ${failedCount(findings)}: reading them again`,
  );
  findings = await read();
  const shown = failedCount(findings);
  if (shown < expected) throw new IncompleteResultsError(scan.id, expected, shown);
  return findings;
}
