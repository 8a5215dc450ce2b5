// 2. Large results: a scan with 50,000 results, 10,000 failed. From the scan's end to the action's
// exit (notice the end, fetch the failed results, summarise, annotate, write the results file),
// the action's peak RSS (GNU time), the summary's size and order, the results file's completeness.
import { readFile } from 'node:fs/promises';
import { startEmulator } from '../test/emulator/emulator.js';
import { prepareStep, readStepEffects, removeStep, spawnAction } from './lib/action-process.js';
import type { DistSnapshot } from './lib/dist-snapshot.js';
import { emulatorToWall, scanEndWall } from './lib/emulator-time.js';
import { median } from './lib/stats.js';

export const LARGE_TOTAL = 50_000;
export const LARGE_FAILED = 10_000;
export const LARGE_TARGET_MS = 2_000;
export const LARGE_TARGET_RSS_MB = 200;
export const SUMMARY_LIMIT_BYTES = 1024 * 1024;
const CLOCK_SPEED = 20;
/** 15 s of wall time: long enough for the client's polling to leave its young phase. */
const SCAN_MS = 300_000;

export interface LargeRun {
  exitCode: number | null;
  /** Scan end → action exit (the target). */
  endToExitMs: number;
  /** Scan end → the first GET /scans/{id}/results (noticing the end). */
  detectionMs: number;
  /** First results request → exit (fetch, summarise, annotate, write). */
  processingMs: number;
  peakRssMB: number | undefined;
  summaryBytes: number;
  summaryWorstFirst: boolean;
  summaryRows: number;
  resultsFileEntries: number;
  outputsFailed: string | undefined;
  annotations: number;
  requests: number;
}

export interface LargeResult {
  runs: LargeRun[];
  endToExitMsMedian: number;
  endToExitMsMax: number;
  peakRssMBMax: number;
}

export async function benchLargeResults(dist: DistSnapshot, runs: number): Promise<LargeResult> {
  const results: LargeRun[] = [];
  for (let i = 0; i < runs; i++) results.push(await runOnce(dist));
  const ends = results.map((r) => r.endToExitMs);
  return {
    runs: results,
    endToExitMsMedian: median(ends),
    endToExitMsMax: Math.max(...ends),
    peakRssMBMax: Math.max(...results.map((r) => r.peakRssMB ?? Number.NaN)),
  };
}

async function runOnce(dist: DistSnapshot): Promise<LargeRun> {
  const emulator = await startEmulator({ seed: 5, clockSpeed: CLOCK_SPEED });
  emulator.setScanPlan({
    durationMs: SCAN_MS,
    queuedMs: 2_000,
    outcome: { kind: 'completed', total: LARGE_TOTAL, failed: LARGE_FAILED },
  });
  const step = await prepareStep({ 'api-key': emulator.apiKey, 'api-url': emulator.url });
  try {
    const toWall = emulatorToWall(emulator, CLOCK_SPEED);
    const exit = await spawnAction(dist.main, step, { measureRss: true, timeoutMs: 120_000 })
      .exited;
    const [scan] = emulator.scans();
    if (!scan)
      throw new Error(
        `large results: no scan was triggered (exit ${exit.exitCode}): ${exit.stderr}`,
      );
    const end = scanEndWall(toWall, scan.createdAt, SCAN_MS);
    const requests = emulator.requests().filter((r) => r.origin === 'api');
    const resultsRequest = requests.find((r) => r.path.endsWith('/results'));
    const effects = await readStepEffects(step);
    return {
      exitCode: exit.exitCode,
      endToExitMs: exit.exitedAt - end,
      detectionMs: (resultsRequest?.at ?? Number.NaN) - end,
      processingMs: exit.exitedAt - (resultsRequest?.at ?? Number.NaN),
      peakRssMB: exit.maxRssKiB === undefined ? undefined : exit.maxRssKiB / 1024,
      summaryBytes: effects.summaryBytes,
      summaryWorstFirst: severityHeadingsInOrder(effects.summary),
      summaryRows: effects.summary
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| |')).length,
      resultsFileEntries: await countResults(effects.outputs['results-file']),
      outputsFailed: effects.outputs.failed,
      annotations: (exit.stdout.match(/^::(error|warning|notice)\b/gm) ?? []).length,
      requests: requests.length,
    };
  } finally {
    await removeStep(step);
    await emulator.close();
  }
}

const SEVERITY_ORDER = ['Critical', 'High', 'Medium', 'Low', 'Info', 'Unknown severity'];

/** The summary's "### <Severity> (n)" groups appear worst first, and at least one is there. */
export function severityHeadingsInOrder(summary: string): boolean {
  const ranks = [...summary.matchAll(/^### (.+?) \(\d+\)$/gm)].map((m) =>
    SEVERITY_ORDER.indexOf(m[1] ?? ''),
  );
  return (
    ranks.length > 0 && ranks.every((r, i) => r >= 0 && (i === 0 || r > (ranks[i - 1] as number)))
  );
}

async function countResults(path: string | undefined): Promise<number> {
  if (!path) return 0;
  const parsed: unknown = JSON.parse(await readFile(path, 'utf8'));
  return Array.isArray(parsed) ? parsed.length : 0;
}
