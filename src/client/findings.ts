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

/** The most characters kept of a finding's text: what a person reads in a summary, an
 *  annotation, an issue or a file; the rest is cut with "…" before the finding is kept, so that
 *  what a run holds is bounded by the number of findings, not by what the service sends
 *  (docs/guarantees.md, Bounds). A longer reference is dropped (a cut address is a wrong one);
 *  a longer id keeps its distinctness by a hash of the whole. */
export const FINDING_TEXT_LIMITS = {
  title: 200,
  category: 100,
  description: 1_000,
  remediation: 1_000,
  reference: 1_000,
  id: 200,
} as const;

const HIGH_SURROGATE = /[\ud800-\udbff]$/;

/** A string of its own: a slice of a long text keeps the whole text alive in V8. Made through
 *  JSON, which keeps every UTF-16 unit (a lone surrogate too; UTF-8 would turn it into U+FFFD and
 *  so change a check's identity). */
function ownCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}

/** `text` cut to `limit` characters with "…" (never between the halves of a surrogate pair). */
export function cutText(text: string, limit: number): string {
  if (text.length <= limit) return text;
  const head = text.slice(0, limit - 1);
  return ownCopy(`${HIGH_SURROGATE.test(head) ? head.slice(0, -1) : head}…`);
}

function cutOptional(text: string | undefined, limit: number): string | undefined {
  return text === undefined ? undefined : cutText(text, limit);
}

/** `text` without the whitespace around it, as a string of its own (a trimmed slice would keep
 *  the whole text alive). */
function trimmed(text: string): string {
  const inner = text.trim();
  return inner.length === text.length ? text : ownCopy(inner);
}

/** An id or identity cut to the limit, still told apart from every other by a hash of it. */
function cutId(text: string): string {
  const limit = FINDING_TEXT_LIMITS.id;
  if (text.length <= limit) return text;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return cutText(text, limit - 13) + `#${hash}`;
}

/** Equal texts kept once: a check's description, remediation and reference repeat on every
 *  resource it fails on. At most `max` distinct texts are pooled; later ones are kept as they
 *  are. One pool per read. */
export class TextPool {
  private readonly texts = new Map<string, string>();

  constructor(private readonly max = 50_000) {}

  of(text: string): string;
  of(text: string | undefined): string | undefined;
  of(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    const known = this.texts.get(text);
    if (known !== undefined) return known;
    if (this.texts.size < this.max) this.texts.set(text, text);
    return text;
  }
}

/** Never throws, whatever `f` is. Its text is cut to FINDING_TEXT_LIMITS: a view holds nothing
 *  of the service's answer but itself. */
export function describeFinding(f: Finding): FindingView {
  return keptFinding(f, undefined);
}

/** describeFinding, with equal texts shared through `pool` (one per read of many findings). */
export function keptFinding(f: Finding, pool: TextPool | undefined): FindingView {
  const obj: Record<string, unknown> = isObject(f) ? f : {};
  const shared = <T extends string | undefined>(text: T): T =>
    pool && text !== undefined ? (pool.of(text) as T) : text;
  const limits = FINDING_TEXT_LIMITS;
  const title = firstText(obj, ['title', 'name', 'checkTitle', 'checkId', 'id']) ?? UNTITLED;
  const category = firstText(obj, ['category', 'group', 'area', 'block']);
  const named = firstText(obj, IDENTITY_FIELDS);
  const identity = cutId(
    named === undefined ? derivedIdentity(obj, title, category) : trimmed(named),
  );
  const reference = firstText(obj, ['reference', 'url', 'helpUrl', 'link', 'href', 'docs']);
  return {
    id: cutId(firstText(obj, ['id', 'findingId']) ?? identity),
    identity: shared(identity),
    title: shared(cutText(title, limits.title)),
    severity: severityOf(obj),
    category: shared(cutOptional(category, limits.category)),
    description: shared(
      cutOptional(
        firstText(obj, ['description', 'details', 'detail', 'summary']),
        limits.description,
      ),
    ),
    remediation: shared(
      cutOptional(
        firstText(obj, ['remediation', 'fix', 'recommendation', 'solution']),
        limits.remediation,
      ),
    ),
    reference: shared(
      reference !== undefined && reference.length <= limits.reference ? reference : undefined,
    ),
    result: shared(firstText(obj, ['result', 'status', 'outcome']) ?? ''),
  };
}

/** The seed's gate: result `Failed` (compared case-insensitively; `fail` too). */
export function isFailedFinding(f: Finding): boolean {
  return isFailedWord(isObject(f) ? f.result : undefined);
}

/** Whether a result word says failed; a finding's view keeps its word (`view.result`). */
export function isFailedWord(result: unknown): boolean {
  return typeof result === 'string' && ['failed', 'fail'].includes(result.trim().toLowerCase());
}

/** The same comparison the results filter uses locally when the server ignored `result`. */
export function resultMatches(f: Finding, wanted: string): boolean {
  const result = isObject(f) ? f.result : undefined;
  return typeof result === 'string' && result.trim().toLowerCase() === wanted.trim().toLowerCase();
}
