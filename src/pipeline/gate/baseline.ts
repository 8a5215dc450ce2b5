// The baseline the gate compares with: the failed findings of the previous completed scan of the
// same type (one scan-list read, unless the job already has one, and one results read), or of a
// results file written by an earlier run (read before any request).

import { readFile, stat } from 'node:fs/promises';
import { describeFinding, isObject, isPlainIdentifier } from '../../client/index.js';
import type { Finding, FindingView, Scan, TenantClient } from '../../client/index.js';
import type { BaselineRead } from './judge.js';
import { historyScans, scanTime, type HistoryRead } from './history.js';
import { readScanResults } from '../common/results.js';
import { isFailedResult, resultKind } from '../common/result-kinds.js';
import { quoteValue } from '../common/text.js';
import { SettingsError } from '../common/settings-problems.js';

/** The largest baseline file read (the API's own answer cap). */
export const MAX_BASELINE_FILE_BYTES = 64 * 1024 * 1024;
const RESULTS_FILE_HINT =
  'give the results file (a JSON array) an earlier run wrote: the results-file output or --results-file';

/** What a baseline file gives: its failed findings, and the checks it evaluated when it lists
 *  every result (undefined when it lists failed ones only, as the results-file output does). */
export interface BaselineFile {
  failed: FindingView[];
  evaluated?: string[];
}

/** The findings of a results file; throws SettingsError (one line) when it is not one. */
export async function readBaselineFile(path: string): Promise<BaselineFile> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile())
    throw problem(`baseline file ${quoteValue(path)} was not found: ${RESULTS_FILE_HINT}`);
  if (info.size > MAX_BASELINE_FILE_BYTES) {
    throw problem(`baseline file ${quoteValue(path)} is larger than 64 MiB: ${RESULTS_FILE_HINT}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : 'unreadable';
    throw problem(`baseline file ${quoteValue(path)} is not JSON (${why}): ${RESULTS_FILE_HINT}`);
  }
  const list = findingsIn(parsed);
  if (!list)
    throw problem(
      `baseline file ${quoteValue(path)} holds no list of findings: ${RESULTS_FILE_HINT}`,
    );
  // An entry without a result word is a failed finding (a results file holds failed ones only).
  const views = list.map(describeFinding);
  const failed = views.filter((view) => view.result === '' || isFailedResult(view.result));
  const everyResult = views.some((view) => resultKind(view.result).outcome === 'passed');
  return {
    failed,
    ...(everyResult
      ? {
          evaluated: views
            .filter((view) => resultKind(view.result).outcome !== 'not-evaluated')
            .map((view) => view.identity),
        }
      : {}),
  };
}

function findingsIn(parsed: unknown): Finding[] | undefined {
  if (Array.isArray(parsed)) return parsed as Finding[];
  if (!isObject(parsed)) return undefined;
  for (const name of ['findings', 'results', 'data']) {
    if (Array.isArray(parsed[name])) return parsed[name] as Finding[];
  }
  return undefined;
}

function problem(line: string): SettingsError {
  return new SettingsError([line]);
}

function dayOf(scan: Pick<Scan, 'completedAt' | 'createdAt'>): string {
  const when = scanTime(scan);
  return when ? ` of ${when.slice(0, 10)}` : '';
}

/** The baseline `previous` from a history read: its newest scan, or none when there is none. */
export function baselineFromHistory(
  history: Extract<HistoryRead, { kind: 'read' }>,
  current: Scan,
): BaselineRead {
  const [newest] = history.scans;
  if (!newest) return noEarlierScan(current);
  return {
    kind: 'found',
    source: `scan ${newest.id} of ${newest.at.slice(0, 10)}`,
    failed: newest.findings ?? [],
    at: newest.at,
    ...(newest.evaluatedChecks ? { evaluated: newest.evaluatedChecks } : {}),
  };
}

function noEarlierScan(current: Scan): BaselineRead {
  return {
    kind: 'missing',
    why: `no earlier completed ${current.scanType ?? ''} scan`.replace('  ', ' '),
  };
}

/** The previous scan's failed findings. `listed`: the scan list read before the current scan was
 *  triggered (none is read again); errors propagate (the caller decides what a missing baseline
 *  means). Dates that disagree with time running forward leave no baseline (historyScans). */
export async function readPreviousBaseline(
  client: TenantClient,
  current: Scan,
  listed: readonly Scan[] | undefined,
  context: { signal: AbortSignal; nowMs?: number; all?: boolean; maxBytes?: number },
): Promise<BaselineRead> {
  const { signal } = context;
  const scans = listed ?? (await client.scans.list({ signal }));
  const found = historyScans(current, scans, {
    listedBefore: listed !== undefined,
    nowMs: context.nowMs ?? Date.now(),
  });
  if (found.kind === 'skew') return { kind: 'missing', why: found.why };
  const [previous] = found.previous;
  if (!previous) return noEarlierScan(current);
  if (!isPlainIdentifier(previous.id)) {
    return { kind: 'missing', why: 'the previous scan has an id that is not a plain identifier' };
  }
  const all = context.all === true;
  const { findings } = await readScanResults(client, previous, {
    all,
    signal,
    maxBytes: context.maxBytes,
  });
  const kinds = findings.map((view) => ({ view, outcome: resultKind(view.result).outcome }));
  return {
    kind: 'found',
    source: `scan ${previous.id}${dayOf(previous)}`,
    failed: kinds.filter((k) => k.outcome === 'failed').map((k) => k.view),
    at: scanTime(previous),
    ...(all
      ? {
          evaluated: kinds.filter((k) => k.outcome !== 'not-evaluated').map((k) => k.view.identity),
        }
      : {}),
  };
}
