// Findings read with the contract's fallbacks. Only `result` (value `Failed`) is in the seed, so
// every other field is looked for under its usual names and never trusted to exist or be a string.
import { createHash } from 'node:crypto';
import { isObject } from './envelope.js';
import type { Finding, FindingView, Severity } from './types.js';

const SEVERITY_WORDS: Record<string, Severity> = {
  critical: 'critical',
  crit: 'critical',
  very_high: 'critical',
  blocker: 'critical',
  high: 'high',
  important: 'high',
  severe: 'high',
  major: 'high',
  medium: 'medium',
  moderate: 'medium',
  med: 'medium',
  low: 'low',
  minor: 'low',
  trivial: 'low',
  info: 'info',
  informational: 'info',
  information: 'info',
  none: 'info',
  note: 'info',
};

function firstText(obj: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const value = obj[name];
    if (typeof value === 'string' && value.trim() !== '') return value;
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

export function toSeverity(value: unknown): Severity {
  if (typeof value !== 'string') return 'unknown';
  return (
    SEVERITY_WORDS[
      value
        .trim()
        .toLowerCase()
        .replace(/[\s-]+/g, '_')
    ] ?? 'unknown'
  );
}

function severityOf(obj: Record<string, unknown>): Severity {
  for (const name of ['severity', 'level', 'riskLevel', 'risk', 'priority']) {
    const severity = toSeverity(obj[name]);
    if (severity !== 'unknown') return severity;
  }
  return 'unknown';
}

/** What stays the same for one check from scan to scan, in this order: the first of these fields
 *  the service gives (Maester names it `testId`). The gate, every output and the waivers use it. */
export const IDENTITY_FIELDS = [
  'checkId',
  'testId',
  'ruleId',
  'controlId',
  'check',
  'id',
  'name',
] as const;

const RESULT_FIELDS = new Set(['result', 'status', 'outcome']);
const UNTITLED = '(untitled finding)';

/** The identity of a finding whose service names none: `check-` and a hash of what describes the
 *  check (its title and category; else everything but its result), so that two checks never share
 *  one and the same check keeps its own from scan to scan. */
function derivedIdentity(obj: Record<string, unknown>, title: string, category?: string): string {
  const content =
    title !== UNTITLED
      ? titleAndCategory(title, category)
      : JSON.stringify(
          Object.keys(obj)
            .filter((name) => !RESULT_FIELDS.has(name))
            .sort()
            .map((name) => [name, obj[name]]),
        );
  return `check-${createHash('sha256').update(content).digest('hex').slice(0, 12)}`;
}

/** What a derived identity hashes of a titled check. Joined by NUL as ever (identities already in
 *  baselines and waivers keep their hash), but as JSON when either holds a NUL itself: "a\0" + ""
 *  and "a" + "\0" are two checks, and JSON text never holds a raw NUL, so the two forms never meet. */
function titleAndCategory(title: string, category: string | undefined): string {
  return title.includes('\u0000') || category?.includes('\u0000')
    ? JSON.stringify([title, category ?? ''])
    : `${title}\u0000${category ?? ''}`;
}

/** Never throws, whatever `f` is. */
export function describeFinding(f: Finding): FindingView {
  const obj: Record<string, unknown> = isObject(f) ? f : {};
  const title = firstText(obj, ['title', 'name', 'checkTitle', 'checkId', 'id']) ?? UNTITLED;
  const category = firstText(obj, ['category', 'group', 'area', 'block']);
  const identity = firstText(obj, IDENTITY_FIELDS)?.trim() ?? derivedIdentity(obj, title, category);
  return {
    id: firstText(obj, ['id', 'findingId']) ?? identity,
    identity,
    title,
    severity: severityOf(obj),
    category,
    description: firstText(obj, ['description', 'details', 'detail', 'summary']),
    remediation: firstText(obj, ['remediation', 'fix', 'recommendation', 'solution']),
    reference: firstText(obj, ['reference', 'url', 'helpUrl', 'link', 'href', 'docs']),
    result: firstText(obj, ['result', 'status', 'outcome']) ?? '',
  };
}

/** The seed's gate: result `Failed` (compared case-insensitively; `fail` too). */
export function isFailedFinding(f: Finding): boolean {
  const result = isObject(f) ? f.result : undefined;
  return typeof result === 'string' && ['failed', 'fail'].includes(result.trim().toLowerCase());
}

/** The same comparison the results filter uses locally when the server ignored `result`. */
export function resultMatches(f: Finding, wanted: string): boolean {
  const result = isObject(f) ? f.result : undefined;
  return typeof result === 'string' && result.trim().toLowerCase() === wanted.trim().toLowerCase();
}
