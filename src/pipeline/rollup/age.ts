// How old a roll-up's evidence may be (`--max-age`, input `max-age`): a record or plan older than
// the limit, on the roll-up's own clock, is stale — it says nothing of how the tenant stands now,
// however it passed then. A time that is not one (an ISO 8601 time with its zone), or one ahead of
// the clock by more than the skew a runner's clock may have, cannot be trusted: the file is
// unreadable. Pure.

import { plural } from '../common/text.js';
import { formatDuration, UNIT_MS } from '../settings/duration.js';
import { parseTimestamp } from '../common/timestamp.js';

/** How far ahead of the roll-up's clock a time may be before it is not believed. */
export const CLOCK_SKEW_MS = 5 * 60_000;

/** The limit and the clock it is measured against. */
export interface AgeRule {
  maxAgeMs: number;
  nowMs: number;
}

export type AgeJudgement =
  { kind: 'fresh' } | { kind: 'stale'; why: string } | { kind: 'unreadable'; why: string };

/**
 * Judges the time a file carries (`what` names it, e.g. `record`, and `field` the time's key)
 * against the rule: fresh when at most maxAgeMs old.
 */
export function judgeAge(
  time: string | null,
  rule: AgeRule,
  what: string,
  field: string,
): AgeJudgement {
  const limit = `max-age ${formatDuration(rule.maxAgeMs)}`;
  if (time === null) return { kind: 'stale', why: `no time in the ${what} (${limit})` };
  const at = parseTimestamp(time);
  if (at === undefined) {
    return {
      kind: 'unreadable',
      why: `its ${field} ${JSON.stringify(time.slice(0, 40))} is not a time with its zone`,
    };
  }
  const age = rule.nowMs - at;
  if (age < -CLOCK_SKEW_MS) {
    return {
      kind: 'unreadable',
      why: `its ${field} (${time.slice(0, 40)}) is ${ageWords(-age, CLOCK_SKEW_MS)} in the future: a clock is wrong`,
    };
  }
  if (age <= rule.maxAgeMs) return { kind: 'fresh' };
  return { kind: 'stale', why: `${what} is ${ageWords(age, rule.maxAgeMs)} old (${limit})` };
}

const UNITS = [
  ['day', UNIT_MS.d],
  ['hour', UNIT_MS.h],
] as const;

/** An age in words, rounded down, in the largest unit that still shows it is past `beyondMs`:
 *  3 days (past 36h), 53 hours (past 2d), 12 minutes. Minutes that, rounded down, would not show
 *  it past `beyondMs` say "more than": 5m30s past 5m is "more than 5 minutes", never "5 minutes",
 *  which the rule it is judged by allows. */
export function ageWords(ms: number, beyondMs = 0): string {
  for (const [unit, size] of UNITS) {
    const count = Math.floor(ms / size);
    if (count >= 2 && count * size > beyondMs) return plural(count, unit);
  }
  const minutes = Math.floor(ms / UNIT_MS.m);
  const words = plural(minutes, 'minute');
  return beyondMs > 0 && minutes * UNIT_MS.m <= beyondMs ? `more than ${words}` : words;
}
