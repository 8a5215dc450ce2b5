// Tenant-settings runs of the fault campaign (issue 36): a tenant whose notifications and targets
// differ from its .tenant-scan/tenant.yml is applied by the bundled CLI with a fault drawn on a
// write (a 5xx before or after the service acted, a connection reset before or after it, a 403
// refusal), then applied again with none. Invariant 13: the first apply lists every change the
// plan needed, each as it really ended — done is in effect; failed, refused and not-attempted are
// not (an add that did happen says so); unknown may be either — and exits 1 when one did not end
// done or refused; the second apply finishes the job: exit 0, every change done, no drift, and
// the tenant as the file says.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator } from '../emulator/emulator.js';
import type { FaultRule } from '../emulator/types.js';
import { cliEnv, runCli, type CliResult } from '../cli/helpers.js';
import type { Violation } from './invariants.js';
import { Prng } from './prng.js';
import { inEffect, readTruth, type Truth } from '../helpers/tenant-settings-truth.js';

const FLAGS = ['emailOnComplete', 'emailOnFail', 'teamsOnComplete', 'teamsOnFail'] as const;
const HOSTS = ['a', 'b', 'c', 'd', 'e'].map((h) => `${h}.example.com`);
export const SETTINGS_FAULTS = [
  'none',
  '500-before',
  '500-after',
  'reset-before',
  'reset-mid',
  'refused',
  'replan-fails',
] as const;
export type SettingsFault = (typeof SETTINGS_FAULTS)[number];
const WRITE_ROUTES = [
  'PATCH /tenants/me/notifications',
  'POST /tenants/me/attack-surface/targets',
  'PATCH /tenants/me/attack-surface/targets/:id',
  'DELETE /tenants/me/attack-surface/targets/:id',
  'POST /tenants/me/attack-surface/targets/:id/verify',
] as const;

interface TargetState {
  host: string;
  label: string | null;
  verified: boolean;
}
interface WantedTarget {
  host: string;
  label?: string;
  verify?: boolean;
}

export interface SettingsScenario {
  seed: number;
  current: { flags: Record<string, boolean>; targets: TargetState[] };
  wanted: { flags: Record<string, boolean>; targets: WantedTarget[]; prune: boolean };
  fault: SettingsFault;
  route: (typeof WRITE_ROUTES)[number];
  after: number;
}

/** One run in eight of the campaign is a tenant-settings run. */
export function isSettingsSeed(seed: number): boolean {
  return seed % 8 === 7;
}

export function generateSettingsScenario(seed: number): SettingsScenario {
  const prng = new Prng(seed ^ 0x36363636);
  const flags = Object.fromEntries(FLAGS.map((f) => [f, prng.chance(0.5)]));
  const wantedFlags = Object.fromEntries(
    FLAGS.filter(() => prng.chance(0.6)).map((f) => [f, prng.chance(0.5)]),
  );
  const targets = HOSTS.filter(() => prng.chance(0.5)).map((host) => ({
    host,
    label: prng.pick([null, 'old', 'prod']),
    verified: prng.chance(0.5),
  }));
  const wantedTargets = HOSTS.filter(() => prng.chance(0.6)).map((host) => ({
    host,
    ...(prng.chance(0.5) ? { label: prng.pick(['prod', 'new']) } : {}),
    ...(prng.chance(0.4) ? { verify: true } : {}),
  }));
  return {
    seed,
    current: { flags, targets },
    wanted: { flags: wantedFlags, targets: wantedTargets, prune: prng.chance(0.5) },
    fault: prng.chance(0.15) ? 'none' : prng.pick(SETTINGS_FAULTS.slice(1)),
    route: prng.pick(WRITE_ROUTES),
    after: prng.pick([0, 0, 1]),
  };
}

export function describeSettings(s: SettingsScenario): string {
  return `tenant settings: apply with ${s.fault} on ${s.route}${s.after ? ` (after ${s.after})` : ''}, then apply (${s.current.targets.length} targets, ${s.wanted.targets.length} wanted${s.wanted.prune ? ', prune' : ''})`;
}

function tenantYaml(s: SettingsScenario): string {
  const lines = [`notifications: ${JSON.stringify(s.wanted.flags)}`, 'attackSurface:'];
  lines.push(`  prune: ${s.wanted.prune}`, `  targets: ${JSON.stringify(s.wanted.targets)}`);
  return `${lines.join('\n')}\n`;
}

function faultRule(s: SettingsScenario, key: string): FaultRule | undefined {
  const base = { route: s.route, after: s.after, key };
  switch (s.fault) {
    case 'none':
      return undefined;
    case '500-before':
      return { ...base, fault: { kind: 'status', status: 500 } };
    case '500-after':
      return { ...base, fault: { kind: 'status', status: 500, afterHandler: true } };
    case 'reset-before':
      return { ...base, fault: { kind: 'reset', when: 'before' } };
    case 'reset-mid':
      return { ...base, fault: { kind: 'reset', when: 'mid-response' } };
    case 'replan-fails':
      // The plan before reads the notifications once; the plan after the writes never can.
      return {
        route: 'GET /tenants/me/notifications',
        after: 1,
        times: Infinity,
        key,
        fault: { kind: 'status', status: 401, code: 'AUTH_INVALID_KEY' },
      };
    case 'refused':
      return {
        ...base,
        fault: { kind: 'status', status: 403, code: 'AUTH_INSUFFICIENT_SCOPE' },
      };
  }
}

interface Applied {
  change: string;
  outcome: string;
  detail?: string;
}

interface PlanDoc {
  drift: unknown[];
  applied?: Applied[];
}

/** Whether a change that did not end done left nothing of itself, or says what it left. */
function leftNothing(a: Applied, before: Truth, after: Truth): boolean {
  const add = /^add target (\S+)/.exec(a.change);
  if (add) {
    const added = after.targets.some((t) => t.host === add[1]);
    return !added || /was added/.test(a.detail ?? '');
  }
  // Not in effect now, or already so before (a field that did not differ is never in a change).
  return !inEffect(a.change, after) || inEffect(a.change, before);
}

function firstApplied(result: CliResult): Applied[] {
  try {
    const doc = result.stdout
      ? (JSON.parse(result.stdout) as PlanDoc)
      : appliedOfError(result.stderr);
    return doc.applied ?? [];
  } catch {
    return [];
  }
}

/** The writes an apply whose plan after them failed lists in its one error line. */
function appliedOfError(stderr: string): PlanDoc {
  const said = /made its writes \((.*)\), but the plan after them failed/.exec(stderr)?.[1];
  if (said === undefined) throw new Error('no writes said');
  const applied = said.split('; ').map((part) => {
    const at = part.indexOf(': ');
    return { outcome: part.slice(0, at), change: part.slice(at + 2) };
  });
  return { drift: [], applied };
}

function checkFirst(result: CliResult, before: Truth, after: Truth, needed: number): string[] {
  const problems: string[] = [];
  if (!result.stdout && needed === 0 && result.code === 1) return []; // nothing to write, nothing written
  let doc: PlanDoc;
  try {
    doc = result.stdout ? (JSON.parse(result.stdout) as PlanDoc) : appliedOfError(result.stderr);
  } catch {
    return [
      `the faulted apply said neither its plan nor its writes (exit ${result.code}): ${result.stderr.trim()}`,
    ];
  }
  const applied = doc.applied ?? [];
  if (applied.length !== needed)
    problems.push(`the faulted apply lists ${applied.length} changes, the plan needed ${needed}`);
  for (const a of applied) {
    const effect = inEffect(a.change, after);
    if (a.outcome === 'done' && !effect)
      problems.push(`"${a.change}" says done but is not in effect`);
    if (
      ['failed', 'refused', 'not-attempted'].includes(a.outcome) &&
      !leftNothing(a, before, after)
    )
      problems.push(`"${a.change}" says ${a.outcome} but is in effect`);
  }
  const broken = applied.some((a) => !['done', 'refused'].includes(a.outcome));
  const planAfterFailed = !result.stdout;
  if (planAfterFailed ? result.code !== 1 : broken !== (result.code === 1))
    problems.push(
      `the faulted apply exits ${result.code} with ${broken ? 'an' : 'no'} unfinished change`,
    );
  return problems;
}

function checkSecond(result: CliResult, truth: Truth, s: SettingsScenario): string[] {
  const problems: string[] = [];
  if (result.code !== 0)
    problems.push(`the second apply exits ${result.code}: ${result.stderr.trim()}`);
  const doc = JSON.parse(result.stdout || '{}') as PlanDoc;
  if ((doc.drift ?? []).length > 0)
    problems.push(`drift after the second apply: ${JSON.stringify(doc.drift)}`);
  const notDone = (doc.applied ?? []).filter((a) => a.outcome !== 'done');
  if (notDone.length > 0) problems.push(`the second apply left ${JSON.stringify(notDone)}`);
  for (const [flag, value] of Object.entries(s.wanted.flags)) {
    if (truth.flags[flag] !== value)
      problems.push(`${flag} is not ${value} after the second apply`);
  }
  for (const want of s.wanted.targets) {
    const have = truth.targets.find((t) => t.host === want.host);
    if (
      !have ||
      (want.label !== undefined && have.label !== want.label) ||
      (want.verify && !have.verified)
    )
      problems.push(`${want.host} is not as the file says after the second apply`);
  }
  if (s.wanted.prune && truth.targets.length !== s.wanted.targets.length)
    problems.push(
      `prune left ${truth.targets.length} targets, the file lists ${s.wanted.targets.length}`,
    );
  return problems;
}

export interface SettingsOutcome {
  violations: Violation[];
  tags: string[];
  logs: string;
}

export async function executeSettings(s: SettingsScenario): Promise<SettingsOutcome> {
  const emu = await startEmulator({ seed: s.seed, warmupMs: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-settings-'));
  try {
    const { apiKey } = emu.addTenant({
      notifications: s.current.flags,
      targets: s.current.targets,
    });
    const file = join(dir, 'tenant.yml');
    await writeFile(file, tenantYaml(s));
    const env = cliEnv(emu, { SERVICE_API_KEY: apiKey });
    const apply = () => runCli(['tenant', 'apply', '--file', file, '--output', 'json'], env);
    const plan = await runCli(['tenant', 'plan', '--file', file, '--output', 'json'], env);
    const planned = JSON.parse(plan.stdout) as { drift: Array<{ area: string }> };
    const notificationDrift = planned.drift.some((d) => d.area === 'notifications');
    const needed =
      (notificationDrift ? 1 : 0) + planned.drift.filter((d) => d.area === 'targets').length;
    const before = await readTruth(emu, apiKey);
    const rule = faultRule(s, apiKey);
    if (rule) emu.addFault(rule);
    const first = await apply();
    emu.clearFaults();
    const middle = await readTruth(emu, apiKey);
    const second = await apply();
    const after = await readTruth(emu, apiKey);
    const problems = [
      ...checkFirst(first, before, middle, needed),
      ...checkSecond(second, after, s),
    ];
    const hit = emu.requests().some((r) => r.fault !== undefined);
    const outcomes = [...new Set(firstApplied(first).map((a) => a.outcome))];
    return {
      violations: problems.map((message) => ({ invariant: 13, message })),
      tags: [
        `settings: ${s.fault}${hit ? '' : ' (not hit)'}, ${outcomes.sort().join('+') || 'no change'}`,
      ],
      logs: `--- plan\n${plan.stdout}\n--- apply with ${s.fault}, exit ${first.code}\n${first.stdout}${first.stderr}\n--- apply, exit ${second.code}\n${second.stdout}${second.stderr}`,
    };
  } finally {
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}
