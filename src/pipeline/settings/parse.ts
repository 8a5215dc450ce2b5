// Parsing and validation of the job's settings, shared by both faces. Each face names its inputs
// its own way ("input 'wait'" in the Action, "--wait" in the CLI): every helper takes that label and
// every problem is one line that says what to fix. Nothing here sends a request.

import { isLoopbackHost, toSeverity } from '../../client/index.js';
import { EXAMPLE_API_URL } from '../common/api-address.js';
import { routeAtEnd } from '../common/api-routes.js';
import { SettingProblem } from '../common/settings-problems.js';
import { quoteValue } from '../common/text.js';
import { DEFAULT_SLA_DAYS, MAX_SLA_DAYS, type SlaDays } from '../gate/deadlines.js';
import { DEFAULT_HISTORY, MAX_HISTORY } from '../gate/history.js';
import {
  FAIL_ON_WORDS,
  GATE_SEVERITIES,
  type BaselineSetting,
  type FailOn,
  type GateSeverity,
} from '../gate/judge.js';
import type { ReportPolicy } from './types.js';

export const API_KEY_PREFIX = 'ak_live_';
export const REPORT_POLICIES: readonly ReportPolicy[] = ['none', 'if-ready', 'generate'];
/** Where a report is written unless told otherwise: the same in the Action and the CLI. */
export const DEFAULT_REPORT_PATH = 'tenant-scan-report.pdf';
export const MAX_SCAN_TIMEOUT_MINUTES = 7200;
/** How long a job waits for its scan when not told: the same in the Action and the CLI. */
export const DEFAULT_SCAN_TIMEOUT_MINUTES = 60;
/** The request timeout (each exchange with the service, the report download included). */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 120;
export const MAX_REQUEST_TIMEOUT_SECONDS = 3600;

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0']);

export function parseBoolean(label: string, raw: string | undefined, fallback: boolean): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  if (TRUE_WORDS.has(value)) return true;
  if (FALSE_WORDS.has(value)) return false;
  throw new SettingProblem(`${label} must be true or false, got ${quoteValue(raw ?? '')}`);
}

/** Minutes as milliseconds: a positive number (fractions allowed), at most five days. */
export function parseMinutes(
  label: string,
  raw: string | undefined,
  fallbackMinutes: number,
): number {
  const value = (raw ?? '').trim();
  if (value === '') return fallbackMinutes * 60_000;
  const minutes = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(minutes) || minutes <= 0 || minutes > MAX_SCAN_TIMEOUT_MINUTES) {
    throw new SettingProblem(
      `${label} must be a number of minutes above 0 and at most ${MAX_SCAN_TIMEOUT_MINUTES}, got ${quoteValue(raw ?? '')}`,
    );
  }
  return Math.round(minutes * 60_000);
}

/** Seconds as milliseconds: a positive number (fractions allowed), at most `maxSeconds`. */
export function parseSeconds(
  label: string,
  raw: string | undefined,
  fallbackSeconds: number,
  maxSeconds: number,
): number {
  const value = (raw ?? '').trim();
  if (value === '') return fallbackSeconds * 1000;
  const seconds = /^\d+(\.\d+)?$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > maxSeconds) {
    throw new SettingProblem(
      `${label} must be a number of seconds above 0 and at most ${maxSeconds}, got ${quoteValue(raw ?? '')}`,
    );
  }
  return Math.round(seconds * 1000);
}

export function parseInteger(
  label: string,
  raw: string | undefined,
  fallback: number | undefined,
  range: { min: number; max: number },
): number | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return fallback;
  const parsed = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(parsed) || parsed < range.min || parsed > range.max) {
    throw new SettingProblem(
      `${label} must be a whole number from ${range.min} to ${range.max}, got ${quoteValue(raw ?? '')}`,
    );
  }
  return parsed;
}

/** One of `words` (any case), `fallback` when empty; else one line listing them (and `note`). */
export function parseWord<T extends string>(
  label: string,
  raw: string | undefined,
  words: readonly T[],
  fallback: T,
  note = '',
): T {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return fallback;
  const word = words.find((w) => w === value);
  if (!word) {
    const got = `got ${quoteValue(raw ?? '')}${note ? ` (${note})` : ''}`;
    throw new SettingProblem(`${label} must be one of ${words.join(', ')}, ${got}`);
  }
  return word;
}

export function parseReportPolicy(label: string, raw: string | undefined): ReportPolicy {
  return parseWord(label, raw, REPORT_POLICIES, 'none', 'generate may spend a report credit');
}

/** A severity word (synonyms such as moderate or severe too), compared case-insensitively. */
export function parseSeverityThreshold(label: string, raw: string | undefined): GateSeverity {
  const value = (raw ?? '').trim();
  if (value === '') return 'info';
  const severity = toSeverity(value);
  if (severity === 'unknown') {
    throw new SettingProblem(
      `${label} must be one of ${GATE_SEVERITIES.join(', ')}, got ${quoteValue(value)}`,
    );
  }
  return severity;
}

export function parseFailOn(label: string, raw: string | undefined): FailOn {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '') return 'any';
  const word = FAIL_ON_WORDS.find((w) => w === value);
  if (!word) {
    throw new SettingProblem(
      `${label} must be any, new (needs a baseline) or overdue (needs a history), got ${quoteValue(raw ?? '')}`,
    );
  }
  return word;
}

/** How many previous scans to read for ages and the trend: 0 (none) to MAX_HISTORY. */
export function parseHistory(label: string, raw: string | undefined): number {
  const value = (raw ?? '').trim();
  if (value === '') return DEFAULT_HISTORY;
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n > MAX_HISTORY) {
    throw new SettingProblem(
      `${label} must be a whole number of previous scans from 0 to ${MAX_HISTORY}, got ${quoteValue(value)}`,
    );
  }
  return n;
}

/** "critical=7,high=30,medium=90,low=180": days per severity; the others keep their default. */
export function parseSlaDays(label: string, raw: string | undefined): SlaDays | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  const days: SlaDays = { ...DEFAULT_SLA_DAYS };
  const seen = new Set<string>();
  for (const part of value.split(/[,\s]+/).filter((p) => p !== '')) {
    const match = /^([a-z]+)=(\d+)$/i.exec(part);
    const severity = match ? toSeverity(match[1]) : 'unknown';
    const n = Number(match?.[2]);
    if (!match || severity === 'unknown' || !(n >= 1 && n <= MAX_SLA_DAYS)) {
      throw new SettingProblem(
        `${label} must be severity=days pairs such as critical=7,high=30,medium=90,low=180 (days 1 to ${MAX_SLA_DAYS}), got ${quoteValue(part)}`,
      );
    }
    if (seen.has(severity)) {
      throw new SettingProblem(`${label} gives ${severity} twice: keep one deadline per severity`);
    }
    seen.add(severity);
    days[severity] = n;
  }
  return days;
}

/** none | previous | the path of a results file. */
export function parseBaseline(label: string, raw: string | undefined): BaselineSetting {
  const value = (raw ?? '').trim();
  const word = value.toLowerCase();
  if (word === '' || word === 'none') return { kind: 'none' };
  if (word === 'previous') return { kind: 'previous' };
  return { kind: 'file', path: parsePath(label, value, '') };
}

export function parseScanType(label: string, raw: string | undefined): string {
  const value = (raw ?? '').trim();
  if (value === '') return 'compliance';
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(value)) {
    throw new SettingProblem(
      `${label} must be a scan type such as compliance (letters, digits, - _ .), got ${quoteValue(value)}`,
    );
  }
  return value;
}

/** A list as a user writes it in one value (--expect, a sub-action input): items separated by
 *  commas or new lines, trimmed, each once. */
export function parseList(raw: string): string[] {
  const items = raw
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return [...new Set(items)];
}

/** A tenant's name in roll-ups (a matrix entry's name): one printable line of at most 100
 *  characters; undefined when empty (the service's tenant name is used). */
export function parseTenantLabel(label: string, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  // eslint-disable-next-line no-control-regex
  if (value.length > 100 || /[\u0000-\u001f\u007f-\u009f]/.test(value)) {
    throw new SettingProblem(
      `${label} must be one line of at most 100 printable characters, got ${quoteValue(value)}`,
    );
  }
  return value;
}

/** A scan id goes into a URL path: only safe characters, so it can never climb out of /scans/. */
export function parseScanId(label: string, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(value)) {
    throw new SettingProblem(
      `${label} must be a scan id (letters, digits, - and _), got ${quoteValue(value)}`,
    );
  }
  return value;
}

/** Never echoes the value: it is a secret. `missing`: the face's line for no key at all (the CLI
 *  names the variable to set). */
export function parseApiKey(
  label: string,
  raw: string | undefined,
  missing = `${label} is required: pass the API key from a secret`,
): string {
  const value = (raw ?? '').trim();
  if (value === '') throw new SettingProblem(missing);
  if (/\s/.test(value)) {
    throw new SettingProblem(
      `${label} contains whitespace or a line break: copy the key again without spaces or newlines`,
    );
  }
  if (!value.startsWith(API_KEY_PREFIX) || value.length <= API_KEY_PREFIX.length) {
    throw new SettingProblem(`${label} is not an API key: keys start with ${API_KEY_PREFIX}`);
  }
  return value;
}

/** An https URL (http only to a loopback host), without credentials, query or fragment, that ends
 *  at the API's base path: not in one of its routes (`…/v1/tenants/me`), which every request adds. */
export function parseApiUrl(label: string, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingProblem(
      `${label} is not a URL, got ${quoteValue(value)}: give the API's base address, e.g. ${EXAMPLE_API_URL}`,
    );
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new SettingProblem(`${label} must be an https:// URL, got ${quoteValue(value)}`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    throw new SettingProblem(
      `${label} must use https:// (http:// is allowed only for localhost), got ${quoteValue(value)}`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new SettingProblem(`${label} must not carry a user name or password`);
  }
  if (url.search !== '' || url.hash !== '') {
    throw new SettingProblem(
      `${label} must not carry a query or fragment, got ${quoteValue(value)}`,
    );
  }
  const route = routeAtEnd(url.pathname);
  if (route) {
    throw new SettingProblem(
      `${label} ends in ${route}, a route of the API: it should end at the base path, not a route (for example ${EXAMPLE_API_URL}), got ${quoteValue(value)}`,
    );
  }
  return value.replace(/\/+$/, '');
}

const FORBIDDEN_FILE_NAME = /["*:<>?|\\/\r\n\0]/;

/** A plain file name (an artifact's name, for instance): no directories, no traversal. */
export function parseFileName(label: string, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  if (FORBIDDEN_FILE_NAME.test(value) || value === '.' || value === '..' || value.length > 255) {
    throw new SettingProblem(
      `${label} must be a plain file name without / \\ " : < > | * ? or line breaks, got ${quoteValue(value)}`,
    );
  }
  return value;
}

export function parsePath(label: string, raw: string | undefined, fallback: string): string {
  const value = (raw ?? '').trim();
  const chosen = value === '' ? fallback : value;
  if (/[\r\n\0]/.test(chosen)) {
    throw new SettingProblem(`${label} must not contain line breaks or NUL characters`);
  }
  return chosen;
}

/** An optional file: empty means none. */
export function parseOptionalPath(label: string, raw: string | undefined): string | undefined {
  const value = parsePath(label, raw, '');
  return value === '' ? undefined : value;
}
