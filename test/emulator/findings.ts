// Findings (scan results), generated on demand from (seed, scan id, index): no stored rows.
import type { UnknownsVariant } from './types.js';
import { CHECKS, REFERENCE_BASE, type Check } from './findings-catalog.js';
import { hash32, uuidFrom } from './rng.js';
import type { ScanOutcomeCounts } from './scan-lifecycle.js';

/** The words the emulator sends by itself; a plan's resultWords may send any other. */
export type FindingResult = 'Passed' | 'Failed' | 'Skipped' | 'Error' | (string & {});

/** Whether the emulator means a result word as evaluated: Passed or Failed, in any case. */
export function isEvaluatedWord(result: string): boolean {
  return ['passed', 'failed'].includes(result.toLowerCase());
}

/** A permutation of [0, total) so that failed rows are spread over the list, not bunched first. */
export class ResultLayout {
  private readonly multiplier: number;
  private readonly offset: number;

  /** `key`: what the layout is drawn from, ScanRecord.resultsKey (scans with one key agree). */
  constructor(
    private readonly counts: ScanOutcomeCounts,
    seed: number,
    key: string,
  ) {
    const total = Math.max(1, counts.total);
    let multiplier = (hash32(seed, key, 'mul') % total) | 1;
    while (gcd(multiplier, total) !== 1) multiplier++;
    this.multiplier = multiplier;
    this.offset = hash32(seed, key, 'off') % total;
  }

  resultAt(index: number): FindingResult {
    const word = this.counts.words?.get(index);
    if (word !== undefined) return word;
    if (this.counts.failing) return this.counts.failing.has(index) ? 'Failed' : 'Passed';
    const rank = (this.multiplier * index + this.offset) % Math.max(1, this.counts.total);
    if (rank < this.counts.failed) return 'Failed';
    if (rank < this.counts.failed + this.counts.skipped) return 'Skipped';
    return 'Passed';
  }

  /** Indices with the given result (or all), from `start`, at most `limit`; and whether more follow. */
  select(
    filter: FindingResult | null,
    start: number,
    limit: number,
  ): { indices: number[]; next: number | null } {
    if (!filter) {
      const end = Math.min(this.counts.total, start + limit);
      const indices = Array.from({ length: Math.max(0, end - start) }, (_, i) => start + i);
      return { indices, next: end < this.counts.total ? end : null };
    }
    const matching = this.matching(filter);
    const end = Math.min(matching.length, start + limit);
    const indices: number[] = [];
    for (let position = start; position < end; position++) indices.push(matching[position] ?? 0);
    return { indices, next: end < matching.length ? end : null };
  }

  private readonly byResult = new Map<FindingResult, Int32Array>();

  /** Every index with this result, in order: found once per layout (one pass over the results),
   *  so a read of 5,000 pages does not walk 250,000 results for each page. */
  private matching(filter: FindingResult): Int32Array {
    let found = this.byResult.get(filter);
    if (found) return found;
    const wanted = filter.toLowerCase();
    let count = 0;
    for (let i = 0; i < this.counts.total; i++)
      if (this.resultAt(i).toLowerCase() === wanted) count++;
    found = new Int32Array(count);
    let at = 0;
    for (let i = 0; i < this.counts.total; i++)
      if (this.resultAt(i).toLowerCase() === wanted) found[at++] = i;
    this.byResult.set(filter, found);
    return found;
  }
}

function gcd(a: number, b: number): number {
  while (b) [a, b] = [b, a % b];
  return a;
}

function checkFor(index: number): { check: Check; instance: number } {
  return {
    check: CHECKS[index % CHECKS.length] as Check,
    instance: Math.floor(index / CHECKS.length),
  };
}

/** The catalogue check behind the finding at a result index. */
export function checkAt(index: number): Check {
  return checkFor(index).check;
}

/** The checkId of the finding at a result index: the catalogue's id, `#n` from the second
 *  resource of a check on (results beyond the catalogue's length). */
export function checkIdAt(index: number): string {
  const { check, instance } = checkFor(index);
  return instance === 0 ? check.checkId : `${check.checkId}#${instance + 1}`;
}

/** The result index of a checkId as checkIdAt writes it; undefined for an id not in the catalogue. */
export function indexOfCheckId(checkId: string): number | undefined {
  const [id, suffix] = checkId.split('#');
  const position = CHECKS.findIndex((check) => check.checkId === id);
  const instance = suffix === undefined ? 0 : Number(suffix) - 1;
  if (position === -1 || !Number.isInteger(instance) || instance < 0) return undefined;
  return instance * CHECKS.length + position;
}

function describe(check: Check, result: FindingResult): string {
  if (result.toLowerCase() === 'passed')
    return `The tenant meets this control: ${check.title.toLowerCase()}.`;
  if (!isEvaluatedWord(result))
    return 'Not evaluated: the connected directory does not expose this setting for the current licence.';
  return `The tenant does not meet this control: ${check.title.toLowerCase()}.`;
}

/** What a compromised service puts around a text (UnknownsVariant.hostileText): retitles the
 *  window, clears the screen, opens a disguised hyperlink, returns the carriage over the line and
 *  reverses the text that follows. */
export const HOSTILE_TEXT = {
  before:
    '\u001b]0;tenant-scan: all clear\u0007\u001b[2J\u001b[H\u001b]8;;https://evil.example/\u001b\\',
  after: '\u001b]8;;\u001b\\\r\u202ePASSED\u009b31m',
} as const;

export function hostile(text: string): string {
  return `${HOSTILE_TEXT.before}${text}${HOSTILE_TEXT.after}`;
}

/** Markup a service sends as text (UnknownsVariant.hostileMarkdown): mentions of a user and a
 *  team, issue references, an image, HTML, a javascript: link and bare addresses. */
export const HOSTILE_MARKDOWN = {
  text: 'Admins @octocat and @acme/secops, see #1 and acme/repo#2 ![x](https://evil.example/p.png) <img src=x onerror=alert(1)> [click](javascript:alert(1)) https://evil.example/go |',
  reference: 'javascript:alert(1)',
} as const;

/** The forms a careless (or hostile) service echoes a key in (UnknownsVariant.echoKey): as is,
 *  Markdown-escaped, percent-encoded, its secret part alone, case-folded, split by a zero-width
 *  space; split by a soft hyphen, a combining grapheme joiner and a tag space (issue 46's audit);
 *  fullwidth, as HTML character references, percent-encoded twice, reversed, in hex, in base64 and
 *  base64url inside a longer encoded text, and split across lines. */
export function echoForms(key: string): string[] {
  const part = key.replace(/^ak_live_/, '');
  const percent = (text: string) =>
    [...Buffer.from(text, 'utf8')]
      .map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`)
      .join('');
  const middle = Math.floor(key.length / 2);
  const split = (by: string) => `${key.slice(0, middle)}${by}${key.slice(middle)}`;
  const fullwidth = [...part].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join('');
  return [
    key,
    key.replace(/_/g, '\\_'),
    percent(key),
    part,
    key.toUpperCase(),
    part.toLowerCase(),
    split('\u200b'),
    split('\u00ad'),
    split('\u034f'),
    split('\u{e0020}'),
    fullwidth,
    [...part].map((c) => `&#${c.codePointAt(0)};`).join(''),
    percent(percent(key)),
    [...key].reverse().join(''),
    Buffer.from(key).toString('hex'),
    Buffer.from(`token: ${key}; expires never`).toString('base64'),
    Buffer.from(`k=${part}`).toString('base64url'),
    split('\n'),
  ];
}

/** What a finding's text becomes under the variant: hostile markup, an echoed key. */
function textOf(
  text: string,
  variant: Pick<UnknownsVariant, 'hostileText' | 'hostileMarkdown'>,
  echo: string | undefined,
  escapes = true,
): string {
  let out = escapes && variant.hostileText ? hostile(text) : text;
  if (variant.hostileMarkdown) out = `${out} ${HOSTILE_MARKDOWN.text}`;
  if (echo) out = `${out} (key ${echo})`;
  return out;
}

/** The texts a service that echoes keys puts in its text (routes/echo.ts): one in each title, all in
 *  each description. */
export type Echoed = readonly string[];

const FILLER = {
  narrow: 'The setting is reviewed against the benchmark on every scan of the tenant. ',
  wide: 'Настройка проверяется по эталону при каждой проверке арендатора. ',
};

/** `text` padded with words to about `bytes` bytes of UTF-8 (UnknownsVariant.findingTextBytes),
 *  different for each result `index` (no two findings share their text, as no cache could). */
export function padText(text: string, bytes: number | undefined, wide = false, index = 0): string {
  const have = Buffer.byteLength(text, 'utf8');
  if (bytes === undefined || have >= bytes) return text;
  const base = wide ? FILLER.wide : FILLER.narrow;
  const turn = index % base.length;
  const filler = `${base.slice(turn)}${base.slice(0, turn)}`;
  const perChar = Buffer.byteLength(filler, 'utf8') / filler.length;
  const chars = Math.max(0, Math.floor((bytes - have - 1) / perChar));
  const mark = `${index} `;
  return `${text} ${mark}${filler.repeat(Math.ceil(chars / filler.length)).slice(0, Math.max(0, chars - mark.length))}`;
}

/** One finding as JSON text, in the shape the variant asks for. `echoed`: the keys' forms (and
 *  other texts) a service that echoes them writes into it. */
export function findingJson(
  seed: number,
  scanId: string,
  index: number,
  result: FindingResult,
  variant: Pick<
    UnknownsVariant,
    'findingShape' | 'hostileText' | 'hostileMarkdown' | 'findingTextBytes'
  > = {},
  echoed: Echoed = [],
): string {
  const shape = variant.findingShape ?? 'default';
  const { check: plain, instance } = checkFor(index);
  const echo = echoed.length > 0 ? echoed.join(' ') : undefined;
  const long = variant.findingTextBytes ?? {};
  // The first echoed text (the key as is) and one more in the title; every one in the description.
  const shownTitle = textOf(
    plain.title,
    variant,
    echo && `${echoed[0]} ${echoed[index % echoed.length]}`,
  );
  const description = padText(
    textOf(describe({ ...plain, title: shownTitle }, result), variant, echo, false),
    long.description,
    long.wide,
    index,
  );
  const check = {
    ...plain,
    title: padText(shownTitle, long.title, long.wide, index),
    category: textOf(plain.category, variant, undefined),
    remediation: padText(
      textOf(plain.remediation, variant, undefined, false),
      long.remediation,
      long.wide,
      index,
    ),
  };

  const id = uuidFrom(seed, scanId, 'finding', index);
  const checkId = checkIdAt(index);
  if (shape === 'sparse') return JSON.stringify({ id, checkId, result });
  const title = instance === 0 ? check.title : `${check.title} (resource ${instance + 1})`;
  const reference = variant.hostileMarkdown
    ? HOSTILE_MARKDOWN.reference
    : `${REFERENCE_BASE}${check.checkId.toLowerCase()}`;
  if (shape === 'maester') {
    return JSON.stringify({
      testId: checkId,
      name: title,
      result,
      severity: check.severity.charAt(0).toUpperCase() + check.severity.slice(1),
      helpUrl: reference,
      block: check.category,
    });
  }
  if (shape === 'alt') {
    return JSON.stringify({
      id,
      checkId,
      name: title,
      level: check.severity.toUpperCase(),
      group: check.category,
      result,
      description,
      fix: check.remediation,
      url: reference,
    });
  }
  return JSON.stringify({
    id,
    checkId,
    title,
    category: check.category,
    severity: check.severity,
    result,
    description,
    remediation: check.remediation,
    reference,
  });
}
