// stall-minutes: how long a scan may stand still before it is stopped (job/stall.ts).

import { quoteValue } from '../common/text.js';
import { SettingProblem } from '../common/settings-problems.js';
import { MAX_SCAN_TIMEOUT_MINUTES } from './parse.js';

/** stall-minutes when not given: off. */
export const DEFAULT_STALL_MINUTES = 0;

/** stall-minutes as milliseconds: 0 (off) or a number of minutes above 0 (fractions allowed), at
 *  most the longest scan timeout. */
export function parseStallMinutes(label: string, raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_STALL_MINUTES;
  const minutes = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(minutes) || minutes < 0 || minutes > MAX_SCAN_TIMEOUT_MINUTES) {
    throw new SettingProblem(
      `${label} must be 0 (off) or a number of minutes up to ${MAX_SCAN_TIMEOUT_MINUTES}, got ${quoteValue(value)}`,
    );
  }
  return Math.round(minutes * 60_000);
}
