// The rotation's settings that both faces read: the grace and the lineage, checked into one line
// each (a SettingProblem) before anything is sent.

import { SettingProblem } from '../common/settings-problems.js';
import { parseInteger } from '../settings/parse.js';

export const DEFAULT_GRACE_HOURS = 24;
/** A year: a longer grace would keep replaced keys (and the cap's slots) for no reason. */
export const MAX_GRACE_HOURS = 8760;
const HOUR_MS = 3_600_000;

export function parseGraceMs(label: string, raw: string | undefined): number {
  const hours = parseInteger(label, raw, DEFAULT_GRACE_HOURS, { min: 0, max: MAX_GRACE_HOURS });
  return (hours ?? DEFAULT_GRACE_HOURS) * HOUR_MS;
}

/** A lineage names the place the key is stored: one printable line. */
export function parseLineage(label: string, raw: string): string {
  const value = raw.trim();
  if (value === '' || value.length > 200 || /[\p{Cc}\p{Cf}]/u.test(value)) {
    throw new SettingProblem(
      `${label} must be 1 to 200 printable characters naming where the key is stored, e.g. gitlab:group/project/TENANT_SCAN_API_KEY`,
    );
  }
  return value;
}
