// The plan as a document (the JSON of `tenant plan --output json`, the roll-up's input) and the
// verdict `--fail-on` draws from it.

import { SettingProblem } from '../common/settings-problems.js';
import type { Applied } from './apply.js';
import type { Drift, Plan, Problem } from './plan.js';

export const PLAN_DOCUMENT_VERSION = 1;

export interface PlanDocument {
  kind: 'tenant-plan';
  version: number;
  /** The tenant's name (or --tenant-label): what a roll-up names it by. */
  tenant: string | null;
  /** The service's id of the tenant (GET /tenants/me), when it says. */
  tenantId: string | null;
  /** When the tenant was read. */
  checkedAt: string;
  drift: Drift[];
  problems: Problem[];
  /** Only after apply: what each write did. */
  applied?: Applied[];
}

export type PlanFailOn = 'drift' | 'problems' | 'any' | 'none';
export const PLAN_FAIL_ON: readonly PlanFailOn[] = ['drift', 'problems', 'any', 'none'];

/** A --fail-on word for plans (undefined: `fallback`); a SettingProblem naming `label` if not one. */
export function parsePlanFailOn(
  label: string,
  raw: string | undefined,
  fallback: PlanFailOn,
): PlanFailOn {
  const word = raw?.trim().toLowerCase();
  if (word === undefined) return fallback;
  if (!(PLAN_FAIL_ON as readonly string[]).includes(word))
    throw new SettingProblem(`${label} must be one of ${PLAN_FAIL_ON.join(', ')}`);
  return word as PlanFailOn;
}

/** What names the tenant a plan is of. */
export interface TenantIdentity {
  tenant: string | null;
  tenantId: string | null;
}

export function planDocument(
  plan: Plan,
  identity: TenantIdentity,
  nowMs: number,
  applied?: Applied[],
): PlanDocument {
  return {
    kind: 'tenant-plan',
    version: PLAN_DOCUMENT_VERSION,
    tenant: identity.tenant,
    tenantId: identity.tenantId,
    checkedAt: new Date(nowMs).toISOString(),
    drift: plan.drift,
    problems: plan.problems,
    ...(applied ? { applied } : {}),
  };
}

/** Whether the plan fails under `failOn`: drift, problems, either, or never. */
export function planFails(
  doc: Pick<PlanDocument, 'drift' | 'problems'>,
  failOn: PlanFailOn,
): boolean {
  return countsFail(doc.drift.length, doc.problems.length, failOn);
}

/** planFails on counts (a roll-up keeps no more of a plan). */
export function countsFail(drift: number, problems: number, failOn: PlanFailOn): boolean {
  if (failOn === 'drift') return drift > 0;
  if (failOn === 'problems') return problems > 0;
  if (failOn === 'any') return drift > 0 || problems > 0;
  return false;
}

/** Every write that did not end done. */
export function unfinished(applied: Applied[]): Applied[] {
  return applied.filter((a) => a.outcome !== 'done');
}
