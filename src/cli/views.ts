// The stable JSON shapes of the records the seed names (documented in docs/cli.md). Every key is
// always present (null when the server did not send it), so scripts can rely on them. A scan's
// and a finding's are the run record's (src/pipeline/record.ts).

import type {
  ApiKey,
  CreatedApiKey,
  DownloadResult,
  NotificationSettings,
  ReportListItem,
  ReportStatus,
} from '../client/index.js';
import { webhookShown } from '../pipeline/tenant-settings/webhook.js';

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
    // A webhook address carries a signature: never shown in full.
    teamsWebhookUrl: webhookShown(settings.teamsWebhookUrl),
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
