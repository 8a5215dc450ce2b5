// The basis of a plan: the parts of the tenant as read that its changes depend on, and their
// digests. A saved plan keeps the digests (never the values: a webhook address is a secret); an
// apply of it reads the tenant again and applies nothing if any part differs, naming which.
// Parts the changes do not depend on (keys, scans, a flag or a target the file does not manage, the
// label of a target whose label the file does not set) are not in the basis: their changing since
// the plan does not make it stale. Digests are HMAC-SHA256 keyed with the plan's random salt.

import { createHmac } from 'node:crypto';
import { displayLine } from '../../client/index.js';
import { NOTIFICATION_FLAGS, type TenantFile } from './file.js';
import type { TenantState } from './plan.js';

export type BasisValue = string | boolean | null;

/** Part name → value. Names: `notifications:<field>`, `target:<field>:<host>` (present, id,
 *  label, verified) for a listed host, `unlisted:<host>` (its ids) for a target prune removes. */
export type Basis = Map<string, BasisValue>;

export function planBasis(state: TenantState, file: TenantFile): Basis {
  const basis: Basis = new Map();
  const n = state.notifications;
  for (const flag of NOTIFICATION_FLAGS) {
    if (file.flags[flag] !== undefined) basis.set(`notifications:${flag}`, n[flag] ?? null);
  }
  if (file.webhook !== undefined) {
    basis.set('notifications:teamsWebhookUrl', n.teamsWebhookUrl ?? null);
  }
  if (!file.targets) return basis;
  // As the plan finds them: by host, the last of a host the service lists twice.
  const byHost = new Map(state.targets.map((t) => [t.host.toLowerCase(), t]));
  for (const want of file.targets.list) {
    const have = byHost.get(want.host);
    basis.set(`target:present:${want.host}`, have !== undefined);
    if (!have) continue;
    if (want.label !== undefined || want.verify) basis.set(`target:id:${want.host}`, have.id);
    if (want.label !== undefined) basis.set(`target:label:${want.host}`, have.label);
    if (want.verify) basis.set(`target:verified:${want.host}`, have.verified ?? null);
  }
  if (file.targets.prune) {
    const listed = new Set(file.targets.list.map((t) => t.host));
    const ids = new Map<string, string[]>();
    for (const have of state.targets) {
      const host = have.host.toLowerCase();
      if (!listed.has(host)) ids.set(host, [...(ids.get(host) ?? []), have.id]);
    }
    for (const [host, list] of ids) basis.set(`unlisted:${host}`, JSON.stringify(list.sort()));
  }
  return basis;
}

function hmac(salt: string, text: string): string {
  return createHmac('sha256', Buffer.from(salt, 'base64url')).update(text, 'utf8').digest('hex');
}

/** The digest of one value (a webhook address, a part): keyed with the plan's salt. */
export function valueDigest(salt: string, value: BasisValue): string {
  return hmac(salt, JSON.stringify(value));
}

/** Each part's digest, and one digest of them all. */
export function basisDigests(
  basis: Basis,
  salt: string,
): { digest: string; parts: Record<string, string> } {
  const parts: Record<string, string> = {};
  for (const name of [...basis.keys()].sort()) {
    parts[name] = hmac(salt, JSON.stringify([name, basis.get(name) ?? null]));
  }
  return { digest: partsDigest(parts, salt), parts };
}

export function partsDigest(parts: Record<string, string>, salt: string): string {
  const names = Object.keys(parts).sort();
  return hmac(salt, JSON.stringify(names.map((name) => [name, parts[name]])));
}

/** What changed in the tenant since the plan: one phrase per part, grouped by area
 *  (`targets: a.example.com appeared, b.example.com label changed`). */
export function changedSince(saved: Record<string, string>, now: Basis, salt: string): string[] {
  const current = basisDigests(now, salt).parts;
  const names = [...new Set([...Object.keys(saved), ...Object.keys(current)])].sort();
  const changed = names.filter((name) => saved[name] !== current[name]);
  // A target that appeared or went: that alone, not its id, label and state too.
  const presence = new Set(
    changed.filter((name) => name.startsWith('target:present:')).map(hostOfPart),
  );
  const notes = { notifications: [] as string[], targets: [] as string[] };
  for (const name of changed) {
    if (name.startsWith('target:') && !name.startsWith('target:present:')) {
      if (presence.has(hostOfPart(name))) continue;
    }
    const phrase = describePart(name, now.get(name), name in saved, name in current);
    notes[name.startsWith('notifications:') ? 'notifications' : 'targets'].push(phrase);
  }
  return Object.entries(notes)
    .filter(([, phrases]) => phrases.length > 0)
    .map(([area, phrases]) => `${area}: ${atMost(phrases, MAX_NAMED)}`);
}

/** The host a `target:<field>:<host>` or `unlisted:<host>` part is of. */
function hostOfPart(name: string): string {
  return name.startsWith('unlisted:')
    ? name.slice('unlisted:'.length)
    : name.split(':').slice(2).join(':');
}

/** How many changes of an area one line names; the rest are counted. */
const MAX_NAMED = 5;

function atMost(phrases: string[], max: number): string {
  const named = phrases.slice(0, max).join(', ');
  return phrases.length > max ? `${named} and ${phrases.length - max} more` : named;
}

function describePart(
  name: string,
  value: BasisValue | undefined,
  wasThere: boolean,
  isThere: boolean,
): string {
  const [kind = '', field = ''] = name.split(':');
  if (kind === 'notifications') return `${field} changed`;
  const host = displayLine(hostOfPart(name));
  if (kind === 'unlisted') {
    if (!wasThere) return `${host} appeared`;
    if (!isThere) return `${host} disappeared`;
    return `${host} was removed and added again`;
  }
  if (field === 'present') return value === true ? `${host} appeared` : `${host} disappeared`;
  if (field === 'id') return `${host} was removed and added again`;
  if (field === 'verified') return `${host} verification changed`;
  return `${host} ${field} changed`;
}
