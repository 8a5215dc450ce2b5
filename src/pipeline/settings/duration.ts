// A duration setting (`--max-age 36h`, input `max-age: 7d`): a whole number and one unit —
// m (minutes), h (hours) or d (days). Nothing fancier: "1.5d", "1d12h" or "36 hours" are refused
// with one line that shows the form, so a typo cannot silently mean another length.

import { SettingProblem } from '../common/settings-problems.js';
import { quoteValue } from '../common/text.js';

/** Each unit a duration setting takes, in milliseconds. */
export const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The longest duration a setting takes: a year. */
export const MAX_DURATION_DAYS = 366;

/** The duration as milliseconds; undefined when the value is empty (the setting is off). */
export function parseDuration(label: string, raw: string | undefined): number | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  const match = /^(\d{1,6})([mhd])$/.exec(value);
  const ms = match ? Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS] : Number.NaN;
  if (!(ms > 0 && ms <= MAX_DURATION_DAYS * UNIT_MS.d)) {
    throw new SettingProblem(
      `${label} must be a duration such as 90m, 36h or 7d (a whole number of minutes, hours or days, above 0 and at most ${MAX_DURATION_DAYS}d), got ${quoteValue(raw ?? '')}`,
    );
  }
  return ms;
}

/** A duration as parseDuration reads it, in its largest whole unit: 36h, 7d, 90m. */
export function formatDuration(ms: number): string {
  if (ms % UNIT_MS.d === 0) return `${ms / UNIT_MS.d}d`;
  if (ms % UNIT_MS.h === 0) return `${ms / UNIT_MS.h}h`;
  return `${Math.round(ms / UNIT_MS.m)}m`;
}
