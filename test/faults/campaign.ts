// The fault campaign (`npm run test:faults`): FAULT_RUNS seeded runs of the bundled action against
// the emulator, each with a random mix of faults, variants, inputs and cancellation; after every run
// the invariants of issue 7 are checked; one run in eight rotates the key instead (rotation.ts),
// one in sixteen rotates it with the CLI and a store command that misbehaves (cli-rotation.ts),
// one in eight follows several tenants in one CLI process with faults on some (tenants.ts), one in
// eight applies a tenant's settings with a fault on a write, then again (settings.ts). Prints the seed and a reproduction command of every
// run that broke one, ends with a plain "N passed, N failed" line, exits 1 on any failure.
//
//   FAULT_RUNS=300 (default)   FAULT_SEED=<n> (first seed; run i uses seed+i) or FAULT_SEED=random
//   FAULT_CONCURRENCY=5        FAULT_VERBOSE=1 (a line per run)   FAULT_KEEP=1 (keep job dirs)
//   FAULT_LOG=0 (do not print the main and post logs of a failed run)
import { existsSync } from 'node:fs';
import { ENTRY_SCRIPTS } from '../helpers/runner.js';
import { executeScenario, startSharedBackends, type SharedBackends } from './executor.js';
import { INVARIANT_NAMES, checkInvariants, visibleLog, type Violation } from './invariants.js';
import { coverageTags, tally } from './coverage.js';
import { progressLine } from './progress.js';
import { describeScenario, generateScenario } from './scenario.js';
import {
  describeRotation,
  executeRotation,
  generateRotationScenario,
  isRotationSeed,
} from './rotation.js';
import {
  describeCliRotation,
  executeCliRotation,
  generateCliRotationScenario,
  isCliRotationSeed,
} from './cli-rotation.js';
import {
  describeSettings,
  executeSettings,
  generateSettingsScenario,
  isSettingsSeed,
} from './settings.js';
import {
  describeTenants,
  executeTenants,
  generateTenantsScenario,
  isTenantsSeed,
} from './tenants.js';

export const DEFAULT_RUNS = 300;
export const DEFAULT_SEED = 20261121;
const DEFAULT_CONCURRENCY = 5;

interface CampaignConfig {
  runs: number;
  firstSeed: number;
  concurrency: number;
  verbose: boolean;
  keepJobs: boolean;
  showLogs: boolean;
}

function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new Error(`${name} must be a whole number above 0, got ${JSON.stringify(raw)}`);
  }
  return value;
}

function firstSeed(): number {
  const raw = process.env.FAULT_SEED?.trim();
  if (!raw) return DEFAULT_SEED;
  // A fresh base for exploratory runs; the seed of every run is printed, so nothing is lost.
  if (raw === 'random') return Date.now() % 2_147_483_647;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 0 || value > 0xffffffff) {
    throw new Error(
      `FAULT_SEED must be a whole number from 0 to 4294967295 or "random", got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}

function readConfig(): CampaignConfig {
  return {
    runs: positiveInteger('FAULT_RUNS', DEFAULT_RUNS),
    firstSeed: firstSeed(),
    concurrency: positiveInteger('FAULT_CONCURRENCY', DEFAULT_CONCURRENCY),
    verbose: process.env.FAULT_VERBOSE === '1',
    keepJobs: process.env.FAULT_KEEP === '1',
    showLogs: process.env.FAULT_LOG !== '0',
  };
}

interface RunOutcome {
  seed: number;
  violations: Violation[];
  description: string;
  wallMs: number;
  /** What the run went through (see coverage.ts). */
  tags: string[];
  /** The visible logs of main and post (kept for FAULT_LOG). */
  logs?: string;
  /** The run could not be set up or observed (a harness problem, not an invariant). */
  setupError?: string;
}

/** dist/ missing for a moment: someone ran `npm run build` during a local campaign. */
function bundleWasMissing(outcome: RunOutcome): boolean {
  return /dist\/.*(does not exist|was missing)/.test(outcome.setupError ?? '');
}

async function runOne(
  seed: number,
  backends: SharedBackends,
  config: CampaignConfig,
): Promise<RunOutcome> {
  const first = await runOnce(seed, backends, config);
  if (!bundleWasMissing(first)) return first;
  await new Promise((resolve) => setTimeout(resolve, 5_000));
  return runOnce(seed, backends, config);
}

/** A run of its own kind (rotation.ts, tenants.ts, settings.ts: one seed in eight each): drawn
 *  from the seed, described, executed, its harness failure a setup error. */
async function runKind<S>(
  seed: number,
  kind: {
    generate: (seed: number) => S;
    describe: (scenario: S) => string;
    execute: (scenario: S) => Promise<Pick<RunOutcome, 'violations' | 'tags' | 'logs'>>;
  },
): Promise<RunOutcome> {
  const scenario = kind.generate(seed);
  const description = kind.describe(scenario);
  const started = Date.now();
  try {
    const outcome = await kind.execute(scenario);
    return { seed, description, wallMs: Date.now() - started, ...outcome };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { seed, violations: [], description, wallMs: 0, tags: [], setupError: message };
  }
}

const ROTATION = {
  generate: generateRotationScenario,
  describe: describeRotation,
  execute: executeRotation,
};
const CLI_ROTATION = {
  generate: generateCliRotationScenario,
  describe: describeCliRotation,
  execute: executeCliRotation,
};
const TENANTS = {
  generate: generateTenantsScenario,
  describe: describeTenants,
  execute: executeTenants,
};
const SETTINGS = {
  generate: generateSettingsScenario,
  describe: describeSettings,
  execute: executeSettings,
};

async function runOnce(
  seed: number,
  backends: SharedBackends,
  config: CampaignConfig,
): Promise<RunOutcome> {
  if (isRotationSeed(seed)) return runKind(seed, ROTATION);
  if (isCliRotationSeed(seed)) return runKind(seed, CLI_ROTATION);
  if (isTenantsSeed(seed)) return runKind(seed, TENANTS);
  if (isSettingsSeed(seed)) return runKind(seed, SETTINGS);
  const scenario = generateScenario(seed);
  const description = describeScenario(scenario);
  try {
    const record = await executeScenario(scenario, { backends, keepJob: config.keepJobs });
    const { main, post } = record.observation;
    const logs = `--- main (exit ${main.exitCode ?? main.signal})\n${visibleLog(main)}\n--- post (exit ${post?.exitCode ?? post?.signal ?? 'not run'})\n${post ? visibleLog(post) : ''}`;
    return {
      seed,
      violations: checkInvariants(record.observation),
      description,
      wallMs: record.wallMs,
      tags: coverageTags(record.observation),
      logs,
    };
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    return { seed, violations: [], description, wallMs: 0, tags: [], setupError: message };
  }
}

function reproduction(seed: number): string {
  return `FAULT_SEED=${seed} FAULT_RUNS=1 npm run test:faults`;
}

function printOutcome(outcome: RunOutcome, { verbose, showLogs }: CampaignConfig): void {
  const broken = outcome.violations.length > 0 || outcome.setupError !== undefined;
  if (!broken) {
    if (verbose)
      console.log(`ok   seed=${outcome.seed} ${outcome.wallMs} ms  ${outcome.description}`);
    return;
  }
  console.log(`FAIL seed=${outcome.seed}  ${outcome.description}`);
  if (outcome.setupError) console.log(`  setup error: ${outcome.setupError}`);
  for (const v of outcome.violations) {
    console.log(`  invariant ${v.invariant} (${INVARIANT_NAMES[v.invariant]}): ${v.message}`);
  }
  if (showLogs && outcome.logs) console.log(outcome.logs.replace(/^/gm, '    | '));
  console.log(`  reproduce: ${reproduction(outcome.seed)}`);
}

/** Runs the seeds with at most `concurrency` runs at once, printing each outcome as it ends and
 *  a progress line every few percent. */
async function runAll(config: CampaignConfig, backends: SharedBackends): Promise<RunOutcome[]> {
  const seeds = Array.from({ length: config.runs }, (_, i) => (config.firstSeed + i) >>> 0);
  const outcomes: RunOutcome[] = [];
  const started = Date.now();
  let failed = 0;
  let next = 0;
  const worker = async () => {
    while (next < seeds.length) {
      const seed = seeds[next++] as number;
      const outcome = await runOne(seed, backends, config);
      outcomes.push(outcome);
      printOutcome(outcome, config);
      if (outcome.violations.length > 0 || outcome.setupError) failed++;
      const line = progressLine(outcomes.length, seeds.length, failed, Date.now() - started);
      if (line) console.log(line);
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, seeds.length) }, worker));
  return outcomes;
}

function printCoverage(outcomes: RunOutcome[]): void {
  console.log('coverage (runs that went through each path):');
  for (const [tag, count] of tally(outcomes.map((o) => o.tags)))
    console.log(`  ${String(count).padStart(4)}  ${tag}`);
}

/** A violation without its ids and numbers: runs that broke an invariant the same way share it. */
function signature(v: Violation): string {
  return `invariant ${v.invariant}: ${v.message
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<id>')
    .replace(/\d+(\.\d+)?/g, 'N')}`;
}

function printClasses(outcomes: RunOutcome[]): void {
  const classes = new Map<string, number[]>();
  for (const o of outcomes) {
    for (const sig of new Set(o.violations.map(signature))) {
      classes.set(sig, [...(classes.get(sig) ?? []), o.seed]);
    }
  }
  if (classes.size === 0) return;
  console.log('broken invariants by kind (runs, seeds):');
  for (const [sig, seeds] of [...classes].sort((a, b) => b[1].length - a[1].length)) {
    const shown = seeds.slice(0, 5).join(' ') + (seeds.length > 5 ? ' …' : '');
    console.log(`  ${String(seeds.length).padStart(4)}  ${sig}  [${shown}]`);
  }
}

function printTally(outcomes: RunOutcome[], elapsedMs: number): void {
  const byInvariant = new Map<number, number>();
  for (const o of outcomes) {
    for (const inv of new Set(o.violations.map((v) => v.invariant))) {
      byInvariant.set(inv, (byInvariant.get(inv) ?? 0) + 1);
    }
  }
  for (const [inv, count] of [...byInvariant].sort((a, b) => a[0] - b[0])) {
    console.log(
      `invariant ${inv} (${INVARIANT_NAMES[inv as Violation['invariant']]}): broken in ${count} run(s)`,
    );
  }
  printClasses(outcomes);
  const setupErrors = outcomes.filter((o) => o.setupError).length;
  if (setupErrors > 0) console.log(`${setupErrors} run(s) could not be set up`);
  const failedSeeds = outcomes
    .filter((o) => o.violations.length > 0 || o.setupError)
    .map((o) => o.seed);
  if (failedSeeds.length > 0)
    console.log(`failed seeds: ${failedSeeds.sort((a, b) => a - b).join(' ')}`);
  console.log(`campaign took ${(elapsedMs / 1000).toFixed(1)} s`);
}

async function main(): Promise<number> {
  const config = readConfig();
  if (!Object.values(ENTRY_SCRIPTS).every((script) => existsSync(script))) {
    console.log('dist/ is missing: run `npm run build` first');
    console.log('0 passed, 1 failed');
    return 1;
  }
  // About 0.8 s a run on 2 cores at 5 at once (300 runs: about 4 minutes).
  const minutes = Math.max(1, Math.round((config.runs * 0.8) / 60));
  console.log(
    `fault campaign: ${config.runs} run(s) from seed ${config.firstSeed}, ${config.concurrency} at once (about ${minutes} min on 2 cores; a progress line every 5 %)`,
  );
  const started = Date.now();
  const backends = await startSharedBackends();
  let outcomes: RunOutcome[];
  try {
    outcomes = await runAll(config, backends);
  } finally {
    await backends.close();
  }
  const failed = outcomes.filter((o) => o.violations.length > 0 || o.setupError).length;
  printCoverage(outcomes);
  printTally(outcomes, Date.now() - started);
  console.log(`${outcomes.length - failed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.log(`campaign error: ${error instanceof Error ? error.message : String(error)}`);
    console.log('0 passed, 1 failed');
    process.exitCode = 1;
  },
);
