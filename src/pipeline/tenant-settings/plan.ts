// The plan: the tenant as read against the file — drift (what differs, field by field) and
// hygiene problems (each with a stable code). Pure: the reads are done by the caller (read.ts).
// A webhook address appears in drift and problems by its host only: it carries a signature.

import { displayLine } from '../../client/index.js';
import type { ApiKey, NotificationSettings, Scan } from '../../client/index.js';
import {
  NOTIFICATION_FLAGS,
  type DesiredTarget,
  type HygieneRules,
  type TenantFile,
} from './file.js';
import { shownServiceText } from './secret-values.js';
import { isKnownChatWebhook, isRetiredWebhook, webhookShown } from './webhook.js';

export const MAX_KEYS = 10;
const DAY_MS = 86_400_000;

export type ProblemCode =
  | 'key-unused'
  | 'key-old'
  | 'keys-near-cap'
  | 'failures-notify-nobody'
  | 'webhook-missing'
  | 'webhook-retired'
  | 'webhook-unknown-host'
  | 'scan-stale'
  | 'target-unverified';

export interface Problem {
  code: ProblemCode;
  subject: string;
  detail: string;
}

export type Scalar = string | boolean | number | null;

export interface Drift {
  area: 'notifications' | 'targets';
  field: string;
  current: Scalar;
  desired: Scalar;
}

/** A target as read from the service (its fields are not in the seed: read tolerantly). */
export interface CurrentTarget {
  id: string;
  host: string;
  label: string | null;
  /** undefined: the service did not say. */
  verified?: boolean;
}

export interface TenantState {
  notifications: NotificationSettings;
  keys: ApiKey[];
  targets: CurrentTarget[];
  scans: Scan[];
}

/** What the file asks for, with the webhook address read from its variable. */
export interface Desired {
  file: TenantFile;
  webhook?: string | null;
}

/** One write that makes the tenant match. Holds the full webhook address: never print it. */
export type Change =
  | { kind: 'notifications'; patch: Partial<NotificationSettings> }
  | { kind: 'add-target'; target: DesiredTarget }
  | { kind: 'relabel-target'; id: string; host: string; label: string }
  | { kind: 'verify-target'; id: string; host: string }
  | { kind: 'remove-target'; id: string; host: string };

export interface Plan {
  drift: Drift[];
  problems: Problem[];
  changes: Change[];
}

export function planTenant(state: TenantState, desired: Desired, nowMs: number): Plan {
  const notifications = notificationChanges(state.notifications, desired);
  const targets = targetChanges(state.targets, desired.file);
  return {
    drift: [...notifications.drift, ...targets.drift],
    changes: [...(notifications.change ? [notifications.change] : []), ...targets.changes],
    problems: hygiene(state, desired.file.hygiene, nowMs),
  };
}

function notificationChanges(current: NotificationSettings, desired: Desired) {
  const patch: Partial<NotificationSettings> = {};
  const drift: Drift[] = [];
  for (const flag of NOTIFICATION_FLAGS) {
    const want = desired.file.flags[flag];
    if (want === undefined || want === current[flag]) continue;
    patch[flag] = want;
    drift.push({ area: 'notifications', field: flag, current: current[flag], desired: want });
  }
  if (desired.webhook !== undefined && desired.webhook !== current.teamsWebhookUrl) {
    patch.teamsWebhookUrl = desired.webhook;
    drift.push({
      area: 'notifications',
      field: 'teamsWebhookUrl',
      current: webhookShown(current.teamsWebhookUrl),
      desired: webhookShown(desired.webhook),
    });
  }
  const change = drift.length > 0 ? ({ kind: 'notifications', patch } as const) : undefined;
  return { drift, change };
}

function targetChanges(current: CurrentTarget[], file: TenantFile) {
  const drift: Drift[] = [];
  const changes: Change[] = [];
  if (!file.targets) return { drift, changes };
  const byHost = new Map(current.map((t) => [t.host.toLowerCase(), t]));
  const field = (host: string, what?: string) => displayLine(what ? `${host} ${what}` : host);
  for (const want of file.targets.list) {
    const have = byHost.get(want.host);
    if (!have) {
      changes.push({ kind: 'add-target', target: want });
      drift.push({
        area: 'targets',
        field: field(want.host),
        current: 'absent',
        desired: 'present',
      });
      continue;
    }
    if (want.label !== undefined && want.label !== have.label) {
      changes.push({ kind: 'relabel-target', id: have.id, host: have.host, label: want.label });
      drift.push({
        area: 'targets',
        field: field(want.host, 'label'),
        current: have.label === null ? null : shownServiceText(have.label),
        desired: want.label,
      });
    }
    if (want.verify && have.verified === false) {
      changes.push({ kind: 'verify-target', id: have.id, host: have.host });
      drift.push({
        area: 'targets',
        field: field(want.host, 'verified'),
        current: false,
        desired: true,
      });
    }
  }
  if (file.targets.prune) {
    const listed = new Set(file.targets.list.map((t) => t.host));
    for (const have of current.filter((t) => !listed.has(t.host.toLowerCase()))) {
      changes.push({ kind: 'remove-target', id: have.id, host: have.host });
      drift.push({
        area: 'targets',
        field: field(have.host),
        current: 'present',
        desired: 'absent',
      });
    }
  }
  return { drift, changes };
}

function hygiene(state: TenantState, rules: HygieneRules, nowMs: number): Problem[] {
  return [
    ...keyProblems(state.keys, rules, nowMs),
    ...notificationProblems(state.notifications),
    ...staleScans(state.scans, rules, nowMs),
    ...state.targets
      .filter((t) => t.verified === false)
      .map((t) => ({
        code: 'target-unverified' as const,
        subject: displayLine(t.host),
        detail:
          'not verified: attack-surface scans skip it until its verification record is in place',
      })),
  ];
}

function daysSince(iso: string | null | undefined, nowMs: number): number | undefined {
  const at = iso ? Date.parse(iso) : NaN;
  return Number.isFinite(at) ? Math.floor((nowMs - at) / DAY_MS) : undefined;
}

function keyName(key: ApiKey): string {
  return displayLine(`${key.name || key.id} (${key.keyPrefix})`).slice(0, 200);
}

function keyProblems(keys: ApiKey[], rules: HygieneRules, nowMs: number): Problem[] {
  const problems: Problem[] = [];
  for (const key of keys) {
    const age = daysSince(key.createdAt, nowMs);
    const idle = daysSince(key.lastUsedAt, nowMs);
    const unused = rules.keyUnusedDays;
    if (unused !== undefined && idle !== undefined && idle > unused) {
      problems.push({
        code: 'key-unused',
        subject: keyName(key),
        detail: `last used ${idle} days ago (rule: ${unused} days)`,
      });
    } else if (unused !== undefined && !key.lastUsedAt && age !== undefined && age > unused) {
      problems.push({
        code: 'key-unused',
        subject: keyName(key),
        detail: `never used, created ${age} days ago (rule: ${unused} days)`,
      });
    }
    const maxAge = rules.keyMaxAgeDays;
    if (maxAge !== undefined && age !== undefined && age > maxAge) {
      problems.push({
        code: 'key-old',
        subject: keyName(key),
        detail: `created ${age} days ago (rule: ${maxAge} days): rotate it`,
      });
    }
  }
  const cap = rules.keysNearCap;
  if (cap !== undefined && keys.length >= cap) {
    problems.push({
      code: 'keys-near-cap',
      subject: 'API keys',
      detail: `${keys.length} of ${MAX_KEYS} keys exist (rule: ${cap}): delete unused keys before a new one is refused`,
    });
  }
  return problems;
}

function notificationProblems(n: NotificationSettings): Problem[] {
  const problems: Problem[] = [];
  const posts = n.teamsOnFail || n.teamsOnComplete;
  if (!n.emailOnFail && !(n.teamsOnFail && n.teamsWebhookUrl)) {
    problems.push({
      code: 'failures-notify-nobody',
      subject: 'notifications',
      detail:
        'a failed scan sends no email and posts to no channel: set emailOnFail, or teamsOnFail with a webhook',
    });
  }
  if (posts && !n.teamsWebhookUrl) {
    problems.push({
      code: 'webhook-missing',
      subject: 'notifications.teamsWebhookUrl',
      detail: 'team-chat posts are on but no webhook address is set',
    });
  }
  if (n.teamsWebhookUrl && isRetiredWebhook(n.teamsWebhookUrl)) {
    problems.push({
      code: 'webhook-retired',
      subject: `notifications.teamsWebhookUrl (${webhookShown(n.teamsWebhookUrl)})`,
      detail:
        'an Office 365 connector address: Microsoft retired them, posts go nowhere; create a Workflows webhook and set its address',
    });
  } else if (n.teamsWebhookUrl && !isKnownChatWebhook(n.teamsWebhookUrl)) {
    problems.push({
      code: 'webhook-unknown-host',
      subject: `notifications.teamsWebhookUrl (${webhookShown(n.teamsWebhookUrl)})`,
      detail:
        'neither a Teams Workflows (Power Automate) nor a Slack webhook host: make sure the service should post scan events there',
    });
  }
  return problems;
}

function staleScans(scans: Scan[], rules: HygieneRules, nowMs: number): Problem[] {
  const limit = rules.scanStaleDays;
  if (limit === undefined) return [];
  const newest = new Map<string, number>();
  for (const scan of scans) {
    if (scan.phase !== 'succeeded' || !scan.knownStatus) continue;
    const at = Date.parse(scan.completedAt ?? scan.createdAt ?? '');
    if (!Number.isFinite(at)) continue;
    const type = displayLine(scan.scanType ?? 'scan').slice(0, 100);
    newest.set(type, Math.max(newest.get(type) ?? -Infinity, at));
  }
  const problems: Problem[] = [];
  for (const [type, at] of [...newest].sort(([a], [b]) => a.localeCompare(b))) {
    const days = Math.floor((nowMs - at) / DAY_MS);
    if (days > limit) {
      problems.push({
        code: 'scan-stale',
        subject: `${type} scans`,
        detail: `the last completed ${type} scan was ${days} days ago (rule: ${limit} days): is the schedule still running?`,
      });
    }
  }
  return problems;
}
