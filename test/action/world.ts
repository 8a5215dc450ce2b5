// A world for the Action's tests: the emulator, GitHub's artifact backend and REST API stand-ins,
// and a way to run dist/ against them exactly like the runner (test/helpers/runner.ts).
// Tests run the committed dist/ and rebuild nothing: `npm run build` first.
import type { EmulatorOptions, Emulator, ScanPlan } from '../emulator/types.js';
import { startEmulator } from '../emulator/emulator.js';
import { startArtifactStandin, type ArtifactStandin } from '../helpers/artifact-standin.js';
import {
  startGitHubApiStandin,
  type GitHubApiStandin,
  type GitHubApiStandinOptions,
} from '../helpers/github-api-standin.js';
import {
  removeJobDirectory,
  runActionStep,
  runJob,
  type JobOptions,
  type JobResult,
  type StepOptions,
  type StepResult,
} from '../helpers/runner.js';
import { after, before, beforeEach } from 'node:test';

export interface World {
  emulator: Emulator;
  artifacts: ArtifactStandin;
  github: GitHubApiStandin;
  /** Runs the main step with the key and the emulator's URL unless the inputs say otherwise. */
  main(inputs?: Record<string, string>, options?: Partial<StepOptions>): Promise<StepResult>;
  /** Runs main then post (the runner's job end), with the same defaults. */
  job(inputs?: Record<string, string>, options?: Partial<JobOptions>): Promise<JobResult>;
  /** Runs the post step of a main step run earlier (its job directory and saved state), with the
   *  same defaults: lets a test change the world between main and post. */
  post(main: StepResult, inputs?: Record<string, string>): Promise<StepResult>;
  /** A fresh start for the next test: no faults, no variant, this scan plan, no requests logged. */
  reset(plan?: ScanPlan): void;
  close(): Promise<void>;
}

/** Polls and GitHub writes 100 ms apart instead of 1 s: the stand-ins need no pacing (the
 *  pacing itself is tested in src's unit tests). A test may set it back to undefined. */
export const FAST_PACING = { TENANT_SCAN_TEST_PACING_MS: '100' };

/** Scans of a few emulator seconds on a fast clock: a run takes about a second. */
export const QUICK_SCAN = { durationMs: 500, queuedMs: 50 } as const;

/** The scan plan a world starts with: quick scans of 40 checks, 5 of them failed. */
const DEFAULT_PLAN: ScanPlan = {
  ...QUICK_SCAN,
  outcome: { kind: 'completed', total: 40, failed: 5 },
};

export async function startWorld(
  options: EmulatorOptions = {},
  githubOptions: GitHubApiStandinOptions = {},
): Promise<World> {
  const emulator = await startEmulator({
    clockSpeed: 100,
    seed: 11,
    reportRenderMs: 1_000,
    ...options,
  });
  emulator.setScanPlan(DEFAULT_PLAN);
  // A stand-in that fails to start must not leave the others listening (the test would hang).
  const artifacts = await startArtifactStandin().catch(async (error: unknown) => {
    await emulator.close();
    throw error;
  });
  const github = await startGitHubApiStandin({ artifacts, ...githubOptions }).catch(
    async (error: unknown) => {
      await Promise.all([emulator.close(), artifacts.close()]);
      throw error;
    },
  );
  const jobs: StepResult['job'][] = [];

  const base = (inputs: Record<string, string>, options: Partial<StepOptions>) => ({
    inputs: { 'api-key': emulator.apiKey, 'api-url': emulator.url, ...inputs },
    apiUrl: github.url,
    timeoutMs: 30_000,
    ...options,
    env: { ...FAST_PACING, ...artifacts.runtimeEnv(), ...options.env },
  });

  return {
    emulator,
    artifacts,
    github,
    async main(inputs = {}, options = {}) {
      const step = await runActionStep({ entry: 'main', ...base(inputs, options) });
      jobs.push(step.job);
      return step;
    },
    async job(inputs = {}, options = {}) {
      const result = await runJob(base(inputs, options) as JobOptions);
      jobs.push(result.job);
      return result;
    },
    post(main, inputs = {}) {
      return runActionStep({
        entry: 'post',
        ...base(inputs, {}),
        job: main.job,
        state: main.state,
      });
    },
    reset(plan = DEFAULT_PLAN) {
      emulator.clearFaults();
      emulator.setVariant({});
      emulator.setScanPlan(plan);
      emulator.clearRequests();
    },
    async close() {
      await Promise.all(jobs.map((job) => removeJobDirectory(job)));
      await Promise.all([emulator.close(), artifacts.close(), github.close()]);
    },
  };
}

/**
 * One world for the tests of the enclosing `describe`: started before them, reset to `plan` before
 * each, closed after them. The object is filled in once the world has started.
 */
export function useWorld(plan?: ScanPlan): World {
  const world = {} as World;
  before(async () => {
    Object.assign(world, await startWorld());
  });
  after(() => world.close());
  beforeEach(() => world.reset(plan));
  return world;
}

/** Lines a user sees in the log: workflow commands the runner consumes (add-mask…) left out. */
export function visibleLog(step: StepResult): string {
  return `${step.stdout}\n${step.stderr}`
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

export { apiRequests } from '../emulator/request-log.js';

/** Everything a step shows or leaves in text, by name: where a secret must never be. */
export function stepTexts(step: StepResult): Record<string, string> {
  return {
    log: visibleLog(step),
    summary: step.summary,
    outputs: JSON.stringify(step.outputs),
    state: JSON.stringify(step.state),
    exportedEnv: JSON.stringify(step.exportedEnv),
  };
}

/** The failure line of a step: its one error annotation (setFailed writes it). */
export function errorLines(step: StepResult): string[] {
  return step.annotations.filter((a) => a.level === 'error').map((a) => a.message);
}
