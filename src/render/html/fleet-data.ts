// The page of a fleet: the roll-up's headline and counts, its tenants worst first (each with its
// findings, read from its record), and the checks that fail in most tenants. The roll-up keeps
// only figures of each record; FleetFindings keeps, as each record is read, what the page shows of
// its tenant (compact rows over one table of strings), so a thousand records are never held.

import { CLIENT_VERSION } from '../../client/index.js';
import { severityRank } from '../../pipeline/common/findings.js';
import type { RecordEntry, RecordSummary, RolledCoverage } from '../../pipeline/rollup/records.js';
import type { RecordShown, ShownCoverage } from '../../pipeline/rollup/shown.js';
import type { Rollup, TenantRow } from '../../pipeline/rollup/rollup.js';
import { rollupHeadline } from '../rollup-markdown.js';
import { rolledRow } from './finding-rows.js';
import {
  PAGE_DATA_VERSION,
  type CoverageData,
  type FindingRow,
  type FleetCheck,
  type PageData,
  type TenantData,
} from './page-data.js';
import {
  NO_VERDICT_ERROR,
  droppedChecks,
  notComparedNote,
  resultKinds,
  type PageOptions,
} from './run-data.js';
import { MAX_CHARS, PageStrings } from './strings.js';

const NOTHING_SHOWN: RecordShown = {
  verdictReason: null,
  scanType: null,
  trend: [],
  trendTimes: [],
  evaluatedTrend: [],
  results: null,
  coverage: null,
  coverageNotCompared: null,
};

/** What the page keeps of one record. */
interface KeptRecord {
  findings: FindingRow[];
  kinds: Array<[string, number]> | null;
  trend: Array<[number, number]>;
  evaluatedTrend: Array<number | null>;
  facts: Array<[string, string]>;
  verdictReason: string | null;
  coverage: CoverageData | null;
  /** Lines under the counts (a coverage not compared). */
  notes: string[];
}

/** Collects, record by record (rollUpFiles' observer), what a fleet's page shows of each. */
export class FleetFindings {
  readonly strings: PageStrings;
  private readonly bySource = new Map<string, KeptRecord>();

  constructor(secrets: readonly string[] = []) {
    this.strings = new PageStrings(secrets);
  }

  /** rollUpFiles' observer. */
  readonly observe = (entry: RecordEntry): void => {
    if (entry.kind !== 'read' || this.bySource.has(entry.source)) return;
    this.bySource.set(entry.source, this.keep(entry.record));
  };

  kept(source: string | null): KeptRecord | undefined {
    return source === null ? undefined : this.bySource.get(source);
  }

  private keep(record: RecordSummary): KeptRecord {
    const { strings } = this;
    const scanTime = record.completedAt ?? record.createdAt;
    const shown = record.shown ?? NOTHING_SHOWN;
    const facts: Array<[string, string | null]> = [
      ['Tenant', record.tenant],
      ['Scan', record.scanId],
      ['Scan type', shown.scanType],
      ['Completed', record.completedAt],
    ];
    return {
      findings: record.findings.map((finding) => rolledRow(strings, finding, scanTime)),
      kinds: resultKinds(shown.results, strings),
      trend: shown.trend.map((count, index) => [
        strings.line(shown.trendTimes[index], MAX_CHARS.date),
        count,
      ]),
      evaluatedTrend: shown.evaluatedTrend,
      facts: facts
        .filter((fact): fact is [string, string] => fact[1] !== null && fact[1] !== '')
        .map(([label, value]) => [label, strings.text(value)]),
      verdictReason: shown.verdictReason === null ? null : strings.text(shown.verdictReason),
      coverage: coverageOf(record.coverage, shown.coverage, strings),
      notes:
        shown.coverageNotCompared === null
          ? []
          : [notComparedNote(shown.coverageNotCompared, strings)],
    };
  }
}

/** A record's coverage: the roll-up's figures (its drop judged again), the words its record gives. */
function coverageOf(
  rolled: RolledCoverage | null,
  shown: ShownCoverage | null,
  strings: PageStrings,
): CoverageData | null {
  if (!rolled) return null;
  return {
    evaluated: rolled.evaluatedNow,
    baseline: rolled.baselineEvaluated,
    dropped: rolled.dropped,
    fails: rolled.fails,
    maxDrop: shown?.maxDrop ?? null,
    source: strings.line(shown?.source, MAX_CHARS.line),
    checks: droppedChecks(shown?.dropped ?? [], strings),
  };
}

const VERDICT_WORDS: Record<TenantRow['verdict'], string> = {
  passed: '✅ Passed',
  failed: '❌ Failed',
  error: NO_VERDICT_ERROR,
  missing: '❓ No record',
  stale: '⌛ Stale record',
  unreadable: '❓ Unreadable record',
};

function tenantHeadline(row: TenantRow, kept: KeptRecord | undefined, strings: PageStrings) {
  const why = row.problem ?? kept?.verdictReason ?? null;
  return strings.text(why ? `${VERDICT_WORDS[row.verdict]}: ${why}` : VERDICT_WORDS[row.verdict]);
}

function fleetTenant(row: TenantRow, findings: FleetFindings): TenantData {
  const { strings } = findings;
  const kept = findings.kept(row.source);
  const headline = tenantHeadline(row, kept, strings);
  const problem = row.problem === null ? null : strings.text(row.problem);
  const judged = row.verdict === 'passed' || row.verdict === 'failed';
  const figure = (label: string, value: number | null): Array<[string, number]> =>
    value === null ? [] : [[label, value]];
  return {
    name: strings.text(row.tenant, MAX_CHARS.id) || '(unnamed)',
    serviceName:
      row.name !== null && row.name !== row.tenant ? strings.text(row.name, MAX_CHARS.id) : null,
    verdict: row.verdict,
    headline,
    problem,
    // tenantHeadline puts the problem there, unless the headline was cut before its end
    headlineSaysProblem: problem !== null && headline.includes(problem),
    facts: [
      ...(kept?.facts ?? []),
      ...(row.source === null ? [] : [['Record', strings.text(row.source)] as [string, string]]),
    ],
    counts: [
      ...figure('Fail the gate', row.gating),
      ...figure('New', row.new),
      ...figure('Overdue', row.overdue),
      ...figure('Failed in all', row.failed),
    ],
    kinds: judged ? (kept?.kinds ?? null) : null,
    coverage: judged ? (kept?.coverage ?? null) : null,
    figures: {
      failed: row.failed,
      gating: row.gating,
      new: row.new,
      fixed: row.fixed,
      overdue: row.overdue,
      worst: row.worst === null ? -1 : severityRank(row.worst),
    },
    trend: kept?.trend ?? [],
    evaluatedTrend: kept?.evaluatedTrend ?? [],
    notes: judged ? (kept?.notes ?? []) : [],
    fixed: [],
    // A tenant without a verdict shows none of its record's findings: they decide nothing.
    findings: judged ? (kept?.findings ?? []) : [],
  };
}

function fleetCounts(rollup: Rollup): Array<[string, number]> {
  const by = (...verdicts: Array<TenantRow['verdict']>) =>
    rollup.tenants.filter((row) => verdicts.includes(row.verdict)).length;
  return [
    ['Failed', by('failed')],
    [
      'No verdict (missing, stale, unreadable, an error)',
      by('missing', 'stale', 'unreadable', 'error'),
    ],
    ['Passed', by('passed')],
    ['In all', rollup.totalTenants],
  ];
}

/** The fleet's checks, each with the tenants (page indexes) where it fails. */
function fleetChecks(rollup: Rollup, strings: PageStrings): FleetCheck[] {
  const judged = new Map<string, number>();
  rollup.tenants.forEach((row, index) => {
    if ((row.verdict === 'passed' || row.verdict === 'failed') && !judged.has(row.tenant))
      judged.set(row.tenant, index);
  });
  return rollup.checks.map((check) => [
    strings.line(check.check, MAX_CHARS.id),
    strings.line(check.title, MAX_CHARS.title),
    severityRank(check.severity),
    check.tenants.flatMap((tenant) => {
      const index = judged.get(tenant);
      return index === undefined ? [] : [index];
    }),
  ]);
}

/** The page data of a roll-up; `findings` observed its records as they were read. */
export function fleetPageData(
  rollup: Rollup,
  findings: FleetFindings,
  options: Omit<PageOptions, 'secrets'> = {},
): PageData {
  const { strings } = findings;
  const tenants = rollup.tenants.map((row) => fleetTenant(row, findings));
  return {
    version: PAGE_DATA_VERSION,
    kind: 'fleet',
    generatedAt: options.generatedAt ?? new Date().toISOString(),
    tool: `tenant-scan ${CLIENT_VERSION}`,
    verdict: rollup.verdict,
    headline: strings.text(rollupHeadline(rollup)),
    strings: strings.list,
    tenants,
    fleet: {
      counts: fleetCounts(rollup),
      judged: rollup.judgedTenants,
      checks: fleetChecks(rollup, strings),
    },
  };
}
