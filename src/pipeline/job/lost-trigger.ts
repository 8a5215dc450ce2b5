// Finding the scan a trigger may have started when its answer never arrived (a dropped connection,
// a truncated answer, a step killed while waiting for it). The trigger is never sent again (a second
// scan costs quota). Other jobs may share the tenant, so the rule is strict:
// - right before the trigger is sent, the tenant's scans are listed and the ids of those of this
//   type are kept (`existing`): none of them can be the trigger's own;
// - after a lost answer, the scan is the ONE scan of this type that was not listed before and was
//   created between the last answer before the trigger and the scan list, both read on the
//   service's clock (its Date header); anything else finds nothing, and two or more candidates are
//   refused (nothing is taken, nothing cancelled).
// What is left ambiguous: another job's scan created between the answer of that list and the
// arrival of the trigger (one round trip). When the list before the trigger could not be read, the
// time window alone decides (as it did before the list was added).
// Used by the job (lost answer) and by the Action's post step (a main step killed mid-trigger).

import type { Scan, TenantClient } from '../../client/index.js';
import type { ExistingScans, LostTriggerReport, PendingTrigger } from './types.js';

/** Allowance around the window: the Date header has whole seconds, and the service may stamp
 *  createdAt a little before or after it dates its answer. */
export const TRIGGER_CLOCK_SKEW_MS = 2_000;

/** Scans listed before the trigger and created this long before the window opened are not kept
 *  by id but set aside by time (ExistingScans.sinceMs): the window's allowance is seconds, and
 *  minutes also cover a lookup whose list came undated and whose window was moved by the last
 *  clock offset seen. */
export const EXISTING_SCANS_HORIZON_MS = 5 * 60_000;
/** At most this many ids are kept (the state a face saves stays one short line, ~2 KB at most);
 *  older ones are set aside by time instead (see ExistingScans.sinceMs). */
export const MAX_EXISTING_SCAN_IDS = 50;
/** A longer id is not kept (ids are UUIDs; this bounds the saved state); it is set aside by time. */
export const MAX_EXISTING_SCAN_ID_LENGTH = 100;

/** `kind` is the outcome a face keeps as data (LostTriggerOutcome, see lostTriggerReport). */
export type TriggerLookup =
  | { kind: 'found'; scan: Scan }
  | { kind: 'none' }
  | { kind: 'several'; count: number }
  | { kind: 'unreadable'; error: unknown };

/** Called right before the trigger is sent: where the window starts, and which scans of this type
 *  exist already (`listedBefore`: the list read just before; undefined when it could not be read). */
export function openTriggerWindow(
  client: TenantClient,
  scanType: string,
  listedBefore?: readonly Scan[],
  maxIds = MAX_EXISTING_SCAN_IDS,
): PendingTrigger {
  const server = client.serverTime?.();
  const window: PendingTrigger = server
    ? { scanType, windowStartMs: server.serverMs - TRIGGER_CLOCK_SKEW_MS, clock: 'server' }
    : { scanType, windowStartMs: Date.now() - TRIGGER_CLOCK_SKEW_MS, clock: 'local' };
  if (!listedBefore) return window;
  return { ...window, existing: existingScans(listedBefore, window, maxIds) };
}

/** The ids of the listed scans the lookup could otherwise take for the trigger's: of this type (or
 *  untyped), with a readable createdAt (the window rule never admits any other), newest first.
 *  Every such scan created at or after `sinceMs` is kept; older ones are excluded by that bound.
 *  On the service's clock, scans created long before the window are dropped (a short state in a
 *  tenant with a long history); on this machine's clock only the count bounds the list. */
export function existingScans(
  listed: readonly Scan[],
  window: PendingTrigger,
  maxIds = MAX_EXISTING_SCAN_IDS,
): ExistingScans {
  const horizon =
    window.clock === 'server' ? window.windowStartMs - EXISTING_SCANS_HORIZON_MS : undefined;
  const newestFirst = listed
    .filter((scan) => ofType(scan, window.scanType))
    .map((scan) => ({ id: scan.id, created: createdMs(scan) }))
    .filter(({ created }) => !Number.isNaN(created))
    .filter(({ created }) => horizon === undefined || created >= horizon)
    .sort((a, b) => b.created - a.created);
  const ids: string[] = [];
  let sinceMs = horizon;
  for (const { id, created } of newestFirst) {
    if (ids.includes(id)) continue;
    if (ids.length >= maxIds || id.length > MAX_EXISTING_SCAN_ID_LENGTH) {
      // Not kept: it and everything older are set aside by time.
      sinceMs = created + 1;
      break;
    }
    ids.push(id);
  }
  return sinceMs === undefined ? { ids } : { ids, sinceMs };
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
  const candidates = scans.filter(
    (scan) =>
      ofType(scan, pending.scanType) &&
      createdWithin(scan, from, to) &&
      !existedBefore(scan, pending.existing),
  );
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

function ofType(scan: Scan, scanType: string): boolean {
  return scan.scanType === undefined || scan.scanType === scanType;
}

function createdMs(scan: Scan): number {
  return scan.createdAt === undefined ? Number.NaN : Date.parse(scan.createdAt);
}

function createdWithin(scan: Scan, from: number, to: number): boolean {
  const created = createdMs(scan);
  return created >= from && created <= to;
}

/** Listed before the trigger was sent (both createdAt and sinceMs are the service's stamps). */
function existedBefore(scan: Scan, existing: ExistingScans | undefined): boolean {
  if (!existing) return false;
  if (existing.ids.includes(scan.id)) return true;
  return existing.sinceMs !== undefined && createdMs(scan) < existing.sinceMs;
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

/** The lookup's outcome as data (what a face keeps: the Action's `lost-trigger` state). */
export function lostTriggerReport(
  lookup: TriggerLookup,
  pending: PendingTrigger,
): LostTriggerReport {
  return {
    outcome: lookup.kind,
    ...(lookup.kind === 'found' ? { scanId: lookup.scan.id } : {}),
    ...(lookup.kind === 'several' ? { candidates: lookup.count } : {}),
    existingKnown: pending.existing !== undefined,
  };
}

/** State a face saves between steps (one line of JSON), and reads back; undefined if unreadable. */
export function encodePendingTrigger(pending: PendingTrigger): string {
  return JSON.stringify(pending);
}

export function decodePendingTrigger(text: string): PendingTrigger | undefined {
  if (text.trim() === '') return undefined;
  try {
    return pendingTriggerOf(JSON.parse(text));
  } catch {
    return undefined; // unreadable: as if nothing was saved
  }
}

/** A pending trigger from JSON already parsed (a face that keeps it inside a value of its own);
 *  undefined when it is not one. */
export function pendingTriggerOf(parsed: unknown): PendingTrigger | undefined {
  if (typeof parsed !== 'object' || parsed === null) return undefined;
  const value = parsed as Partial<PendingTrigger>;
  if (
    typeof value.scanType !== 'string' ||
    typeof value.windowStartMs !== 'number' ||
    !Number.isFinite(value.windowStartMs) ||
    (value.clock !== 'server' && value.clock !== 'local')
  ) {
    return undefined;
  }
  const pending: PendingTrigger = {
    scanType: value.scanType,
    windowStartMs: value.windowStartMs,
    clock: value.clock,
  };
  const existing = decodeExistingScans(value.existing);
  return existing ? { ...pending, existing } : pending;
}

/** A malformed `existing` is dropped: the window alone then decides, as without the list. */
function decodeExistingScans(value: unknown): ExistingScans | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { ids, sinceMs } = value as { ids?: unknown; sinceMs?: unknown };
  if (!Array.isArray(ids) || ids.length > MAX_EXISTING_SCAN_IDS) return undefined;
  if (!ids.every((id): id is string => typeof id === 'string')) return undefined;
  if (sinceMs === undefined) return { ids };
  if (typeof sinceMs !== 'number' || !Number.isFinite(sinceMs)) return undefined;
  return { ids, sinceMs };
}
