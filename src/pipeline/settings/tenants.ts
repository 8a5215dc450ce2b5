// The list of tenants one run follows at once, in the reusable workflow's form:
// [{"name": …, "api-url": …, "secret": …}]. `secret` names where the tenant's key is (an
// environment variable for the CLI, a secret for the workflow): a key itself never sits in the list.

import { readFile, stat } from 'node:fs/promises';
import { SettingProblem, SettingsProblems } from '../common/settings-problems.js';
import { quoteValue } from '../common/text.js';
import { API_KEY_PREFIX, parseApiUrl } from './parse.js';

export interface TenantEntry {
  /** The tenant's name in progress lines, its record's file name and the roll-up. */
  name: string;
  /** Undefined: the run's default address (SERVICE_API_URL). */
  apiUrl?: string;
  /** The name of the variable that holds the tenant's API key. */
  secret: string;
  /** The secret that variable was filled from, when it is not the variable's own name (the
   *  reusable workflow passes each key under its place in the chunk): named in a missing key's line. */
  secretName?: string;
}

/** A list longer than this is a mistake (a fleet of thousands is cut into jobs first). */
export const MAX_TENANTS = 5_000;
/** How many tenants one run follows at once unless told. */
export const DEFAULT_TENANT_CONCURRENCY = 50;
export const MAX_TENANT_CONCURRENCY = 500;

/** 5,000 entries of a few hundred bytes each, with room to spare. */
export const MAX_TENANT_LIST_BYTES = 4 * 1024 * 1024;

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const VARIABLE = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const FIELDS = new Set(['name', 'api-url', 'secret', 'secret-name']);

/** The list from a file: a file that is missing, not a file or too large is one problem. */
export async function readTenantList(label: string, path: string): Promise<TenantEntry[]> {
  const info = await stat(path).catch(() => undefined);
  if (!info?.isFile()) {
    throw new SettingProblem(`${label} ${quoteValue(path)} is not a readable file`);
  }
  if (info.size > MAX_TENANT_LIST_BYTES) {
    throw new SettingProblem(
      `${label} ${quoteValue(path)} is larger than ${MAX_TENANT_LIST_BYTES / 1024 / 1024} MiB`,
    );
  }
  return parseTenantList(label, await readFile(path, 'utf8'));
}

/** Every problem of the list at once (each names its entry), before any request. */
export function parseTenantList(label: string, text: string): TenantEntry[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new SettingProblem(
      `${label} is not JSON (${error instanceof Error ? error.message : String(error)}): give a list like [{"name": "contoso", "api-url": "https://…", "secret": "CONTOSO_API_KEY"}]`,
    );
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new SettingProblem(`${label} must be a non-empty JSON list of tenants`);
  }
  if (parsed.length > MAX_TENANTS) {
    throw new SettingProblem(
      `${label} lists ${parsed.length} tenants, more than ${MAX_TENANTS}: split the list over several runs`,
    );
  }
  const problems = new SettingsProblems();
  const entries = parsed.map((raw, index) =>
    problems.check(() => tenantEntry(`${label} entry ${index + 1}`, raw), undefined),
  );
  const seen = new Set<string>();
  for (const entry of entries) {
    if (!entry) continue;
    const key = entry.name.toLowerCase();
    if (seen.has(key)) problems.add(`${label} names tenant ${entry.name} twice: names are unique`);
    seen.add(key);
  }
  problems.throwIfAny();
  return entries.filter((entry) => entry !== undefined);
}

function tenantEntry(where: string, raw: unknown): TenantEntry {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SettingProblem(`${where} must be an object with name, api-url and secret`);
  }
  const record = raw as Record<string, unknown>;
  const unknown = Object.keys(record).filter((field) => !FIELDS.has(field));
  if (unknown.length > 0) {
    // A field such as "api-key" would put a key in a file: refused whatever it holds.
    throw new SettingProblem(
      `${where} has unknown field ${quoteValue(unknown[0] ?? '')}: only name, api-url, secret (the name of the variable holding the key) and secret-name`,
    );
  }
  const name = stringField(where, record, 'name');
  if (!NAME.test(name)) {
    throw new SettingProblem(
      `${where}: name must be 1-64 letters, digits, - _ or . (starting with a letter or digit), got ${quoteValue(name)}`,
    );
  }
  const secret = variableName(`${where} (${name})`, 'secret', stringField(where, record, 'secret'));
  const url = record['api-url'];
  if (url !== undefined && typeof url !== 'string') {
    throw new SettingProblem(`${where} (${name}): api-url must be a string`);
  }
  const apiUrl = parseApiUrl(`${where} (${name}) api-url`, url);
  const secretName = record['secret-name'];
  if (secretName === undefined) return { name, apiUrl, secret };
  if (typeof secretName !== 'string') {
    throw new SettingProblem(`${where} (${name}): secret-name must be a string`);
  }
  variableName(`${where} (${name})`, 'secret-name', secretName);
  return { name, apiUrl, secret, secretName };
}

/** A field that names a variable or a secret, never the key itself (a key is refused unquoted). */
function variableName(where: string, field: string, value: string): string {
  if (value.startsWith(API_KEY_PREFIX)) {
    throw new SettingProblem(
      `${where}: ${field} must name the variable that holds the key, not the key itself: move the key into a secret or variable and give its name`,
    );
  }
  if (!VARIABLE.test(value)) {
    throw new SettingProblem(
      `${where}: ${field} must be a variable name (letters, digits and _), got ${quoteValue(value)}`,
    );
  }
  return value;
}

function stringField(where: string, record: Record<string, unknown>, field: string): string {
  const value = record[field];
  if (typeof value !== 'string' || value.trim() === '') {
    throw new SettingProblem(`${where}: ${field} is required (a string)`);
  }
  return value.trim();
}
