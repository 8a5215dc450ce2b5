// The waivers file: YAML, a mapping whose `waivers` key holds a list of {check, reason, expires,
// owner?}. Read before any request; every problem is one line naming the file, the line and the
// fix. The YAML parser (waivers-yaml.ts) loads only when there is a file to read.

import { readFile, stat } from 'node:fs/promises';
import type { Waiver } from './judge.js';
import { quoteValue } from '../common/text.js';
import { SettingProblem, SettingsError } from '../common/settings-problems.js';

/** Looked for when no waivers file is named (relative to the working directory). */
export const DEFAULT_WAIVERS_FILE = '.tenant-scan/waivers.yml';
/** A waivers file is a short list: anything larger is not one. */
export const MAX_WAIVERS_FILE_BYTES = 1024 * 1024;
/** How far ahead a waiver may expire unless the gate says otherwise (waivers-max-days), and the
 *  most it may say: a waiver is a decision to look at again, not a way to switch a check off. */
export const DEFAULT_WAIVERS_MAX_DAYS = 365;
export const MAX_WAIVERS_MAX_DAYS = 3650;
const DAY_MS = 86_400_000;

/** How many days ahead a waiver may expire: a whole number from 1 to MAX_WAIVERS_MAX_DAYS. */
export function parseWaiversMaxDays(label: string, raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_WAIVERS_MAX_DAYS;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_WAIVERS_MAX_DAYS) {
    throw new SettingProblem(
      `${label} must be a whole number of days from 1 to ${MAX_WAIVERS_MAX_DAYS}, got ${quoteValue(value)}`,
    );
  }
  return n;
}

/** One line per waiver of `path` that expires more than `maxDays` days after today (UTC): named
 *  by its line and check, with the fix. `label` names the setting as the face spells it. */
export function farAheadProblems(
  path: string,
  waivers: readonly Waiver[],
  maxDays = DEFAULT_WAIVERS_MAX_DAYS,
  label = 'waivers-max-days',
  nowMs = Date.now(),
): string[] {
  const latest = new Date(nowMs + maxDays * DAY_MS).toISOString().slice(0, 10);
  return waivers
    .filter((waiver) => waiver.expires > latest)
    .map(
      (waiver) =>
        `${path} line ${waiver.line}: the waiver of check ${quoteValue(waiver.check)} expires ${waiver.expires}, more than ${maxDays} days ahead (${label}): set a date until ${latest} at the latest, and renew it then`,
    );
}

/** The waivers of a file's text (e.g. the base branch's, read from GitHub); throws SettingsError. */
export async function parseWaiversText(path: string, text: string): Promise<Waiver[]> {
  if (Buffer.byteLength(text) > MAX_WAIVERS_FILE_BYTES) {
    throw new SettingsError([`waivers file ${quoteValue(path)} is larger than 1 MiB`]);
  }
  const { parseWaivers } = await import('./waivers-yaml.js');
  return parseWaivers(path, text);
}

/** The waivers of `path`; throws SettingsError listing every problem. */
export async function readWaivers(path: string): Promise<Waiver[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new SettingsError([
      `waivers file ${quoteValue(path)} was not found: give the path of an existing file`,
    ]);
  }
  if (info.size > MAX_WAIVERS_FILE_BYTES) {
    throw new SettingsError([
      `waivers file ${quoteValue(path)} is larger than 1 MiB: it is not a waivers file`,
    ]);
  }
  const { parseWaivers } = await import('./waivers-yaml.js');
  return parseWaivers(path, await readFile(path, 'utf8'));
}
