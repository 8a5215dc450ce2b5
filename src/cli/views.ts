// The stable JSON shapes of the records the seed names (documented in docs/cli.md). Every key is
// always present (null when the server did not send it), so scripts can rely on them.

import type {
  ApiKey,
  CreatedApiKey,
  DownloadResult,
  FindingView,
  NotificationSettings,
  ReportListItem,
  ReportStatus,
  Scan,
} from '../client/types.js';
import type { FindingAge } from '../pipeline/index.js';

export interface ScanJson {
  id: string;
  status: string;
  phase: Scan['phase'];
  terminal: boolean;
  progress: number | null;
  scanType: string | null;
  createdAt: string | null;
  completedAt: string | null;
  summary: {
    total: number | null;
    passed: number | null;
    failed: number | null;
    skipped: number | null;
  } | null;
}

export function scanJson(scan: Scan): ScanJson {
  return {
    id: scan.id,
    status: scan.status,
    phase: scan.phase,
    terminal: scan.terminal,
    progress: scan.progress ?? null,
    scanType: scan.scanType ?? null,
    createdAt: scan.createdAt ?? null,
    completedAt: scan.completedAt ?? null,
    summary: scan.summary
      ? {
          total: scan.summary.total ?? null,
          passed: scan.summary.passed ?? null,
          failed: scan.summary.failed ?? null,
          skipped: scan.summary.skipped ?? null,
        }
      : null,
  };
}

export interface FindingJson {
  id: string;
  checkId: string | null;
  title: string;
  severity: FindingView['severity'];
  category: string | null;
  result: string;
  description: string | null;
  remediation: string | null;
  reference: string | null;
  /** Only with a baseline (--baseline): new or unchanged. */
  baselineState?: 'new' | 'unchanged';
  /** Only when a waiver in force matched it. */
  waiver?: { reason: string; expires: string; owner: string | null };
  /** Only with --history: when its current failing streak began (null: unknown), how many scans
   *  it spans, its deadline (null: unknown) and whether it is overdue. */
  failingSince?: string | null;
  failingScans?: number;
  dueAt?: string | null;
  overdue?: boolean;
}

/** What the gate may add to a finding (src/pipeline/gate.ts). */
type Marked = FindingView & {
  baselineState?: 'new' | 'unchanged';
  waiver?: { reason: string; expires: string; owner?: string };
  age?: FindingAge;
};

export function findingJson(finding: Marked): FindingJson {
  const { baselineState, waiver, age } = finding;
  return {
    id: finding.id,
    checkId: finding.checkId ?? null,
    title: finding.title,
    severity: finding.severity,
    category: finding.category ?? null,
    result: finding.result,
    description: finding.description ?? null,
    remediation: finding.remediation ?? null,
    reference: finding.reference ?? null,
    ...(baselineState ? { baselineState } : {}),
    ...(waiver
      ? { waiver: { reason: waiver.reason, expires: waiver.expires, owner: waiver.owner ?? null } }
      : {}),
    ...(age
      ? {
          failingSince: age.failingSince ?? null,
          failingScans: age.failingScans,
          dueAt: age.dueAt ?? null,
          overdue: age.overdue,
        }
      : {}),
  };
}

export function apiKeyJson(key: ApiKey): Record<string, unknown> {
  return {
    id: key.id,
    name: key.name,
    keyPrefix: key.keyPrefix,
    msTenantId: key.msTenantId ?? null,
    lastUsedAt: key.lastUsedAt ?? null,
    createdAt: key.createdAt,
  };
}

export function createdKeyJson(key: CreatedApiKey): Record<string, unknown> {
  const { lastUsedAt: _unused, ...rest } = apiKeyJson(key);
  return { ...rest, key: key.key };
}

export function notificationsJson(settings: NotificationSettings): NotificationSettings {
  return {
    emailOnComplete: settings.emailOnComplete,
    emailOnFail: settings.emailOnFail,
    teamsWebhookUrl: settings.teamsWebhookUrl ?? null,
    teamsOnComplete: settings.teamsOnComplete,
    teamsOnFail: settings.teamsOnFail,
  };
}

export function reportStatusJson(scanId: string, report: ReportStatus): Record<string, unknown> {
  return {
    scanId,
    status: report.status,
    state: report.state,
    downloadUrl: report.downloadUrl ?? null,
    expiresAt: report.expiresAt ?? null,
  };
}

/** The server's item as sent, with the three named fields always present. */
export function reportItemJson(item: ReportListItem): Record<string, unknown> {
  return {
    ...item,
    scanId: item.scanId ?? null,
    status: item.status ?? null,
    generatedAt: item.generatedAt ?? null,
  };
}

export function downloadJson(scanId: string, result: DownloadResult): Record<string, unknown> {
  return { scanId, ...result };
}
