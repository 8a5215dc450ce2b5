// The data a report page carries (docs/reports.md): plain JSON that the page's script reads and
// puts on screen as text. A run is a page of one tenant; a fleet, one of many with the roll-up's
// views. Every string of the service or of a record is in `strings` once, cleaned (strings.ts);
// the rest refers to it by index (-1: none), so that 10,000 findings of a few hundred checks stay
// small.

export const PAGE_DATA_VERSION = 1;

/** A finding row's marks (bits). */
export const FLAG = {
  /** It fails the gate. */
  gating: 1,
  new: 2,
  unchanged: 4,
  overdue: 8,
  waived: 16,
  /** Its failing streak reaches past the history read: failingSince is a lower bound. */
  beyondWindow: 32,
} as const;

/**
 * One failed finding. Strings are indexes into PageData.strings (-1: none); severity an index
 * into SEVERITY_ORDER; daysLeft and failingScans -1 when unknown.
 */
export type FindingRow = [
  check: number,
  title: number,
  severity: number,
  category: number,
  remediation: number,
  reference: number,
  description: number,
  flags: number,
  failingSince: number,
  dueAt: number,
  daysLeft: number,
  failingScans: number,
  waiverReason: number,
  waiverExpires: number,
  waiverOwner: number,
  /** The waiver's disposition in words ("false positive", "accepted risk"). */
  waiverDisposition: number,
];

/** passed, failed; error (the run ended in one); pending (triggered, not waited for); and a
 *  roll-up's missing, stale, unreadable. */
export type PageVerdict =
  'passed' | 'failed' | 'error' | 'pending' | 'missing' | 'stale' | 'unreadable';

/** Coverage against the baseline, when one was compared (gate/coverage.ts). */
export interface CoverageData {
  /** Checks evaluated now (passed or failed). */
  evaluated: number;
  /** Checks the baseline evaluated. */
  baseline: number;
  /** Of those, how many were not evaluated now. */
  dropped: number;
  /** The drop is beyond the tenant's max-coverage-drop: it fails the gate. */
  fails: boolean;
  /** max-coverage-drop, in percent (null: not known). */
  maxDrop: number | null;
  /** The baseline in words ("scan X of 2026-11-20"): a string index, -1 when not known. */
  source: number;
  /** The checks not evaluated now by identity (string indexes): the first few, when known. */
  checks: number[];
}

export interface TenantData {
  /** The tenant's name in the roll-up (its label), or the service's name for one run. */
  name: string;
  /** The service's name when it differs from `name`. */
  serviceName: string | null;
  verdict: PageVerdict;
  /** The verdict and why, in one line (the job summary's headline). */
  headline: string;
  /** Why there is no verdict, or why a record contradicts itself. */
  problem: string | null;
  /** Whether the headline says the problem already (a fleet's tenant's does): the tenant's view
   *  does not say it again. */
  headlineSaysProblem: boolean;
  /** Scan and gate facts, [label, value]. */
  facts: Array<[string, string]>;
  /** The failed findings by what the gate made of them (the summary's counts table). */
  counts: Array<[string, number]>;
  /** Checks by result kind (passed, failed, each kind not evaluated), when known. */
  kinds: Array<[string, number]> | null;
  /** Coverage against the baseline (null: none compared). */
  coverage: CoverageData | null;
  /** The roll-up's figures of the tenant (null: not known). */
  figures: {
    failed: number | null;
    gating: number | null;
    new: number | null;
    fixed: number | null;
    overdue: number | null;
    /** Index into SEVERITY_ORDER, -1: none. */
    worst: number;
  };
  /** Failed findings per scan, oldest first, this scan last: [scan time (string index), count]. */
  trend: Array<[number, number]>;
  /** Checks evaluated per scan, aligned with `trend` (null: that scan's counts did not say);
   *  empty when not known. */
  evaluatedTrend: Array<number | null>;
  /** Lines under the counts: expired and stale waivers. */
  notes: string[];
  /** Findings failed in the baseline that do not fail now: [check, title] string indexes. */
  fixed: Array<[number, number]>;
  findings: FindingRow[];
}

/** A check failing in several tenants: [check, title (string indexes), severity, tenants
 *  (indexes into PageData.tenants)]. */
export type FleetCheck = [check: number, title: number, severity: number, tenants: number[]];

export interface FleetData {
  /** The roll-up's counts: [label, count]. */
  counts: Array<[string, number]>;
  /** Tenants with a verdict: the denominator of "fails in N of M". */
  judged: number;
  /** Most tenants first. */
  checks: FleetCheck[];
}

export interface PageData {
  version: typeof PAGE_DATA_VERSION;
  kind: 'run' | 'fleet';
  /** When the page was written (ISO 8601). */
  generatedAt: string;
  /** "tenant-scan 0.1.0". */
  tool: string;
  verdict: PageVerdict;
  headline: string;
  strings: string[];
  tenants: TenantData[];
  fleet: FleetData | null;
}
