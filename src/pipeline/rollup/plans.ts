// Tenant plans (`tenant plan --record FILE`, the settings sub-action's plan-file) in a roll-up,
// beside the scan records: one row per tenant (worst first) and one row per problem code ("drift",
// "key-unused", "scan-stale"…) naming the tenants that have it — the fleet's dead-man's switch.
// A plan file is read as strictly as a record: one that is not a whole version-1 plan is listed as
// unreadable with why, never read in part. A plan whose apply left a write unfinished fails.

import { isObject, type JsonObject } from '../../client/index.js';
import { judgeAge, type AgeRule } from './age.js';
import { parseTimestamp } from '../common/timestamp.js';
import { problem, textOrNull } from './document-fields.js';
import { PLAN_DOCUMENT_VERSION, countsFail, type PlanFailOn } from '../tenant-settings/document.js';

/** What the roll-up keeps of one plan file. */
export interface PlanSummary {
  tenant: string | null;
  tenantId: string | null;
  checkedAt: string;
  drift: number;
  /** Problem codes, each once, in the plan's order. */
  codes: string[];
  problems: number;
  /** Writes of an apply that did not end done or refused. */
  unfinished: number;
}

export type PlanVerdict = 'passed' | 'failed' | 'missing' | 'stale' | 'unreadable';

export interface PlanRow {
  tenant: string;
  verdict: PlanVerdict;
  drift: number | null;
  problems: number | null;
  /** "drift" when anything drifts, then the problem codes. */
  codes: string[];
  checkedAt: string | null;
  /** Why there is no plan, or what an unfinished apply left. */
  problem: string | null;
  source: string | null;
}

export interface CodeRow {
  code: string;
  tenants: string[];
}

export interface PlanRollup {
  /** What fails a tenant's plan (tenant plan --fail-on's words). */
  failOn: PlanFailOn;
  tenants: PlanRow[];
  /** One row per code, the code most tenants have first. */
  codes: CodeRow[];
}

/** A plan document is recognised by its kind; anything else is read as a run record. */
export function isPlanDocument(document: unknown): boolean {
  return isObject(document) && document.kind === 'tenant-plan';
}

function listOf(document: JsonObject, key: string, fields: readonly string[]): JsonObject[] {
  const list = document[key];
  if (!Array.isArray(list)) problem(`"${key}" is not a list`);
  return list.map((item: unknown, index) => {
    const what = `${key} entry ${index + 1}`;
    if (!isObject(item)) problem(`${what} is not an object`);
    for (const field of fields) {
      if (typeof item[field] !== 'string') problem(`${what} has no "${field}" text`);
    }
    return item;
  });
}

/** The parts of a version-1 plan a roll-up uses, checked; throws DocumentProblem (its message says
 *  why) when it is not a whole plan. */
export function summarizePlan(document: unknown): PlanSummary {
  if (!isPlanDocument(document)) problem('not a tenant plan (no "kind": "tenant-plan")');
  const doc = document as JsonObject;
  if (doc.version !== PLAN_DOCUMENT_VERSION) {
    if (typeof doc.version === 'number' && doc.version > PLAN_DOCUMENT_VERSION)
      problem(`plan version ${doc.version} is newer than this tenant-scan reads`);
    problem(`not a tenant plan (no "version": ${PLAN_DOCUMENT_VERSION})`);
  }
  const checkedAt = textOrNull(doc.checkedAt, '"checkedAt"');
  // The age rule's reading: a time it would refuse under --max-age is not a time without it either.
  if (checkedAt === null || parseTimestamp(checkedAt) === undefined)
    problem('"checkedAt" is not a time with its zone (ISO 8601)');
  const drift = listOf(doc, 'drift', ['area', 'field']);
  const problems = listOf(doc, 'problems', ['code', 'subject', 'detail']);
  const applied = doc.applied === undefined ? [] : listOf(doc, 'applied', ['change', 'outcome']);
  return {
    tenant: textOrNull(doc.tenant, '"tenant"'),
    tenantId: textOrNull(doc.tenantId, '"tenantId"'),
    checkedAt,
    drift: drift.length,
    codes: [...new Set(problems.map((p) => (p.code as string).slice(0, 64)))],
    problems: problems.length,
    unfinished: applied.filter((a) => a.outcome !== 'done' && a.outcome !== 'refused').length,
  };
}

/** The row of a plan read whole; with an age rule (--max-age), a plan checked too long ago is
 *  stale and one whose checkedAt is ahead of the clock unreadable. */
export function planRow(
  source: string,
  plan: PlanSummary,
  failOn: PlanFailOn,
  age: AgeRule | null = null,
): PlanRow {
  const tenant = plan.tenant ?? plan.tenantId ?? source;
  const aged = age ? judgeAge(plan.checkedAt, age, 'plan', 'checkedAt') : null;
  if (aged && aged.kind !== 'fresh')
    return { ...planGapRow(tenant, aged.kind, aged.why, source), checkedAt: plan.checkedAt };
  const codes = [...(plan.drift > 0 ? ['drift'] : []), ...plan.codes];
  const fails = countsFail(plan.drift, plan.problems, failOn);
  return {
    tenant,
    verdict: fails || plan.unfinished > 0 ? 'failed' : 'passed',
    drift: plan.drift,
    problems: plan.problems,
    codes,
    checkedAt: plan.checkedAt,
    problem:
      plan.unfinished > 0
        ? `its apply left ${plan.unfinished} change${plan.unfinished === 1 ? '' : 's'} unfinished: run apply again`
        : null,
    source,
  };
}

export function planGapRow(
  tenant: string,
  verdict: Exclude<PlanVerdict, 'passed' | 'failed'>,
  why: string,
  source: string | null,
): PlanRow {
  return {
    tenant,
    verdict,
    drift: null,
    problems: null,
    codes: [],
    checkedAt: null,
    problem: why,
    source,
  };
}

const RANK: Record<PlanVerdict, number> = {
  missing: 0,
  stale: 0,
  unreadable: 0,
  failed: 1,
  passed: 2,
};

/** The plan roll-up of these rows: tenants worst first, codes by how many tenants have them. */
export function rollUpPlans(rows: readonly PlanRow[], failOn: PlanFailOn): PlanRollup {
  const tenants = [...rows].sort(
    (a, b) =>
      RANK[a.verdict] - RANK[b.verdict] ||
      b.codes.length - a.codes.length ||
      a.tenant.localeCompare(b.tenant),
  );
  const byCode = new Map<string, string[]>();
  for (const row of tenants) {
    for (const code of row.codes) byCode.set(code, [...(byCode.get(code) ?? []), row.tenant]);
  }
  const codes = [...byCode]
    .map(([code, names]) => ({ code, tenants: names.sort((a, b) => a.localeCompare(b)) }))
    .sort((a, b) => b.tenants.length - a.tenants.length || a.code.localeCompare(b.code));
  return { failOn, tenants, codes };
}
