// The roll-up of many tenants' runs (issue 27): one row per tenant, worst first; one row per check
// that fails somewhere ("CIS-1.1.1 fails in 12 of 40 tenants"), keyed by the check's identity;
// one verdict. A tenant whose record is missing, unreadable or without a verdict is listed with
// why and counts as failed: a tenant is never silently dropped. A record is evidence, not a
// verdict: one whose stated verdict its own findings and gate contradict counts as failed, with
// why. Both faces use it (`tenant-scan rollup`, the rollup sub-action).

import type { FindingView } from '../../client/index.js';
import { severityRank } from '../common/findings.js';
import type { PlanFailOn } from '../tenant-settings/document.js';
import { planGapRow, planRow, rollUpPlans, type PlanRollup, type PlanRow } from './plans.js';
import {
  readRecords,
  type RecordEntry,
  type RecordSummary,
  type RolledCoverage,
  type RolledFinding,
} from './records.js';
import { judgeAge, type AgeJudgement, type AgeRule } from './age.js';
import { recordSource } from '../output/export-rows.js';
import type { FindingsExport } from '../output/exports.js';

type Severity = FindingView['severity'];

export type TenantVerdict = 'passed' | 'failed' | 'error' | 'missing' | 'stale' | 'unreadable';

export interface TenantRow {
  /** The record's label, else the service's tenant name, else where it was looked for. */
  tenant: string;
  /** The service's name of the tenant, when the record says. */
  name: string | null;
  verdict: TenantVerdict;
  /** Why a tenant has no verdict (the run's error line, why the record is unreadable), or why
   *  its record contradicts itself (then `failed`). */
  problem: string | null;
  failed: number | null;
  /** Failed findings that fail the tenant's own gate. */
  gating: number | null;
  new: number | null;
  /** Findings of the tenant's baseline that do not fail now. */
  fixed: number | null;
  overdue: number | null;
  /** Checks not evaluated in its scan (null: its record does not count them). */
  notEvaluated: number | null;
  /** Its checks evaluated now against its baseline's, and the drop (null: none compared). */
  coverage: RolledCoverage | null;
  /** The worst severity among the failed findings. */
  worst: Severity | null;
  scanId: string | null;
  completedAt: string | null;
  source: string | null;
}

export interface CheckRow {
  check: string;
  title: string;
  /** The worst severity any tenant's finding of the check has. */
  severity: Severity;
  failingTenants: number;
  tenants: string[];
}

export interface Rollup {
  verdict: 'passed' | 'failed';
  /** Why, one line: "2 of 4 tenants failed (at most 0 may)". */
  reason: string;
  tenants: TenantRow[];
  totalTenants: number;
  failedTenants: number;
  /** Tenants whose record was read with a verdict: the denominator of the checks view. */
  judgedTenants: number;
  maxFailedTenants: number;
  checks: CheckRow[];
  /** The tenants' plans (tenant plan --record), when any plan file was read; a tenant whose plan
   *  fails counts once among the failed tenants, however many of its files fail. */
  plans?: PlanRollup | null;
}

export interface RollupSettings {
  /** Tenants expected (matrix entries' names): each without a record is listed as missing. */
  expect?: readonly string[];
  /** The roll-up fails when more tenants fail than this. Default 0. */
  maxFailedTenants?: number;
  /** What fails a tenant's plan: drift, problems, any (the default) or none. */
  planFailOn?: PlanFailOn;
  /** A record or plan older than this (ms) is stale (--max-age); off when absent. */
  maxAgeMs?: number;
  /** The roll-up's clock (ms since the epoch); Date.now() when absent. */
  nowMs?: number;
}

/** Builds a roll-up one record at a time: of each it keeps a row and adds its failed checks to
 *  the checks view, so the records themselves need not be held. */
export class RollupBuilder {
  private readonly rows: TenantRow[] = [];
  private readonly checks = new Map<string, CheckRow>();
  private readonly byTenant = new Map<string, TenantRow>();
  private readonly plans: Array<
    Extract<RecordEntry, { kind: 'plan' }> | Extract<RecordEntry, { kind: 'unreadable' }>
  > = [];

  /** `age`: how old a record or plan may be (--max-age), or null: any age. */
  constructor(private readonly age: AgeRule | null = null) {}

  /** Adds an entry; returns the tenant whose findings it lists (a record read with a verdict,
   *  counted in the checks view), or undefined. */
  add(entry: RecordEntry): string | undefined {
    if (entry.kind === 'plan' || (entry.kind === 'unreadable' && entry.plan)) {
      this.plans.push(entry);
      return undefined;
    }
    const row = tenantRow(entry, this.age);
    const earlier = this.byTenant.get(row.tenant);
    if (earlier) {
      this.rows.push(duplicate(row, earlier));
      return undefined;
    }
    this.byTenant.set(row.tenant, row);
    this.rows.push(row);
    if (entry.kind !== 'read' || (row.verdict !== 'passed' && row.verdict !== 'failed'))
      return undefined;
    addChecks(this.checks, row.tenant, entry.record.findings);
    return row.tenant;
  }

  finish(settings: RollupSettings = {}): Rollup {
    const plans = this.finishPlans(settings);
    const rows = [...this.rows];
    // With plans only, a tenant expected is looked for among the plans alone.
    const scansExpected = plans === null || this.rows.some((row) => row.verdict !== 'unreadable');
    for (const name of scansExpected ? (settings.expect ?? []) : []) {
      if (!this.byTenant.has(name)) rows.push(missingRow(name));
    }
    rows.sort(worstFirst);
    const failing = rows.filter((row) => row.verdict !== 'passed');
    const failingNames = new Set(failing.map((row) => row.tenant));
    const names = new Set(rows.map((row) => row.tenant));
    let failedTenants = failing.length;
    let totalTenants = rows.length;
    for (const row of plans?.tenants ?? []) {
      if (row.verdict !== 'passed' && !failingNames.has(row.tenant)) {
        failingNames.add(row.tenant);
        failedTenants++;
      }
      if (!names.has(row.tenant)) {
        names.add(row.tenant);
        totalTenants++;
      }
    }
    const maxFailedTenants = settings.maxFailedTenants ?? 0;
    return {
      verdict: failedTenants > maxFailedTenants ? 'failed' : 'passed',
      reason: `${failedTenants} of ${totalTenants} tenant${totalTenants === 1 ? '' : 's'} failed (at most ${maxFailedTenants} may)`,
      tenants: rows,
      totalTenants,
      failedTenants,
      judgedTenants: rows.filter((row) => row.verdict === 'passed' || row.verdict === 'failed')
        .length,
      maxFailedTenants,
      checks: [...this.checks.values()].sort(
        (a, b) =>
          b.failingTenants - a.failingTenants ||
          severityRank(a.severity) - severityRank(b.severity) ||
          a.check.localeCompare(b.check),
      ),
      plans,
    };
  }

  /** The plans' roll-up: a second plan of a tenant is unreadable (which is right cannot be told),
   *  and each tenant expected without a plan is missing. Null when no plan file was read. */
  private finishPlans(settings: RollupSettings): PlanRollup | null {
    if (this.plans.length === 0) return null;
    const failOn = settings.planFailOn ?? 'any';
    const rows: PlanRow[] = [];
    const seen = new Map<string, string>();
    for (const entry of this.plans) {
      if (entry.kind === 'unreadable') {
        rows.push(planGapRow(entry.source, 'unreadable', entry.why, entry.source));
        continue;
      }
      const row = planRow(entry.source, entry.plan, failOn, this.age);
      const earlier = seen.get(row.tenant);
      if (earlier === undefined) {
        seen.set(row.tenant, entry.source);
        rows.push(row);
        continue;
      }
      const why = `a second plan of this tenant (the first: ${earlier}); one plan per tenant`;
      rows.push(planGapRow(row.tenant, 'unreadable', why, entry.source));
    }
    for (const name of settings.expect ?? []) {
      if (!seen.has(name)) {
        const why =
          'no plan of this tenant (its plan job did not run, failed before writing one, or its artifact was not downloaded)';
        rows.push(planGapRow(name, 'missing', why, null));
      }
    }
    return rollUpPlans(rows, failOn);
  }
}

/** What reads the records besides the roll-up, as each is read. */
export interface RollupReaders {
  observe?: (entry: RecordEntry) => void;
  exports?: FindingsExport;
}

/** The roll-up of the record files `patterns` name (readRecords), relative to `cwd`. `readers`
 *  see each entry as it is read: `observe` (a report page keeps what it shows of each tenant) and
 *  `exports` (each tenant the checks view counts has its findings written there, the fleet's CSV
 *  and OCSF files, one record at a time; the caller commits them). */
export async function rollUpFiles(
  patterns: readonly string[],
  cwd: string,
  settings: RollupSettings = {},
  readers: RollupReaders = {},
): Promise<Rollup> {
  const { maxAgeMs, nowMs = Date.now() } = settings;
  const { observe, exports } = readers;
  const builder = new RollupBuilder(maxAgeMs === undefined ? null : { maxAgeMs, nowMs });
  for await (const entry of readRecords(patterns, cwd, { display: observe !== undefined })) {
    observe?.(entry);
    const tenant = builder.add(entry);
    if (exports && tenant !== undefined && entry.kind === 'read')
      await exports.add(recordSource(tenant, entry.document));
  }
  return builder.finish(settings);
}

/** The figures of a tenant without a record read. */
const NO_FIGURES = {
  name: null,
  failed: null,
  gating: null,
  new: null,
  fixed: null,
  overdue: null,
  notEvaluated: null,
  coverage: null,
  worst: null,
  scanId: null,
  completedAt: null,
} as const;

function tenantRow(entry: Exclude<RecordEntry, { kind: 'plan' }>, age: AgeRule | null): TenantRow {
  if (entry.kind !== 'read') {
    return {
      ...NO_FIGURES,
      tenant: entry.source,
      verdict: entry.kind,
      problem: entry.why,
      source: entry.kind === 'missing' ? null : entry.source,
    };
  }
  const { record } = entry;
  const aged = age ? judgeRecordAge(record, age) : null;
  if (aged && aged.kind !== 'fresh') return agedRow(entry.source, record, aged);
  // A record that contradicts itself is evidence of a failure, whatever verdict it states.
  const verdict = record.contradiction ? 'failed' : (record.verdict ?? 'error');
  return {
    tenant: record.label ?? record.tenant ?? entry.source,
    name: record.tenant,
    verdict,
    problem:
      verdict === 'error'
        ? (record.error ?? 'the run did not wait for the scan: no verdict')
        : record.contradiction,
    failed: verdict === 'error' ? null : record.failed,
    gating: verdict === 'error' ? null : (record.gating ?? record.failed),
    new: verdict === 'error' ? null : record.new,
    fixed: verdict === 'error' ? null : record.fixed,
    overdue: record.overdue,
    notEvaluated: verdict === 'error' ? null : record.notEvaluated,
    coverage: verdict === 'error' ? null : record.coverage,
    worst: worstOf(record.findings),
    scanId: record.scanId,
    completedAt: record.completedAt,
    source: entry.source,
  };
}

/** A record's age by its scan's time (completed, else created), else by when it was written (a
 *  run that ended in an error before any scan). */
function judgeRecordAge(record: RecordSummary, age: AgeRule): AgeJudgement {
  const scanTime = record.completedAt ?? record.createdAt;
  if (scanTime === null && record.writtenAt !== null)
    return judgeAge(record.writtenAt, age, 'record', 'writtenAt');
  return judgeAge(scanTime, age, 'record', 'scan time');
}

/** A record too old to say how the tenant stands now, or whose time cannot be believed: no
 *  verdict, whatever it says (its scan and time kept to show which record it was). */
function agedRow(
  source: string,
  record: RecordSummary,
  aged: Exclude<AgeJudgement, { kind: 'fresh' }>,
): TenantRow {
  return {
    ...NO_FIGURES,
    tenant: record.label ?? record.tenant ?? source,
    name: record.tenant,
    verdict: aged.kind,
    problem: record.error ? `${aged.why}; its run ended in an error: ${record.error}` : aged.why,
    scanId: record.scanId,
    completedAt: record.completedAt,
    source,
  };
}

function missingRow(tenant: string): TenantRow {
  return {
    ...NO_FIGURES,
    tenant,
    verdict: 'missing',
    problem:
      'no record of this tenant (its job did not run, failed before writing one, or its artifact was not downloaded)',
    source: null,
  };
}

/** A second record for a tenant already listed: which is right cannot be told, so it counts as
 *  unreadable (and failed); the first is kept as read. */
function duplicate(row: TenantRow, earlier: TenantRow): TenantRow {
  return {
    ...row,
    verdict: 'unreadable',
    problem: `a second record of this tenant (the first: ${earlier.source ?? 'expected'}); one record per tenant`,
    failed: null,
    gating: null,
    new: null,
    fixed: null,
  };
}

function worstOf(findings: readonly RolledFinding[]): Severity | null {
  let worst: Severity | null = null;
  for (const finding of findings) {
    if (worst === null || severityRank(finding.severity) < severityRank(worst))
      worst = finding.severity;
  }
  return worst;
}

function addChecks(
  checks: Map<string, CheckRow>,
  tenant: string,
  findings: readonly RolledFinding[],
): void {
  const counted = new Set<string>();
  for (const finding of findings) {
    if (counted.has(finding.check)) continue;
    counted.add(finding.check);
    const row = checks.get(finding.check);
    if (!row) {
      checks.set(finding.check, {
        check: finding.check,
        title: finding.title,
        severity: finding.severity,
        failingTenants: 1,
        tenants: [tenant],
      });
      continue;
    }
    row.failingTenants++;
    row.tenants.push(tenant);
    if (severityRank(finding.severity) < severityRank(row.severity))
      row.severity = finding.severity;
  }
}

const NO_VERDICT_RANK: Record<TenantVerdict, number> = {
  missing: 0,
  stale: 0,
  unreadable: 0,
  error: 0,
  failed: 1,
  passed: 2,
};

/** Tenants without a verdict first (nobody knows how they stand), then failed ones by their
 *  worst finding and how many fail their gate, then passed; by name within each. */
function worstFirst(a: TenantRow, b: TenantRow): number {
  return (
    NO_VERDICT_RANK[a.verdict] - NO_VERDICT_RANK[b.verdict] ||
    severityRank(a.worst ?? 'info') - severityRank(b.worst ?? 'info') ||
    (b.gating ?? 0) - (a.gating ?? 0) ||
    (b.failed ?? 0) - (a.failed ?? 0) ||
    a.tenant.localeCompare(b.tenant)
  );
}
