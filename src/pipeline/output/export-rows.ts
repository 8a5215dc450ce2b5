// The findings of a run as the CSV and OCSF files list them: one row per failed finding, then one
// per fixed one. A run's rows come from the finding JSON of its record (record.ts's findingJson);
// a fleet's from each tenant's record file, read one at a time. Both read the same shape, so a
// fleet's file says of a tenant exactly what that tenant's own file says. A record is another
// job's file: every field is read by its type and anything else is left empty.

import { isObject, type Severity } from '../../client/index.js';
import { SEVERITY_ORDER } from '../common/findings.js';

/** A waiver's disposition when it names none (issue 47's default: the risk was accepted). */
export const DEFAULT_DISPOSITION = 'risk-accepted';

/** Where a finding stands against the baseline; undefined: no baseline was compared with. */
export type ExportState = 'new' | 'unchanged' | 'fixed';

export interface ExportWaiver {
  expires: string;
  reason: string;
  owner: string | null;
  disposition: string;
}

/** One row of the CSV, one event of the OCSF file. */
export interface ExportRow {
  tenant: string;
  scanId: string | null;
  /** When the scan ended (ISO 8601), else when the run was recorded; null when neither is known. */
  time: string | null;
  checkId: string;
  title: string;
  severity: Severity;
  /** The service's result word; '' for a fixed finding (it no longer fails). */
  result: string;
  category: string | null;
  description: string | null;
  remediation: string | null;
  reference: string | null;
  state: ExportState | undefined;
  /** Whether it fails the gate (undefined: the run did not say). */
  gating: boolean | undefined;
  failingSince: string | null;
  dueAt: string | null;
  overdue: boolean | undefined;
  waiver: ExportWaiver | null;
}

/** What a run or a tenant's record gives: who, which scan, and its findings as JSON. */
export interface ExportSource {
  tenant: string;
  scanId: string | null;
  time: string | null;
  /** Failed findings (record.ts's FindingJson, or a record's `findings`). */
  findings: readonly unknown[];
  /** Failed in the baseline, not failed now (a record's `fixedFindings`). */
  fixed: readonly unknown[];
}

const textOf = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const flagOf = (value: unknown): boolean | undefined =>
  typeof value === 'boolean' ? value : undefined;

function severityOf(value: unknown): Severity {
  return SEVERITY_ORDER.find((severity) => severity === value) ?? 'unknown';
}

function waiverOf(value: unknown): ExportWaiver | null {
  if (!isObject(value)) return null;
  return {
    expires: textOf(value.expires) ?? '',
    reason: textOf(value.reason) ?? '',
    owner: textOf(value.owner),
    disposition: textOf(value.disposition) ?? DEFAULT_DISPOSITION,
  };
}

function stateOf(value: unknown, fixed: boolean): ExportState | undefined {
  if (fixed) return 'fixed';
  return value === 'new' || value === 'unchanged' ? value : undefined;
}

/** A finding's row; undefined when it is not an object (a record's reader refused those). */
export function exportRow(
  source: Omit<ExportSource, 'findings' | 'fixed'>,
  value: unknown,
  fixed: boolean,
): ExportRow | undefined {
  if (!isObject(value)) return undefined;
  const title = textOf(value.title) ?? '';
  return {
    tenant: source.tenant,
    scanId: source.scanId,
    time: source.time,
    checkId: textOf(value.checkId) ?? title,
    title,
    severity: severityOf(value.severity),
    result: fixed ? '' : (textOf(value.result) ?? ''),
    category: textOf(value.category),
    description: textOf(value.description),
    remediation: textOf(value.remediation),
    reference: textOf(value.reference),
    state: stateOf(value.baselineState, fixed),
    gating: fixed ? false : flagOf(value.gating),
    failingSince: fixed ? null : textOf(value.failingSince),
    dueAt: fixed ? null : textOf(value.dueAt),
    overdue: fixed ? undefined : flagOf(value.overdue),
    waiver: fixed ? null : waiverOf(value.waiver),
  };
}

/** Every row of a source: its failed findings, then its fixed ones. */
export function* exportRows(source: ExportSource): Generator<ExportRow> {
  for (const [list, fixed] of [
    [source.findings, false],
    [source.fixed, true],
  ] as const) {
    for (const value of list) {
      const row = exportRow(source, value, fixed);
      if (row) yield row;
    }
  }
}

/** A tenant's record (record.ts) as an export source, named `tenant` (the roll-up's name). */
export function recordSource(tenant: string, record: unknown): ExportSource {
  const document = isObject(record) ? record : {};
  const scan = isObject(document.scan) ? document.scan : {};
  return {
    tenant,
    scanId: textOf(scan.id),
    time: textOf(scan.completedAt) ?? textOf(document.writtenAt),
    findings: Array.isArray(document.findings) ? document.findings : [],
    fixed: Array.isArray(document.fixedFindings) ? document.fixedFindings : [],
  };
}
