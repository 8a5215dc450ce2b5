// (a) scans.wait against a fixed 5-second poll loop, for every progress shape the emulator offers
// (test/emulator/progress.ts), on scans of 40–60 s: the delay between a scan's end and the caller
// noticing it, and the status reads it took. Three pollers follow the same scans in the same run:
// today's planner, the planner before issue 24 (its client from git, BEFORE_PLANNER_COMMIT), and
// the loop (a read at once, then one every 5 s). The wait pollers start from the trigger's answer,
// as the job does. The emulator clock runs in real time: `wait` places a scan's start from its
// createdAt/startedAt, which only works when the server's clock runs at the speed of ours.
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createClient, type Scan, type TenantClient } from '../../src/client/index.js';
import { startEmulator } from '../../test/emulator/emulator.js';
import type { ProgressShape } from '../../test/emulator/progress.js';
import type { Emulator } from '../../test/emulator/types.js';
import { PROJECT_ROOT } from '../../test/helpers/runner.js';

/** The last commit whose planner grew its interval ×1.5 up to 30 s while nothing changed. */
export const BEFORE_PLANNER_COMMIT = '1c5e699';
export const SHAPES: readonly ProgressShape[] = [
  'linear',
  'back-loaded',
  'front-loaded',
  'stalled',
  'none',
];
export const POLLERS = ['wait', 'wait before', 'fixed 5 s'] as const;
type Poller = (typeof POLLERS)[number];
const LOOP_MS = 5_000;
const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));

export interface PollerStats {
  shape: ProgressShape;
  poller: Poller;
  trials: number;
  readsMean: number;
  delayMedianS: number;
  delayMaxS: number;
}

interface Trial {
  shape: ProgressShape;
  poller: Poller;
  reads: number;
  delayS: number;
}

/** Deterministic pseudo-random numbers so every run draws the same scan durations. */
function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function loop(client: TenantClient, id: string): Promise<Scan> {
  for (;;) {
    const scan = await client.scans.get(id);
    if (scan.terminal) return scan;
    await pause(LOOP_MS);
  }
}

async function follow(client: TenantClient, created: Scan): Promise<Scan> {
  let last: Scan | undefined;
  for await (const snapshot of client.scans.wait(created.id, { initial: created })) last = snapshot;
  return last!;
}

/** The client of BEFORE_PLANNER_COMMIT, from git, loaded in this process. */
async function clientBefore(): Promise<typeof createClient> {
  const dir = join(RESULTS, `wait-before-${BEFORE_PLANNER_COMMIT}`);
  await rm(dir, { recursive: true, force: true });
  await mkdir(dir, { recursive: true });
  execFileSync(
    'sh',
    ['-c', `git archive ${BEFORE_PLANNER_COMMIT} src/client | tar -x -C "$1"`, 'sh', dir],
    { cwd: PROJECT_ROOT },
  );
  const module = (await import(pathToFileURL(join(dir, 'src/client/index.ts')).href)) as {
    createClient: typeof createClient;
  };
  return module.createClient;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** `trials` scans of 40–60 s per shape and poller, all followed at once. */
export async function benchWait(trials: number): Promise<PollerStats[]> {
  const emu: Emulator = await startEmulator({ clockSpeed: 1, seed: 7 });
  const before = await clientBefore();
  const clients: Record<Poller, TenantClient> = {
    wait: createClient({ apiKey: emu.apiKey, baseUrl: emu.url, env: {} }),
    'wait before': before({ apiKey: emu.apiKey, baseUrl: emu.url, env: {} }),
    'fixed 5 s': createClient({ apiKey: emu.apiKey, baseUrl: emu.url, env: {} }),
  };
  const random = seeded(24);
  try {
    const following: Array<Promise<Trial>> = [];
    for (const shape of SHAPES) {
      for (let i = 0; i < trials; i++) {
        const durationMs = Math.round(40_000 + 20_000 * random());
        for (const poller of POLLERS) {
          // The plan applies to the next trigger: scans are created one by one.
          emu.setScanPlan({ durationMs, queuedMs: 1_000, progressCurve: shape });
          const client = clients[poller];
          const created = await client.scans.create('compliance');
          const endsAt = performance.now() + durationMs;
          following.push(
            (poller === 'fixed 5 s' ? loop(client, created.id) : follow(client, created)).then(
              () => ({
                shape,
                poller,
                reads: emu
                  .requests()
                  .filter((r) => r.method === 'GET' && r.path === `/scans/${created.id}`).length,
                delayS: Math.max(0, performance.now() - endsAt) / 1000,
              }),
            ),
          );
        }
      }
    }
    const results = await Promise.all(following);
    return SHAPES.flatMap((shape) =>
      POLLERS.map((poller) => {
        const mine = results.filter((r) => r.shape === shape && r.poller === poller);
        const delays = mine.map((r) => r.delayS);
        return {
          shape,
          poller,
          trials: mine.length,
          readsMean: mine.reduce((n, r) => n + r.reads, 0) / mine.length,
          delayMedianS: median(delays),
          delayMaxS: Math.max(...delays),
        };
      }),
    );
  } finally {
    await Promise.all(Object.values(clients).map((client) => client.close()));
    await emu.close();
  }
}
