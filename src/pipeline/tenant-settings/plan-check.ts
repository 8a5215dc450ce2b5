// Whether a saved plan may be applied now: made from this version of the settings file, of this
// tenant, with the address the webhook's variable holds now, and the tenant's parts its changes
// depend on unchanged since (basis.ts). Then its changes must be the very ones the file asks of the
// tenant as it is — a plan file altered by hand, or made by another version, is refused — and are
// the changes applied. Any refusal is one line, before any write.

import { displayLine } from '../../client/index.js';
import { basisDigests, changedSince, planBasis, valueDigest } from './basis.js';
import type { TenantIdentity } from './document.js';
import type { Change, Desired, Plan, TenantState } from './plan.js';
import { fromSaved, toSaved, type SavedPlan } from './saved-plan.js';

/** A saved plan that is not to be applied now: what changed, and "plan again". */
export class PlanRefused extends Error {
  override name = 'PlanRefused';
}

export interface CurrentView {
  /** The settings file as the user named it. */
  path: string;
  fileSha256: string;
  desired: Desired;
  state: TenantState;
  identity: TenantIdentity;
  /** The plan of the file against the tenant as read now. */
  plan: Plan;
}

/** The saved plan's changes, whole again, when it may be applied now; else PlanRefused. */
export function changesToApply(saved: SavedPlan, now: CurrentView): Change[] {
  checkFileVersion(saved, now.path, now.fileSha256);
  if (saved.tenantId !== now.identity.tenantId) {
    throw new PlanRefused(
      `the plan is of tenant ${shown(saved.tenantId)}, the key is of tenant ${shown(now.identity.tenantId)}: apply it with that tenant's key, or plan again`,
    );
  }
  const since = `since the plan of ${displayLine(saved.createdAt)}; plan again`;
  checkWebhook(saved, now.desired, since);
  const basis = planBasis(now.state, now.desired.file);
  if (basisDigests(basis, saved.salt).digest !== saved.state.digest) {
    const changed = changedSince(saved.state.parts, basis, saved.salt);
    throw new PlanRefused(
      changed.length > 0
        ? `${changed.join('; ')} ${since}`
        : `the plan's state digest does not match its own parts: the plan file was altered; plan again`,
    );
  }
  const file = now.desired.file;
  if (
    !sameChanges(
      saved.changes,
      now.plan.changes.map((c) => toSaved(c, file)),
    )
  ) {
    throw new PlanRefused(
      `the plan's changes are not those ${now.path} asks of the tenant as it was then: the plan file was altered, or made by another version of tenant-scan; plan again`,
    );
  }
  return saved.changes.map((change) => fromSaved(change, now.desired.webhook));
}

/** The plan must be of this version of the settings file: checked before any request too. */
export function checkFileVersion(saved: SavedPlan, path: string, sha256: string): void {
  if (saved.file.sha256 !== sha256) {
    throw new PlanRefused(
      `the plan was made from another version of ${path} (SHA-256 ${saved.file.sha256.slice(0, 12)}… then, ${sha256.slice(0, 12)}… now): plan again with this one`,
    );
  }
}

function shown(id: string | null): string {
  return id === null ? '(not given)' : displayLine(id).slice(0, 100);
}

/** The variable must hold the address the plan was made with (by its digest). */
function checkWebhook(saved: SavedPlan, desired: Desired, since: string): void {
  const named = desired.file.webhook;
  if (!named || typeof desired.webhook !== 'string') return;
  if (saved.webhook?.env !== named.env) {
    throw new PlanRefused(`the plan names no webhook variable ${named.env}: plan again`);
  }
  if (valueDigest(saved.salt, desired.webhook) !== saved.webhook.digest) {
    throw new PlanRefused(`${named.env} holds another webhook address ${since}`);
  }
}

/** The same changes, in any order: the service may list targets in another order. */
function sameChanges(a: unknown[], b: unknown[]): boolean {
  const key = (list: unknown[]) => list.map(canonical).sort().join('\n');
  return a.length === b.length && key(a) === key(b);
}

/** JSON with the keys of every object sorted. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value)
      .filter(([, item]) => item !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, item]) => `${JSON.stringify(k)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
