// One plan or apply run end to end over a client, shared by the CLI and the sub-action: the file
// and the webhook variable are checked first (before any request), then read, plan, write, plan.

import type { TenantClient } from '../../client/index.js';
import { applyChanges, type Applied } from './apply.js';
import { planDocument, type PlanDocument } from './document.js';
import { desiredWebhook } from './file.js';
import { loadTenantFile } from './load.js';
import { planTenant, type Desired, type Plan } from './plan.js';
import { readTenant } from './read.js';

export interface Prepared {
  desired: Desired;
  /** The webhook address, to mask and to redact from every message. */
  secrets: string[];
}

export async function prepareSettings(
  path: string,
  env: Record<string, string | undefined>,
): Promise<Prepared> {
  const file = await loadTenantFile(path);
  const webhook = desiredWebhook(file, env);
  return {
    desired: { file, ...(webhook !== undefined ? { webhook } : {}) },
    secrets: webhook ? [webhook] : [],
  };
}

export interface SettingsRun {
  client: TenantClient;
  prepared: Prepared;
  apply: boolean;
  /** Names the tenant instead of its name from the service. */
  tenantLabel?: string;
  signal?: AbortSignal;
}

async function planOnce(
  run: SettingsRun,
): Promise<{ plan: Plan; tenant: string | null; now: number }> {
  const { client, signal, tenantLabel } = run;
  const [state, me] = await Promise.all([
    readTenant(client, signal),
    tenantLabel === undefined
      ? client.tenants.me({ signal })
      : Promise.resolve({ name: tenantLabel }),
  ]);
  const now = Date.now();
  const tenant = typeof me.name === 'string' ? me.name : null;
  return { plan: planTenant(state, run.prepared.desired, now), tenant, now };
}

/** The plan, or (apply) the writes and the plan after them. */
export async function runSettings(run: SettingsRun): Promise<PlanDocument> {
  const before = await planOnce(run);
  if (!run.apply) return planDocument(before.plan, before.tenant, before.now);
  const applied: Applied[] =
    before.plan.changes.length === 0
      ? []
      : await applyChanges(run.client, before.plan.changes, {
          signal: run.signal,
          secrets: run.prepared.secrets,
        });
  const after = await planOnce(run);
  return planDocument(after.plan, after.tenant, after.now, applied);
}

/** apply's error: a write failed, may have happened, or was not attempted (a refusal is drift). */
export function applyBroken(doc: PlanDocument): boolean {
  return (doc.applied ?? []).some((a) => a.outcome !== 'done' && a.outcome !== 'refused');
}
