// Makes the tenant match the plan: one PATCH of only the notification fields that differ, then the
// target writes in order. Never creates or deletes keys. Each change ends as done, refused (403:
// only the dashboard may do it), failed, or unknown (sent, answer lost); after a failure that
// says the service or the network is down, the rest are not attempted and say so.

import {
  NetworkError,
  PermissionError,
  ServerError,
  ServiceUnavailableError,
  TenantApiError,
  ValidationError,
  NotFoundError,
  displayLine,
} from '../../client/index.js';
import type { NotificationSettings, TenantClient } from '../../client/index.js';
import { redact } from '../common/errors.js';
import type { Change } from './plan.js';
import { webhookShown } from './webhook.js';

export type Outcome = 'done' | 'refused' | 'failed' | 'unknown' | 'not-attempted';

export interface Applied {
  /** What the change does, webhook by host only. */
  change: string;
  outcome: Outcome;
  /** Why, for anything but done. */
  detail?: string;
}

export async function applyChanges(
  client: TenantClient,
  changes: Change[],
  options: { signal?: AbortSignal; secrets: string[] },
): Promise<Applied[]> {
  const results: Applied[] = [];
  let stopped: string | undefined;
  for (const change of changes) {
    const name = describeChange(change);
    if (stopped) {
      results.push({ change: name, outcome: 'not-attempted', detail: stopped });
      continue;
    }
    try {
      await perform(client, change, options.signal);
      results.push({ change: name, outcome: 'done' });
    } catch (error) {
      const result = judge(name, change, error, options.secrets);
      results.push(result);
      if (!isLocal(error)) stopped = `not attempted after the failure of: ${name}`;
    }
  }
  return results;
}

async function perform(client: TenantClient, change: Change, signal?: AbortSignal): Promise<void> {
  const o = { signal };
  const surface = client.attackSurface;
  switch (change.kind) {
    case 'notifications':
      await client.notifications.update(change.patch, o);
      return;
    case 'relabel-target':
      await surface.updateTarget(change.id, { label: change.label }, o);
      return;
    case 'verify-target':
      await surface.verifyTarget(change.id, o);
      return;
    case 'remove-target':
      await surface.removeTarget(change.id, o);
      return;
    case 'add-target': {
      const made = await surface.addTarget(change.target.host, o);
      const { label, verify } = change.target;
      if (label === undefined && !verify) return;
      // The target exists from here on: a failure after this says so.
      try {
        const id = typeof made.id === 'string' ? made.id : '';
        if (id === '') throw new Error('the service gave no id');
        if (label !== undefined && made.label !== label)
          await surface.updateTarget(id, { label }, o);
        if (verify && made.verified !== true) await surface.verifyTarget(id, o);
      } catch (error) {
        throw new AddedButNot(error);
      }
      return;
    }
  }
}

/** An add-target whose POST was done and whose label or verification then failed. */
class AddedButNot extends Error {
  constructor(readonly inner: unknown) {
    super(inner instanceof Error ? inner.message : String(inner));
  }
}

/** A failure of this one change (the request was understood and refused): the rest may go on. */
function isLocal(error: unknown): boolean {
  if (error instanceof AddedButNot) return isLocal(error.inner);
  return (
    error instanceof PermissionError ||
    error instanceof ValidationError ||
    error instanceof NotFoundError ||
    (error instanceof TenantApiError && /^(TARGET_EXISTS|CONFLICT)$/.test(error.code)) ||
    !(error instanceof TenantApiError)
  );
}

function judge(name: string, change: Change, error: unknown, secrets: string[]): Applied {
  if (error instanceof AddedButNot) {
    const rest = judge(name, change, error.inner, secrets);
    const detail = `the target was added, but setting its label or verifying it did not end: ${rest.detail ?? rest.outcome}`;
    return { change: name, outcome: rest.outcome, detail: detail.slice(0, 400) };
  }
  const said = displayLine(redact(error instanceof Error ? error.message : String(error), secrets));
  if (error instanceof PermissionError) {
    return { change: name, outcome: 'refused', detail: refusedLine(change, error.code) };
  }
  // A 5xx proves nothing: the service may have acted before it failed, as after a lost answer.
  // Only a 503 that says the service is starting proves it did not.
  if (
    (error instanceof NetworkError && error.mayHaveBeenProcessed) ||
    error instanceof ServerError ||
    (error instanceof ServiceUnavailableError && error.code !== 'SERVICE_STARTING')
  ) {
    return {
      change: name,
      outcome: 'unknown',
      detail: `${error instanceof NetworkError ? 'the answer was lost' : 'the service failed'}, it may have been applied: ${said}; run apply again`,
    };
  }
  return { change: name, outcome: 'failed', detail: said.slice(0, 300) };
}

function refusedLine(change: Change, code: string): string {
  const what =
    change.kind === 'notifications'
      ? `set ${Object.keys(change.patch).join(', ')} in the dashboard (Settings, Notifications)`
      : 'change the target in the dashboard (Attack surface)';
  return `the service does not let an API key make this change (${code}): ${what}`;
}

export function describeChange(change: Change): string {
  switch (change.kind) {
    case 'notifications':
      return `notifications: ${describePatch(change.patch)}`;
    case 'add-target': {
      const { host, label, verify } = change.target;
      const extra = [
        label !== undefined ? `label ${JSON.stringify(label)}` : '',
        verify ? 'verify' : '',
      ]
        .filter(Boolean)
        .join(', ');
      return `add target ${host}${extra ? ` (${extra})` : ''}`;
    }
    case 'relabel-target':
      return `relabel target ${displayLine(change.host)} to ${JSON.stringify(change.label)}`;
    case 'verify-target':
      return `verify target ${displayLine(change.host)}`;
    case 'remove-target':
      return `remove target ${displayLine(change.host)}`;
  }
}

function describePatch(patch: Partial<NotificationSettings>): string {
  return Object.entries(patch)
    .map(([field, value]) =>
      field === 'teamsWebhookUrl'
        ? `${field} → ${webhookShown(value as string | null) ?? 'null'}`
        : `${field} → ${String(value)}`,
    )
    .join(', ');
}
