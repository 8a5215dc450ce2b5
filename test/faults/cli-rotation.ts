// CLI rotation runs of the fault campaign (issue 46): a tenant whose key lives in a store that a
// store command writes (the stand-in of test/fixtures/store-command, installed as `glab`), with
// or without a read command, is rotated 2–4 times by the bundled CLI (`keys rotate`), each run
// drawing a store command that fails, exits 0 without storing, dies after storing (its answer
// lost), hangs, or leaves a child holding its output; a read command that fails; a SIGKILL or a
// SIGTERM while the store command runs, or after a line; a re-run holding the key before — then a
// clean run. After every run (invariant 11, as for the sub-action): the store's key
// authenticates; the key the run held is deleted only once the store is shown to hold a later
// key; with a read command at most one key the store never held; no key in the output or a file;
// people's keys never deleted, the dashboard key only with --revoke-replaced; a run that was not
// stopped ends within a minute with exit 0 or one `Rotation failed at …` line, and a line that
// says "nothing changed" is true.
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliEnv, spawnCli, type CliResult } from '../cli/helpers.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';
import { findSecretInDirectory, findSecretInTexts } from '../helpers/secret-scan.js';
import type { Violation } from './invariants.js';
import { Prng } from './prng.js';

const STANDIN = fileURLToPath(new URL('../fixtures/store-command/standin.mjs', import.meta.url));
const HOUR = 3_600_000;
/** Between runs: past UNSTORED_AFTER_MS, so a key a killed run left can be told. */
const RUN_GAP_MS = 31 * 60_000;
/** A run nothing stopped ends within this (a child holding the output must not hold it). */
const RUN_BOUND_MS = 60_000;

export const CLI_STORE_FAULTS = [
  'none',
  'fail',
  'drop',
  'lost',
  'child',
  'read-fail',
  'rerun',
] as const;
export const CLI_KILLS = [
  'sigkill-storing',
  'sigterm-storing',
  'sigkill-deleting',
  'time',
] as const;
type StoreFault = (typeof CLI_STORE_FAULTS)[number];

export interface CliRotationStep {
  fault: StoreFault;
  kill?: (typeof CLI_KILLS)[number];
  killAfterMs?: number;
  advanceHours: number;
}

export interface CliRotationScenario {
  seed: number;
  readBack: boolean;
  humanKeys: number;
  graceHours: number;
  revokeReplaced: boolean;
  steps: CliRotationStep[];
}

/** One run in sixteen of the campaign is a CLI rotation (taken from the Action's runs). */
export function isCliRotationSeed(seed: number): boolean {
  return seed % 16 === 0;
}

export function generateCliRotationScenario(seed: number): CliRotationScenario {
  const prng = new Prng(seed ^ 0x46464646);
  const steps = Array.from({ length: prng.int(2, 4) }, (): CliRotationStep => {
    const fault = prng.chance(0.3) ? 'none' : prng.pick(CLI_STORE_FAULTS.slice(1));
    const killed = prng.chance(0.3);
    return {
      fault,
      ...(killed ? { kill: prng.pick(CLI_KILLS), killAfterMs: prng.int(0, 900) } : {}),
      advanceHours: prng.pick([0, 2, 25, 30]),
    };
  });
  return {
    seed,
    readBack: prng.chance(0.5),
    humanKeys: prng.pick([0, 0, 2, 7, 8]),
    graceHours: prng.pick([0, 1, 24]),
    revokeReplaced: prng.chance(0.5),
    steps,
  };
}

export function describeCliRotation(s: CliRotationScenario): string {
  const steps = s.steps.map((p) => `${p.fault}${p.kill ? `+${p.kill}` : ''}`);
  return `CLI rotation${s.readBack ? ' (read-back)' : ''}: ${steps.join(' → ')} (${s.humanKeys} human keys, grace ${s.graceHours} h${s.revokeReplaced ? ', revoke-replaced' : ''})`;
}

const prefixOf = (key: string) => `${key.slice(0, 12)}...${key.slice(-4)}`;

function knobsOf(fault: StoreFault, kill: CliRotationStep['kill']): Record<string, string> {
  const storing = kill === 'sigkill-storing' || kill === 'sigterm-storing';
  if (storing) return { STORE_STANDIN_HANG: '1' };
  if (fault === 'fail') return { STORE_STANDIN_EXIT: '3' };
  if (fault === 'drop') return { STORE_STANDIN_DROP: '1' };
  if (fault === 'lost') return { STORE_STANDIN_LOST: '1' };
  if (fault === 'child') return { STORE_STANDIN_CHILD: '1', STORE_STANDIN_READ_CHILD: '1' };
  if (fault === 'read-fail') return { STORE_STANDIN_READ: 'fail', STORE_STANDIN_BAD_READS: '9' };
  return {};
}

interface World {
  emu: Emulator;
  tenantId: string;
  dashboardKey: string;
  humanIds: Set<string>;
  home: string;
  bin: string;
  /** Every key the store held, and every key a run held. */
  everStored: Set<string>;
  heldByRuns: Set<string>;
}

function storedKey(world: World): string {
  try {
    const state = JSON.parse(readFileSync(join(world.home, 'glab.json'), 'utf8')) as {
      calls: Array<{ value: string }>;
    };
    return state.calls.at(-1)?.value ?? world.dashboardKey;
  } catch {
    return world.dashboardKey;
  }
}

async function setUp(scenario: CliRotationScenario, emu: Emulator, dir: string): Promise<World> {
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  copyFileSync(STANDIN, join(bin, 'glab'));
  chmodSync(join(bin, 'glab'), 0o755);
  const home = join(dir, 'home');
  mkdirSync(home);
  const { tenantId, apiKey } = emu.addTenant({ name: 'Rotating' });
  writeFileSync(
    join(home, 'glab.json'),
    JSON.stringify({ calls: [{ argv: ['seed'], value: apiKey }] }),
  );
  const humanIds = new Set<string>();
  for (let i = 0; i < scenario.humanKeys; i++) {
    const key = emu.addKey(tenantId, `team ${i}`);
    const id = emu.apiKeys(tenantId).find((k) => k.key === key)?.id;
    if (id) humanIds.add(id);
  }
  return {
    emu,
    tenantId,
    dashboardKey: apiKey,
    humanIds,
    home,
    bin,
    everStored: new Set([apiKey]),
    heldByRuns: new Set(),
  };
}

/** One `keys rotate`, stopped as the step says. */
async function rotateOnce(
  world: World,
  scenario: CliRotationScenario,
  plan: CliRotationStep,
  apiKey: string,
): Promise<{ result: CliResult; stopped: boolean; tookMs: number }> {
  writeFileSync(join(world.home, 'knobs.json'), JSON.stringify(knobsOf(plan.fault, plan.kill)));
  const hanging = join(world.home, 'glab.hang-child');
  rmSync(hanging, { force: true });
  const args = [
    'keys',
    'rotate',
    '--store-command',
    'glab variable update TENANT_SCAN_API_KEY',
    ...(scenario.readBack ? ['--store-read-command', 'glab variable get TENANT_SCAN_API_KEY'] : []),
    '--grace-hours',
    String(scenario.graceHours),
    ...(scenario.revokeReplaced ? ['--revoke-replaced'] : []),
  ];
  const env = cliEnv(undefined, {
    SERVICE_API_URL: world.emu.url,
    SERVICE_API_KEY: apiKey,
    PATH: `${world.bin}:${process.env.PATH}`,
    HOME: world.home,
    TENANT_SCAN_API_KEY: apiKey, // as in the GitLab example: the store command must not get it
  });
  const started = Date.now();
  const running = spawnCli(args, env, { cwd: world.home });
  let stopped = false;
  const stop = (signal: NodeJS.Signals) => {
    stopped = true;
    running.child.kill(signal);
  };
  if (plan.kill === 'time') setTimeout(() => stop('SIGKILL'), plan.killAfterMs ?? 0);
  if (plan.kill === 'sigkill-storing' || plan.kill === 'sigterm-storing') {
    const signal = plan.kill === 'sigkill-storing' ? 'SIGKILL' : 'SIGTERM';
    // once the store command has the key and hangs: a kill any earlier leaves it to start late
    // (the handover has the whole key) and store under the next run's knobs
    running.waitForStderr('Created key').then(
      () => untilExists(hanging).then(() => stop(signal)),
      () => undefined,
    );
  }
  if (plan.kill === 'sigkill-deleting')
    running.waitForStderr('Deleted key').then(
      () => stop('SIGKILL'),
      () => undefined,
    );
  const bound = setTimeout(() => running.child.kill('SIGKILL'), RUN_BOUND_MS + 30_000);
  const result = await running.done;
  clearTimeout(bound);
  if (plan.kill === 'sigkill-storing' && existsSync(hanging))
    killGroup(Number(readFileSync(join(world.home, 'glab.pid'), 'utf8')));
  return { result, stopped, tookMs: Date.now() - started };
}

async function untilExists(file: string): Promise<void> {
  for (let i = 0; i < 400 && !existsSync(file); i++) await new Promise((r) => setTimeout(r, 25));
}

/** The hanging store command a stopped run left behind, and the helper in its group. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

interface Truth {
  keys: Map<string, { key: string; name: string; createdAt: string }>;
  stored: string;
}

function truth(world: World): Truth {
  const keys = world.emu.apiKeys(world.tenantId);
  return { keys: new Map(keys.map((k) => [k.id, k])), stored: storedKey(world) };
}

/** The last write the stand-in recorded: whether a value of its environment held a key. */
function lastCall(world: World): { keyInEnv?: boolean } | undefined {
  try {
    const state = JSON.parse(readFileSync(join(world.home, 'glab.json'), 'utf8')) as {
      calls: Array<{ keyInEnv?: boolean }>;
    };
    return state.calls.at(-1);
  } catch {
    return undefined;
  }
}

/** Whether the store holds a key made after `held`, shown stored: read back, or held by a run. */
function laterShownStored(
  world: World,
  scenario: CliRotationScenario,
  held: string,
  before: Truth,
  after: Truth,
): boolean {
  const madeAt = (value: string) =>
    [...before.keys.values(), ...after.keys.values()].find((k) => k.key === value)?.createdAt ?? '';
  const heldAt = madeAt(held);
  if (after.stored === held || madeAt(after.stored) <= heldAt) return false;
  return scenario.readBack || [...world.heldByRuns].some((v) => madeAt(v) > heldAt);
}

async function checkRun(
  world: World,
  scenario: CliRotationScenario,
  run: { result: CliResult; stopped: boolean; tookMs: number; apiKey: string },
  before: Truth,
  after: Truth,
): Promise<string[]> {
  const problems: string[] = [];
  const values = new Set([...after.keys.values()].map((k) => k.key));
  if (!values.has(after.stored))
    problems.push(`the store's key ${prefixOf(after.stored)} does not authenticate`);
  const deleted = [...before.keys].filter(([id]) => !after.keys.has(id));
  for (const [id, key] of deleted) {
    if (world.humanIds.has(id)) problems.push('a key people made was deleted');
    if (key.key === world.dashboardKey && !scenario.revokeReplaced)
      problems.push('the dashboard key was deleted without --revoke-replaced');
  }
  if (
    deleted.some(([, k]) => k.key === run.apiKey) &&
    !laterShownStored(world, scenario, run.apiKey, before, after)
  )
    problems.push(
      `the run deleted the key it held (${prefixOf(run.apiKey)}) before a later key was shown stored`,
    );
  if (lastCall(world)?.keyInEnv === true)
    problems.push('the store command got a key in its environment');
  if (scenario.readBack) {
    const unstored = [...after.keys.values()].filter(
      (k) => k.name.startsWith('tenant-scan ') && !world.everStored.has(k.key),
    );
    if (unstored.length > 1) problems.push(`${unstored.length} keys the store never held`);
  }
  const texts = { stdout: run.result.stdout, stderr: run.result.stderr };
  for (const key of values) {
    if (findSecretInTexts(key, texts).length > 0)
      problems.push(`the key ${prefixOf(key)} is in the output`);
  }
  for (const key of [after.stored]) {
    const files = (await findSecretInDirectory(key, world.home)).filter(
      (f) => !/glab\.json$/.test(f),
    );
    if (files.length > 0) problems.push(`the key ${prefixOf(key)} is in ${files.join(', ')}`);
  }
  if (!run.stopped) {
    if (run.tookMs > RUN_BOUND_MS) problems.push(`the run took ${run.tookMs} ms`);
    const error = /tenant-scan: error: (.*)/.exec(run.result.stderr)?.[1] ?? '';
    if (run.result.code !== 0 && !/^Rotation failed at [a-z ]+: /.test(error))
      problems.push(`exit ${run.result.code} without a "Rotation failed at" line: ${error}`);
    const same =
      deleted.length === 0 &&
      after.keys.size === before.keys.size &&
      after.stored === before.stored;
    if (/nothing changed/.test(error) && !same)
      problems.push(`"nothing changed" after a change: ${error}`);
  }
  return problems;
}

export interface CliRotationOutcome {
  violations: Violation[];
  tags: string[];
  logs: string;
}

export async function executeCliRotation(
  scenario: CliRotationScenario,
): Promise<CliRotationOutcome> {
  const emu = await startEmulator({ seed: scenario.seed, warmupMs: 0 });
  const dir = mkdtempSync(join(tmpdir(), 'cli-rotation-'));
  const problems: string[] = [];
  const tags: string[] = [];
  const logs: string[] = [];
  try {
    const world = await setUp(scenario, emu, dir);
    let previous = world.dashboardKey;
    const plans = [...scenario.steps, { fault: 'none' as const, advanceHours: 0 }];
    for (const [i, plan] of plans.entries()) {
      const final = i === plans.length - 1;
      emu.advance((final ? scenario.graceHours : plan.advanceHours) * HOUR + RUN_GAP_MS);
      const current = storedKey(world);
      const apiKey = plan.fault === 'rerun' ? previous : current;
      world.heldByRuns.add(apiKey);
      const before = truth(world);
      const run = await rotateOnce(world, scenario, plan, apiKey);
      const after = truth(world);
      world.everStored.add(after.stored);
      const end = run.stopped ? 'stopped' : `exit ${run.result.code}`;
      logs.push(
        `--- run ${i + 1} (${plan.fault}${plan.kill ? `, ${plan.kill}` : ''}, ${end})\n${run.result.stdout}${run.result.stderr}`,
      );
      tags.push(
        `CLI rotation: ${plan.fault}${plan.kill ? ' stopped' : ''}, ${run.stopped ? 'stopped' : run.result.code === 0 ? 'exit 0' : 'exit 1'}`,
      );
      if (/it was never stored/.test(run.result.stderr))
        tags.push('CLI rotation: a key the store never held deleted');
      if (/and none may go/.test(run.result.stderr)) tags.push('CLI rotation: the cap full');
      const found = await checkRun(world, scenario, { ...run, apiKey }, before, after);
      problems.push(...found.map((p) => `run ${i + 1}: ${p}`));
      if (run.result.code === 0) previous = current;
    }
  } finally {
    await emu.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return {
    violations: problems.map((message) => ({ invariant: 11, message })),
    tags,
    logs: logs.join('\n'),
  };
}
