// Finding the scan a trigger may have started when its answer never arrived (a dropped connection,
// a truncated answer, a step killed while waiting for it). The trigger is never sent again (a second
// scan costs quota). Other jobs may share the tenant, so the rule is strict: the scan is the ONE scan
// of this type created between the last answer before the trigger and the scan list, both read on
// the service's clock (its Date header); anything else finds nothing.
// Used by the job (lost answer) and by the Action's post step (a main step killed mid-trigger).

import type { Scan, TenantClient } from '../client/types.js';
import type { PendingTrigger } from './types.js';

/** Allowance around the window: the Date header has whole seconds, and the service may stamp
 *  createdAt a little before or after it dates its answer. */
export const TRIGGER_CLOCK_SKEW_MS = 2_000;

export type TriggerLookup =
  | { kind: 'found'; scan: Scan }
  | { kind: 'none' }
  | { kind: 'several'; count: number }
  | { kind: 'unreadable'; error: unknown };

/** Called right before the trigger is sent: where the window starts. */
export function openTriggerWindow(client: TenantClient, scanType: string): PendingTrigger {
  const server = client.serverTime?.();
  return server
    ? { scanType, windowStartMs: server.serverMs - TRIGGER_CLOCK_SKEW_MS, clock: 'server' }
    : { scanType, windowStartMs: Date.now() - TRIGGER_CLOCK_SKEW_MS, clock: 'local' };
}

/** Lists the scans and applies the rule. Never throws: an unreadable list is a result. */
export async function findTriggeredScan(
  client: TenantClient,
  pending: PendingTrigger,
  signal?: AbortSignal,
): Promise<TriggerLookup> {
  const listedAtLocal = Date.now();
  let scans: Scan[];
  try {
    scans = await client.scans.list({ signal });
  } catch (error) {
    return { kind: 'unreadable', error };
  }
  const { from, to } = windowOf(pending, client, listedAtLocal);
  const candidates = scans.filter((scan) => createdWithin(scan, pending.scanType, from, to));
  if (candidates.length === 1 && candidates[0]) return { kind: 'found', scan: candidates[0] };
  return candidates.length === 0 ? { kind: 'none' } : { kind: 'several', count: candidates.length };
}

/** The window's end is the Date of the list's own answer: both ends on the service's clock. Without
 *  Dates this machine's clock is used (sound only while the clocks agree within the allowance). */
function windowOf(
  pending: PendingTrigger,
  client: TenantClient,
  listedAtLocal: number,
): { from: number; to: number } {
  const listed = client.serverTime?.();
  const to = Date.now() + TRIGGER_CLOCK_SKEW_MS;
  if (pending.clock === 'local') return { from: pending.windowStartMs, to };
  if (listed !== undefined && listed.observedAtLocalMs >= listedAtLocal) {
    return { from: pending.windowStartMs, to: listed.serverMs + TRIGGER_CLOCK_SKEW_MS };
  }
  // The start is on the service's clock but the list came undated: move the start to this
  // machine's clock by the last offset seen.
  const offset = listed ? listed.observedAtLocalMs - listed.serverMs : 0;
  return { from: pending.windowStartMs + offset, to };
}

function createdWithin(scan: Scan, scanType: string, from: number, to: number): boolean {
  if (scan.scanType !== undefined && scan.scanType !== scanType) return false;
  const created = scan.createdAt === undefined ? Number.NaN : Date.parse(scan.createdAt);
  return created >= from && created <= to;
}

/** What the lookup found, in words for a message ("no compliance scan created since …"). */
export function describeLookup(lookup: TriggerLookup, scanType: string): string {
  switch (lookup.kind) {
    case 'found':
      return `scan ${lookup.scan.id} is the only ${scanType} scan created since the trigger was sent`;
    case 'none':
      return `no ${scanType} scan created since the trigger was sent was found`;
    case 'several':
      return `${lookup.count} ${scanType} scans were created since the trigger was sent, by this job or others`;
    case 'unreadable':
      return 'the scan list could not be read';
  }
}

/** State a face saves between steps (one line of JSON), and reads back; undefined if unreadable. */
export function encodePendingTrigger(pending: PendingTrigger): string {
  return JSON.stringify(pending);
}

export function decodePendingTrigger(text: string): PendingTrigger | undefined {
  if (text.trim() === '') return undefined;
  try {
    const value = JSON.parse(text) as Partial<PendingTrigger> | null;
    if (
      value !== null &&
      typeof value.scanType === 'string' &&
      typeof value.windowStartMs === 'number' &&
      Number.isFinite(value.windowStartMs) &&
      (value.clock === 'server' || value.clock === 'local')
    ) {
      return { scanType: value.scanType, windowStartMs: value.windowStartMs, clock: value.clock };
    }
  } catch {
    // unreadable: as if nothing was saved
  }
  return undefined;
}
