// (a) scans.wait against a fixed 5-second poll loop: requests per scan and the delay between a scan's
// end and the caller noticing it. The emulator clock runs in real time (CLOCK_SPEED 1): `wait` places
// a scan's start from its createdAt/startedAt, which only works when the server's clock runs at the
// speed of ours. Every interval of both pollers is divided by CLOCK_SPEED all the same, and delays
// are reported in emulated (real-scale) seconds, so a faster clock can be tried for a quick look.
// Each poller runs twice: polling at once after the trigger, and starting from the trigger's answer
// (`initial` for wait; sleep-first for the loop).
import { createClient, type Scan, type TenantClient } from '../../src/client/index.js';
import { startEmulator } from '../../test/emulator/emulator.js';
import type { Emulator } from '../../test/emulator/types.js';

export const CLOCK_SPEED = 1;
const FIXED_LOOP_MS = 5_000;
export const POLLERS = ['wait', 'fixed-5s', 'wait+initial', 'fixed-5s+initial'] as const;
type Poller = (typeof POLLERS)[number];

export interface PollerStats {
  poller: Poller;
  scanSeconds: number;
  trials: number;
  requestsMedian: number;
  requestsMean: number;
  delayMedianS: number;
  delayP90S: number;
  delayMaxS: number;
}

interface Trial {
  requests: number;
  delayS: number;
}

interface Started {
  created: Scan;
  endsAt: number;
  poller: Poller;
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

async function fixedLoop(client: TenantClient, id: string, sleepFirst: boolean): Promise<Scan> {
  if (sleepFirst) await pause(FIXED_LOOP_MS / CLOCK_SPEED);
  for (;;) {
    const scan = await client.scans.get(id);
    if (scan.terminal) return scan;
    await pause(FIXED_LOOP_MS / CLOCK_SPEED);
  }
}

async function adaptive(client: TenantClient, created: Scan, useInitial: boolean): Promise<Scan> {
  let last: Scan | undefined;
  const options = {
    minIntervalMs: 1_000 / CLOCK_SPEED,
    maxIntervalMs: 15_000 / CLOCK_SPEED,
    initial: useInitial ? created : undefined,
  };
  for await (const snapshot of client.scans.wait(created.id, options)) last = snapshot;
  return last!;
}

/** Scans are created one by one: the plan applies to the next trigger. */
async function startScan(emu: Emulator, client: TenantClient, durationMs: number, poller: Poller) {
  emu.setScanPlan({ durationMs, queuedMs: 1_000 });
  const created = await client.scans.create('compliance');
  return {
    created,
    endsAt: performance.now() + durationMs / CLOCK_SPEED,
    poller,
  } satisfies Started;
}

async function follow(emu: Emulator, client: TenantClient, started: Started): Promise<Trial> {
  const { created, poller } = started;
  const final = poller.startsWith('wait')
    ? await adaptive(client, created, poller.endsWith('+initial'))
    : await fixedLoop(client, created.id, poller.endsWith('+initial'));
  const noticedAt = performance.now();
  if (!final.terminal) throw new Error('poller returned a non-terminal scan');
  const requests = emu
    .requests()
    .filter((r) => r.method === 'GET' && r.path === `/scans/${created.id}`).length;
  return { requests, delayS: (Math.max(0, noticedAt - started.endsAt) * CLOCK_SPEED) / 1000 };
}

const median = (xs: number[]) => quantile(xs, 0.5);
function quantile(xs: number[], q: number): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** Scans of `seconds` ± 10 % (drawn once per trial and shared by every poller), run concurrently. */
export async function benchWait(seconds: number, trials: number): Promise<PollerStats[]> {
  const emu = await startEmulator({ clockSpeed: CLOCK_SPEED, seed: 7 });
  const client = createClient({ apiKey: emu.apiKey, baseUrl: emu.url, env: {} });
  const random = seeded(seconds);
  const durations = Array.from({ length: trials }, () =>
    Math.round(seconds * 1000 * (0.9 + 0.2 * random())),
  );
  try {
    // Each scan is followed from the moment it exists (the next one is created meanwhile).
    const started: Started[] = [];
    const following: Array<Promise<Trial>> = [];
    for (const d of durations) {
      for (const poller of POLLERS) {
        const st = await startScan(emu, client, d, poller);
        started.push(st);
        following.push(follow(emu, client, st));
      }
    }
    const results = await Promise.all(following);
    return POLLERS.map((poller) => {
      const mine = results.filter((_, i) => started[i]!.poller === poller);
      const requests = mine.map((r) => r.requests);
      const delays = mine.map((r) => r.delayS);
      return {
        poller,
        scanSeconds: seconds,
        trials: mine.length,
        requestsMedian: median(requests),
        requestsMean: requests.reduce((a, b) => a + b, 0) / requests.length,
        delayMedianS: median(delays),
        delayP90S: quantile(delays, 0.9),
        delayMaxS: Math.max(...delays),
      };
    });
  } finally {
    await client.close();
    await emu.close();
  }
}
