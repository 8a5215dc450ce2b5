// The plan as a document (the JSON of `tenant plan --output json`, the roll-up's input) and the
// verdict `--fail-on` draws from it.

import type { Applied } from './apply.js';
import type { Drift, Plan, Problem } from './plan.js';

export const PLAN_DOCUMENT_VERSION = 1;

export interface PlanDocument {
  kind: 'tenant-plan';
  version: number;
  /** The tenant's name (or --tenant-label). */
  tenant: string | null;
  checkedAt: string;
  drift: Drift[];
  problems: Problem[];
  /** Only after apply: what each write did. */
  applied?: Applied[];
}

export type PlanFailOn = 'drift' | 'problems' | 'any' | 'none';
export const PLAN_FAIL_ON: readonly PlanFailOn[] = ['drift', 'problems', 'any', 'none'];

export function planDocument(
  plan: Plan,
  tenant: string | null,
  nowMs: number,
  applied?: Applied[],
): PlanDocument {
  return {
    kind: 'tenant-plan',
    version: PLAN_DOCUMENT_VERSION,
    tenant,
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
  const drift = doc.drift.length > 0;
  const problems = doc.problems.length > 0;
  if (failOn === 'drift') return drift;
  if (failOn === 'problems') return problems;
  if (failOn === 'any') return drift || problems;
  return false;
}

/** Every write that did not end done. */
export function unfinished(applied: Applied[]): Applied[] {
  return applied.filter((a) => a.outcome !== 'done');
}
