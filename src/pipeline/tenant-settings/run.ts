// One plan or apply run end to end over a client, shared by the CLI and the sub-action: the file
// and the webhook variable are checked first (before any request), then read, plan, write, plan.
// A plan is also saved (saved-plan.ts); an apply of a saved plan writes its changes only when the
// tenant has not changed since in what they depend on (plan-check.ts), else nothing.

import { displayLine } from '../../client/index.js';
import type { TenantClient } from '../../client/index.js';
import { applyChanges, type Applied } from './apply.js';
import { redact } from '../common/errors.js';
import { planDocument, type PlanDocument, type TenantIdentity } from './document.js';
import { desiredWebhook } from './file.js';
import { loadTenantFile } from './load.js';
import { changesToApply, checkFileVersion } from './plan-check.js';
import { planTenant, type Change, type Desired, type Plan, type TenantState } from './plan.js';
import { readTenant } from './read.js';
import { makeSavedPlan, type SavedPlan } from './saved-plan.js';

export interface Prepared {
  /** The settings file as named. */
  path: string;
  /** SHA-256 of the file's bytes. */
  fileSha256: string;
  desired: Desired;
  /** The webhook address, to mask and to redact from every message. */
  secrets: string[];
}

/** The file read and checked, the webhook address read from its variable: before any request.
 *  `secrets` are those the run holds (its API key…): the file may not hold one. `fileSetting`:
 *  how the face names another file ("--file <path>"). */
export async function prepareSettings(
  path: string,
  env: Record<string, string | undefined>,
  secrets: readonly string[] = [],
  fileSetting?: string,
): Promise<Prepared> {
  const held = { secrets: secrets.filter(Boolean), env };
  const { file, sha256 } = await loadTenantFile(path, held, fileSetting);
  const webhook = desiredWebhook(file, env);
  return {
    path,
    fileSha256: sha256,
    desired: { file, ...(webhook !== undefined ? { webhook } : {}) },
    secrets: webhook ? [webhook] : [],
  };
}

export interface SettingsRun {
  client: TenantClient;
  prepared: Prepared;
  apply: boolean;
  /** Apply this saved plan's changes (with apply), if it is still current; else nothing. */
  saved?: SavedPlan;
  /** Names the tenant instead of its name from the service. */
  tenantLabel?: string;
  signal?: AbortSignal;
}

interface Planned {
  plan: Plan;
  state: TenantState;
  identity: TenantIdentity;
  now: number;
}

export interface SettingsOutcome {
  /** The plan, or after an apply the plan after the writes with what each did. */
  doc: PlanDocument;
  /** The plan as read first, saved (what `tenant plan --out` writes). */
  saved: SavedPlan;
}

async function planOnce(run: SettingsRun): Promise<Planned> {
  const { client, signal, tenantLabel } = run;
  // The profile always: its id names the tenant in a roll-up of plans even under a label.
  const [state, me] = await Promise.all([
    readTenant(client, signal),
    client.tenants.me({ signal }),
  ]);
  const now = Date.now();
  const name = typeof me.name === 'string' ? me.name : null;
  const identity = {
    tenant: tenantLabel ?? name,
    tenantId: typeof me.id === 'string' ? displayLine(me.id).slice(0, 200) : null,
  };
  return { plan: planTenant(state, run.prepared.desired, now), state, identity, now };
}

function saveOf(run: SettingsRun, planned: Planned): SavedPlan {
  return makeSavedPlan({
    plan: planned.plan,
    state: planned.state,
    desired: run.prepared.desired,
    fileSha256: run.prepared.fileSha256,
    identity: planned.identity,
    nowMs: planned.now,
  });
}

/** What the apply writes: the plan's changes, or the saved plan's when it is still current. */
function changesOf(run: SettingsRun, before: Planned): Change[] {
  if (!run.saved) return before.plan.changes;
  const { path, fileSha256, desired } = run.prepared;
  return changesToApply(run.saved, { path, fileSha256, desired, ...before });
}

/** The plan, or (apply) the writes and the plan after them. */
export async function runSettings(run: SettingsRun): Promise<SettingsOutcome> {
  if (run.saved) checkFileVersion(run.saved, run.prepared.path, run.prepared.fileSha256);
  const before = await planOnce(run);
  const saved = saveOf(run, before);
  if (!run.apply) return { doc: planDocument(before.plan, before.identity, before.now), saved };
  const changes = changesOf(run, before);
  const applied: Applied[] =
    changes.length === 0
      ? []
      : await applyChanges(run.client, changes, {
          signal: run.signal,
          secrets: run.prepared.secrets,
        });
  let after: Planned;
  try {
    after = await planOnce(run);
  } catch (error) {
    if (applied.length === 0) throw error;
    throw new ReplanFailed(applied, error, run.prepared.secrets);
  }
  return { doc: planDocument(after.plan, after.identity, after.now, applied), saved };
}

/** The writes were made but the plan after them could not be read: the one error line still says
 *  what each write did, so a failure halfway never hides what was changed. */
export class ReplanFailed extends Error {
  constructor(
    readonly applied: Applied[],
    override readonly cause: unknown,
    secrets: string[],
  ) {
    const said = applied.map((a) => `${a.outcome}: ${a.change}`).join('; ');
    const why = redact(cause instanceof Error ? cause.message : String(cause), secrets);
    super(
      `tenant apply made its writes (${said}), but the plan after them failed: ${why}; run tenant plan to see what is left`,
    );
    this.name = 'ReplanFailed';
  }
}

/** apply's error: a write failed, may have happened, or was not attempted (a refusal is drift). */
export function applyBroken(doc: PlanDocument): boolean {
  return (doc.applied ?? []).some((a) => a.outcome !== 'done' && a.outcome !== 'refused');
}
