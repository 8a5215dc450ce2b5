// Rotation runs of the fault campaign (issue 35): a tenant whose key lives in a GitHub secret is
// rotated 2–4 times by the bundled rotate-key sub-action, with a fault or a kill drawn at a step
// (create answered 5xx after acting or reset, the verify read failing, the store refused or its
// answer lost, a delete refused, a SIGKILL after any step's line, a re-run with the old snapshot),
// then a clean run. GitHub's clock is the emulator's, and each run starts at least 31 minutes after
// the last (a key no run may still store). After every run (invariant 11): the secret's key
// authenticates; at most one key the secret never held exists, and none after a run that succeeded
// (so the run after a kill between create and store deletes its key); the stored key is in no log,
// output, summary, file or GitHub request; no key the project did not make is deleted without
// revoke-replaced.
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator, FaultRule } from '../emulator/types.js';
import { startGitHubApiStandin, type GitHubApiStandin } from '../helpers/github-api-standin.js';
import { removeJobDirectory, runActionStep, type StepResult } from '../helpers/runner.js';
import {
  findSecretInDirectory,
  findSecretInRequests,
  findSecretInTexts,
} from '../helpers/secret-scan.js';
import type { Violation } from './invariants.js';
import { Prng } from './prng.js';

const REPOSITORY = 'octo-org/rotations';
const HOUR = 3_600_000;
/** Between runs: past UNSTORED_AFTER_MS, so a key a killed run left can be told. */
const RUN_GAP_MS = 31 * 60_000;
export const ROTATION_FAULTS = [
  'none',
  'create-5xx-after',
  'create-reset',
  'verify-fail',
  'store-refused',
  'store-lost',
  'delete-403',
  'kill',
  'rerun',
] as const;
export type RotationFault = (typeof ROTATION_FAULTS)[number];
const KILL_POINTS = [/Created key/, /Stored the new key/, /Deleted key/, 'time'] as const;

export interface RotationStepPlan {
  fault: RotationFault;
  kill?: (typeof KILL_POINTS)[number];
  killAfterMs?: number;
  advanceHours: number;
}

export interface RotationScenario {
  seed: number;
  humanKeys: number;
  graceHours: number;
  revokeReplaced: boolean;
  steps: RotationStepPlan[];
}

/** One run in eight of the campaign is a rotation run. */
export function isRotationSeed(seed: number): boolean {
  return seed % 8 === 5;
}

export function generateRotationScenario(seed: number): RotationScenario {
  const prng = new Prng(seed ^ 0x35353535);
  const steps = Array.from({ length: prng.int(2, 4) }, (): RotationStepPlan => {
    const fault = prng.chance(0.3) ? 'none' : prng.pick(ROTATION_FAULTS.slice(1));
    return {
      fault,
      ...(fault === 'kill' ? { kill: prng.pick(KILL_POINTS), killAfterMs: prng.int(0, 900) } : {}),
      advanceHours: prng.pick([0, 2, 25, 30]),
    };
  });
  return {
    seed,
    humanKeys: prng.pick([0, 0, 2, 7, 8]),
    graceHours: prng.pick([0, 1, 24]),
    revokeReplaced: prng.chance(0.5),
    steps,
  };
}

export function describeRotation(s: RotationScenario): string {
  const steps = s.steps.map((p) => (p.fault === 'kill' ? `kill@${p.kill}` : p.fault));
  return `rotation: ${steps.join(' → ')} (${s.humanKeys} human keys, grace ${s.graceHours} h${s.revokeReplaced ? ', revoke-replaced' : ''})`;
}

interface ListedKey {
  id: string;
  name: string;
  keyPrefix: string;
  createdAt: string;
}

async function listKeys(emu: Emulator, key: string): Promise<ListedKey[] | undefined> {
  const response = await fetch(`${emu.url}/tenants/me/api-keys`, {
    headers: { authorization: `Bearer ${key}` },
  });
  if (response.status !== 200) return undefined;
  return ((await response.json()) as { data: ListedKey[] }).data;
}

/** What a reader of the step's log sees (the runner hides the ::add-mask:: commands). */
function visibleLog(step: StepResult): string {
  return `${step.stdout}\n${step.stderr}`
    .split('\n')
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n');
}

const prefixOf = (key: string) => `${key.slice(0, 12)}...${key.slice(-4)}`;

function faultRules(fault: RotationFault): FaultRule[] {
  const create = 'POST /tenants/me/api-keys';
  if (fault === 'create-5xx-after')
    return [{ route: create, fault: { kind: 'status', status: 500, afterHandler: true } }];
  if (fault === 'create-reset')
    return [{ route: create, fault: { kind: 'reset', when: 'mid-response' } }];
  if (fault === 'verify-fail')
    return [
      { route: 'GET /tenants/me/api-keys', after: 1, fault: { kind: 'status', status: 500 } },
    ];
  if (fault === 'delete-403') {
    return [
      {
        route: 'DELETE /tenants/me/api-keys/:keyId',
        fault: { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
      },
    ];
  }
  return [];
}

interface World {
  emu: Emulator;
  github: GitHubApiStandin;
  secretPath: string;
  dashboardKey: string;
  humanIds: string[];
  /** The prefixes of every key the secret has held (a run writes it once at most). */
  everStored: Set<string>;
}

async function rotateOnce(
  world: World,
  scenario: RotationScenario,
  plan: RotationStepPlan,
  apiKey: string,
): Promise<StepResult> {
  world.emu.clearFaults();
  for (const rule of faultRules(plan.fault)) world.emu.addFault(rule);
  if (plan.kill === KILL_POINTS[0]) {
    // a slow verify read: the kill at the create's line lands before the store
    world.emu.addFault({
      route: 'GET /tenants/me/api-keys',
      after: 1,
      fault: { kind: 'delay', ms: 3000 },
    });
  }
  if (plan.fault === 'store-refused' || plan.fault === 'store-lost') {
    world.github.failNext('actions/create-or-update-repo-secret', {
      status: plan.fault === 'store-refused' ? 422 : 502,
    });
  }
  const killAt = plan.kill === 'time' ? (plan.killAfterMs ?? 0) : plan.kill;
  const step = await runActionStep({
    entry: 'rotate-key',
    script: process.env.TENANT_SCAN_ROTATE_KEY, // a private (e.g. weakened) build; default dist/
    inputs: {
      'api-key': apiKey,
      'github-token': 'ghs_rotation_app_token',
      'secret-name': world.secretPath.split('/').at(-1) ?? '',
      'grace-hours': String(scenario.graceHours),
      'revoke-replaced': String(scenario.revokeReplaced),
    },
    env: { SERVICE_API_URL: world.emu.url },
    apiUrl: world.github.url,
    repository: REPOSITORY,
    timeoutMs: 60_000,
    ...(killAt !== undefined ? { cancel: { after: killAt, mode: 'kill' as const } } : {}),
  });
  world.emu.clearFaults();
  return step;
}

/** Invariant 11 after one run. */
async function checkAfterRun(
  world: World,
  scenario: RotationScenario,
  step: StepResult,
  label: string,
): Promise<string[]> {
  const problems: string[] = [];
  const stored = world.github.secrets.get(world.secretPath)?.value ?? world.dashboardKey;
  world.everStored.add(prefixOf(stored));
  const keys = await listKeys(world.emu, stored);
  if (!keys) return [`${label}: the secret's key does not authenticate`];
  const unstored = keys.filter(
    (k) => k.name.startsWith('tenant-scan ') && !world.everStored.has(k.keyPrefix),
  );
  // a run that succeeded deleted the key a run killed before its store left (the secret's
  // updated_at tells it was never stored); any other run leaves at most one
  if (unstored.length > (step.exitCode === 0 ? 0 : 1))
    problems.push(`${label}: ${unstored.length} key(s) the secret never held`);
  const texts = {
    log: visibleLog(step),
    summary: step.summary,
    outputs: JSON.stringify(step.outputs),
  };
  const leaks = [
    ...findSecretInTexts(stored, texts),
    ...(await findSecretInDirectory(stored, step.job.root)),
    ...findSecretInRequests(stored, world.github.requests, 'github'),
  ];
  if (stored !== world.dashboardKey && leaks.length > 0)
    problems.push(`${label}: the stored key appears in ${leaks.join(', ')}`);
  const ids = new Set(keys.map((k) => k.id));
  if (world.humanIds.some((id) => !ids.has(id)))
    problems.push(`${label}: a key people made was deleted`);
  const dashboardAlive = keys.some((k) => k.keyPrefix === prefixOf(world.dashboardKey));
  if (!dashboardAlive && !scenario.revokeReplaced)
    problems.push(`${label}: the dashboard key was deleted without revoke-replaced`);
  const undisturbed = step.signal === null && !step.timedOut;
  const errorLine = step.annotations.find((a) => a.level === 'error')?.message ?? '';
  if (undisturbed && step.exitCode !== 0 && !/^Rotation failed at [a-z ]+: /.test(errorLine))
    problems.push(`${label}: exit ${step.exitCode} without a "Rotation failed at" line`);
  return problems;
}

async function setUp(scenario: RotationScenario, emu: Emulator): Promise<World> {
  const github = await startGitHubApiStandin({ now: () => emu.now?.() ?? Date.now() });
  const { apiKey } = emu.addTenant({ name: 'Rotating' });
  const humanIds: string[] = [];
  for (let i = 0; i < scenario.humanKeys; i++) {
    const response = await fetch(`${emu.url}/tenants/me/api-keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `team ${i}` }),
    });
    humanIds.push(((await response.json()) as { data: { id: string } }).data.id);
  }
  const secretPath = `repo:${REPOSITORY}/ROT_${scenario.seed}`;
  github.seedSecret(secretPath, { value: apiKey });
  return {
    emu,
    github,
    secretPath,
    dashboardKey: apiKey,
    humanIds,
    everStored: new Set([prefixOf(apiKey)]),
  };
}

export interface RotationOutcome {
  violations: Violation[];
  tags: string[];
  logs: string;
}

export async function executeRotation(scenario: RotationScenario): Promise<RotationOutcome> {
  const emu = await startEmulator({ seed: scenario.seed, warmupMs: 0 });
  const world = await setUp(scenario, emu);
  const problems: string[] = [];
  const tags: string[] = [];
  const logs: string[] = [];
  let previous = world.dashboardKey;
  try {
    const plans = [...scenario.steps, { fault: 'none' as const, advanceHours: 0 }];
    for (const [i, plan] of plans.entries()) {
      const final = i === plans.length - 1;
      emu.advance((final ? scenario.graceHours : plan.advanceHours) * HOUR + RUN_GAP_MS);
      const current = world.github.secrets.get(world.secretPath)?.value ?? world.dashboardKey;
      const apiKey = plan.fault === 'rerun' ? previous : current;
      const step = await rotateOnce(world, scenario, plan, apiKey);
      logs.push(
        `--- run ${i + 1} (${plan.fault}, exit ${step.exitCode ?? step.signal})\n${visibleLog(step)}`,
      );
      tags.push(
        `rotation: ${plan.fault === 'kill' ? 'kill' : plan.fault}, exit ${step.exitCode === 0 ? 0 : step.signal ? 'killed' : 1}`,
      );
      if (/it was never stored/.test(visibleLog(step)))
        tags.push('rotation: a key the secret never held deleted');
      problems.push(...(await checkAfterRun(world, scenario, step, `run ${i + 1}`)));
      if (step.exitCode === 0) previous = current;
      await removeJobDirectory(step.job);
    }
  } finally {
    await Promise.all([emu.close(), world.github.close()]);
  }
  return {
    violations: problems.map((message) => ({ invariant: 11, message })),
    tags,
    logs: logs.join('\n'),
  };
}
