// The findings as OCSF 1.3.0 Detection Findings (class_uid 2004), one JSON object per line (JSON
// Lines: what log shippers and SIEM collectors read, and what streams for a fleet). Built from the
// class as the ocsf/ocsf-schema repository defines it at tag 1.3.0; the file
// schemas/ocsf-detection-finding-1.3.json is what we emit, and the tests validate every event
// against it. The cloud profile is applied (the tenant is the cloud account).

import { CLIENT_VERSION, type Severity } from '../../client/index.js';
import { cutChars } from '../common/markdown.js';
import type { ExportRow } from './export-rows.js';

export const OCSF_VERSION = '1.3.0';
const CATEGORY = { uid: 2, name: 'Findings' } as const;
const CLASS = { uid: 2004, name: 'Detection Finding' } as const;
/** The service the tenant account lives in: the seed calls it the Tenant API and names no cloud. */
export const OCSF_PROVIDER = 'Tenant API';
/** OCSF's string_t holds at most this many characters. */
const MAX_STRING = 65_535;

/** severity_id of the dictionary: 1 Informational … 5 Critical, 0 Unknown. */
const SEVERITY_ID: Record<Severity, { id: number; caption: string }> = {
  info: { id: 1, caption: 'Informational' },
  low: { id: 2, caption: 'Low' },
  medium: { id: 3, caption: 'Medium' },
  high: { id: 4, caption: 'High' },
  critical: { id: 5, caption: 'Critical' },
  unknown: { id: 0, caption: 'Unknown' },
};

/** The finding class's status_id: New, In Progress, Suppressed, Resolved. */
const STATUS = {
  new: { id: 1, caption: 'New' },
  inProgress: { id: 2, caption: 'In Progress' },
  suppressed: { id: 3, caption: 'Suppressed' },
  resolved: { id: 4, caption: 'Resolved' },
} as const;

/** The finding class's activity_id: Create, Update, Close. */
const ACTIVITY = {
  create: { id: 1, caption: 'Create' },
  update: { id: 2, caption: 'Update' },
  close: { id: 3, caption: 'Close' },
} as const;

/** Fixed: resolved (closed). Waived: suppressed. Failing since the baseline: in progress (updated).
 *  Else new: not in the baseline, or no baseline to say otherwise. */
function statusOf(row: ExportRow) {
  if (row.state === 'fixed') return { status: STATUS.resolved, activity: ACTIVITY.close };
  const activity = row.state === 'unchanged' ? ACTIVITY.update : ACTIVITY.create;
  if (row.waiver) return { status: STATUS.suppressed, activity };
  if (row.state === 'unchanged') return { status: STATUS.inProgress, activity };
  return { status: STATUS.new, activity };
}

function text(value: string): string {
  return cutChars(value, MAX_STRING);
}

/** Epoch milliseconds of an ISO time (OCSF's timestamp_t), or undefined. */
function millis(iso: string | null): number | undefined {
  const ms = iso === null ? Number.NaN : Date.parse(iso);
  return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/** A help link that is an http(s) address (url_t), else undefined. */
function webAddress(reference: string | null): string | undefined {
  if (reference === null) return undefined;
  try {
    const url = new URL(reference);
    return url.protocol === 'https:' || url.protocol === 'http:' ? text(url.href) : undefined;
  } catch {
    return undefined;
  }
}

function defined<T extends object>(object: T): T {
  return Object.fromEntries(Object.entries(object).filter(([, v]) => v !== undefined)) as T;
}

function statusDetail(row: ExportRow): string | undefined {
  if (row.state === 'fixed') return 'failed in the baseline, not failed now';
  if (!row.waiver) return undefined;
  return text(`waived until ${row.waiver.expires} (${row.waiver.disposition})`);
}

/** What OCSF has no attribute for: the scan, the gate's judgement, the deadline, the waiver. */
function unmapped(row: ExportRow): Record<string, unknown> {
  return defined({
    scan_id: row.scanId ?? undefined,
    result: row.result === '' ? undefined : text(row.result),
    baseline_state: row.state,
    fails_gate: row.gating,
    due_at: row.dueAt ?? undefined,
    overdue: row.overdue,
    waiver: row.waiver
      ? defined({
          expires: text(row.waiver.expires),
          reason: text(row.waiver.reason),
          owner: row.waiver.owner === null ? undefined : text(row.waiver.owner),
          disposition: text(row.waiver.disposition),
        })
      : undefined,
  });
}

/** One Detection Finding of a row; `nowMs` stands for its time when the row has none. */
export function ocsfFinding(row: ExportRow, nowMs: number): Record<string, unknown> {
  const { status, activity } = statusOf(row);
  const severity = SEVERITY_ID[row.severity];
  const tenant = text(row.tenant === '' ? 'unknown tenant' : row.tenant);
  const time = millis(row.time) ?? nowMs;
  return defined({
    activity_id: activity.id,
    activity_name: activity.caption,
    category_uid: CATEGORY.uid,
    category_name: CATEGORY.name,
    class_uid: CLASS.uid,
    class_name: CLASS.name,
    type_uid: CLASS.uid * 100 + activity.id,
    type_name: `${CLASS.name}: ${activity.caption}`,
    time,
    severity_id: severity.id,
    severity: severity.caption,
    status_id: status.id,
    status: status.caption,
    status_detail: statusDetail(row),
    message: text(row.title),
    comment: row.waiver ? text(row.waiver.reason) : undefined,
    metadata: {
      version: OCSF_VERSION,
      profiles: ['cloud'],
      product: { name: 'tenant-scan', vendor_name: 'tenant-scan', version: CLIENT_VERSION },
    },
    finding_info: defined({
      uid: text(row.checkId),
      title: text(row.title),
      desc: row.description === null ? undefined : text(row.description),
      types: row.category === null ? undefined : [text(row.category)],
      src_url: webAddress(row.reference),
      first_seen_time: millis(row.failingSince),
      last_seen_time: row.state === 'fixed' ? undefined : time,
    }),
    cloud: { provider: OCSF_PROVIDER, account: { name: tenant, uid: tenant } },
    resources: [{ type: 'Tenant', name: tenant, uid: tenant }],
    remediation:
      row.remediation === null
        ? undefined
        : defined({
            desc: text(row.remediation),
            references: row.reference === null ? undefined : [text(row.reference)],
          }),
    unmapped: unmapped(row),
  });
}

/** The JSON Lines of `rows`: one event per line. */
export function ocsfLines(rows: readonly ExportRow[], nowMs: number): string {
  let out = '';
  for (const row of rows) out += `${JSON.stringify(ocsfFinding(row, nowMs))}\n`;
  return out;
}
