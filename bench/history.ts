// npm run bench:history — what reading a history costs (issue 25): the bundled action on a tenant
// with 10 previous completed scans of 1,000 failed findings each, run with `history: 10` and with
// no history, alternating, on the same tenant and scan plan. Extra API requests, and the time from
// the scan's end to the action's exit. Targets: ≤ history + 1 extra reads, ≤ 1 s added.
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../test/emulator/emulator.js';
import { checkIdAt } from '../test/emulator/findings.js';
import { prepareStep, removeStep, spawnAction } from './lib/action-process.js';
import { snapshotDist, type DistSnapshot } from './lib/dist-snapshot.js';
import { emulatorToWall, scanEndWall } from './lib/emulator-time.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { median } from './lib/stats.js';

const HISTORY = 10;
const FAILED = 1_000;
const TOTAL = 2_000;
const RUNS = Number(process.env.BENCH_HISTORY_RUNS ?? 5);
const CLOCK_SPEED = 20;
/** Long enough (5 s of wall) for the wait to settle; short enough for a quick benchmark. */
const SCAN_MS = 100_000;
const DAY = 86_400_000;

interface Run {
  history: number;
  requests: number;
  endToExitMs: number;
  /** The current scan's results request → exit: the work after the end was noticed. */
  afterResultsMs: number;
  exitCode: number | null;
}

async function runOnce(dist: DistSnapshot, history: number): Promise<Run> {
  const emulator = await startEmulator({ seed: 9, clockSpeed: CLOCK_SPEED });
  const failedChecks = Array.from({ length: FAILED }, (_, i) => checkIdAt(i));
  emulator.seedHistory(
    Array.from({ length: HISTORY }, (_, i) => ({
      ageMs: (i + 1) * DAY,
      failedChecks,
      total: TOTAL,
    })),
  );
  emulator.setScanPlan({
    durationMs: SCAN_MS,
    queuedMs: 1_000,
    outcome: { kind: 'completed', total: TOTAL, failed: 0, failedChecks },
  });
  const inputs = { 'api-key': emulator.apiKey, 'api-url': emulator.url, history: String(history) };
  const step = await prepareStep(inputs);
  try {
    const toWall = emulatorToWall(emulator, CLOCK_SPEED);
    const exit = await spawnAction(dist.main, step, { timeoutMs: 120_000 }).exited;
    const scan = emulator.scans().find((s) => s.keyId !== undefined);
    if (!scan) throw new Error(`no scan was triggered (exit ${exit.exitCode}): ${exit.stderr}`);
    const end = scanEndWall(toWall, scan.createdAt, SCAN_MS);
    const api = emulator.requests().filter((r) => r.origin === 'api');
    const results = api.find((r) => r.path === `/scans/${scan.id}/results`);
    return {
      history,
      requests: api.length,
      endToExitMs: exit.exitedAt - end,
      afterResultsMs: exit.exitedAt - (results?.at ?? Number.NaN),
      exitCode: exit.exitCode,
    };
  } finally {
    await removeStep(step);
    await emulator.close();
  }
}

const machine = describeMachine();
console.log(`machine: ${machineLine(machine)}`);
const dist = await snapshotDist();
const runs: Run[] = [];
try {
  for (let i = 0; i < RUNS; i++) {
    for (const history of i % 2 === 0 ? [0, HISTORY] : [HISTORY, 0]) {
      runs.push(await runOnce(dist, history));
    }
  }
} finally {
  await dist.remove();
}
const of = (history: number) => runs.filter((r) => r.history === history);
const requests = (history: number) => median(of(history).map((r) => r.requests));
const endToExit = (history: number) => median(of(history).map((r) => r.endToExitMs));
const afterResults = (history: number) => median(of(history).map((r) => r.afterResultsMs));
const extraReads = requests(HISTORY) - requests(0);
// What the history adds after the scan's end: the work after the scan's results request (the
// moment the end was noticed varies with the poll's phase, alike with and without a history).
const addedMs = afterResults(HISTORY) - afterResults(0);
const lines = [
  `Run of ${new Date().toISOString()} (\`npm run bench:history\`) on ${machineLine(machine)}.`,
  '',
  `${RUNS} runs of each, alternating: ${HISTORY} previous scans of ${FAILED} failed findings (${TOTAL} results each), the current scan alike.`,
  '',
  '| history | API requests (median) | scan end → exit, median (max) | results request → exit, median |',
  '|---|---|---|---|',
  ...[0, HISTORY].map(
    (h) =>
      `| ${h} | ${requests(h)} | ${(endToExit(h) / 1000).toFixed(2)} s (${(Math.max(...of(h).map((r) => r.endToExitMs)) / 1000).toFixed(2)} s) | ${(afterResults(h) / 1000).toFixed(2)} s |`,
  ),
  '',
  `Extra reads: ${extraReads} (target ≤ ${HISTORY + 1}: ${extraReads <= HISTORY + 1 ? 'met' : 'NOT met'}); ` +
    `added after the scan's end: ${(addedMs / 1000).toFixed(2)} s (target ≤ 1 s: ${addedMs <= 1_000 ? 'met' : 'NOT met'}).`,
];
console.log(lines.join('\n'));
await replaceBlocks(fileURLToPath(new URL('./README.md', import.meta.url)), {
  history: lines.join('\n'),
});
