// The waivers file's YAML into waivers, with `yaml`, whose nodes keep their position in the file:
// every problem names the file and the line. Loaded only when a waivers file exists (waivers.ts).

import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import type { Waiver } from './judge.js';
import { quoteValue } from '../common/text.js';
import { DISPOSITIONS, isDisposition, type Disposition } from './dispositions.js';
import { SettingsError } from '../common/settings-problems.js';
import { yamlSyntaxProblem } from '../common/yaml-syntax.js';

const KEYS = ['check', 'reason', 'expires', 'owner', 'disposition'];
const FORMAT_HINT = 'write `waivers:` followed by a list of entries with check, reason and expires';

/** The waivers of a file's text (`path` names it in messages). */
export function parseWaivers(path: string, text: string): Waiver[] {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true });
  const at = (offset: number | undefined) => `${path} line ${lines.linePos(offset ?? 0).line}`;
  const [syntax] = doc.errors;
  // Only the first: the errors after a syntax error mostly follow from it.
  if (syntax) throw new SettingsError([yamlSyntaxProblem(path, text, syntax)]);
  const root = doc.contents;
  if (root === null || isEmpty(root)) return [];
  if (!isMap(root) || !root.has('waivers')) {
    throw new SettingsError([`${at(nodeStart(root))}: not a waivers file: ${FORMAT_HINT}`]);
  }
  const list = root.get('waivers', true);
  if (list === undefined || list === null || isEmpty(list)) return [];
  if (!isSeq(list)) {
    throw new SettingsError([
      `${at(nodeStart(list as Node))}: \`waivers\` is not a list: ${FORMAT_HINT}`,
    ]);
  }
  const problems: string[] = [];
  const waivers: Waiver[] = [];
  const seen = new Map<string, number>();
  list.items.forEach((item, index) => {
    const where = `${at(nodeStart(item as Node))}: waiver ${index + 1}`;
    const waiver = readEntry(item as Node, where, lines, problems);
    if (!waiver) return;
    const earlier = seen.get(waiver.check);
    if (earlier !== undefined) {
      problems.push(
        `${where} repeats check ${quoteValue(waiver.check)} of line ${earlier}: keep one entry per check`,
      );
      return;
    }
    seen.set(waiver.check, waiver.line);
    waivers.push(waiver);
  });
  if (problems.length > 0) throw new SettingsError(problems);
  return waivers;
}

function readEntry(
  item: Node,
  where: string,
  lines: LineCounter,
  problems: string[],
): Waiver | undefined {
  if (!isMap(item)) {
    problems.push(
      `${where} is not a mapping: give check, reason and expires as \`key: value\` lines`,
    );
    return undefined;
  }
  const fields = new Map<string, unknown>();
  for (const pair of item.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!KEYS.includes(key)) {
      problems.push(`${where} has an unknown key ${quoteValue(key)}: use ${KEYS.join(', ')}`);
      continue;
    }
    fields.set(key, isScalar(pair.value) ? pair.value.value : pair.value);
  }
  const before = problems.length;
  const check = textField(fields, 'check');
  const reason = textField(fields, 'reason');
  const expires = textField(fields, 'expires');
  const owner = textField(fields, 'owner');
  const disposition = dispositionField(fields, where, problems);
  if (!check) problems.push(`${where} has no check: add \`check: <the finding's checkId>\``);
  if (!reason)
    problems.push(`${where} has no reason: add \`reason: <why it is accepted for now>\``);
  if (!expires) {
    problems.push(
      `${where} has no expires date: add \`expires: YYYY-MM-DD\` (the last day it holds)`,
    );
  } else if (!isCalendarDate(expires)) {
    problems.push(
      `${where} expires ${quoteValue(expires)} is not a date: write YYYY-MM-DD, e.g. 2027-03-31`,
    );
  }
  if (problems.length > before || !check || !reason || !expires) return undefined;
  const line = lines.linePos(nodeStart(item)).line;
  return {
    check,
    reason,
    expires,
    line,
    ...(owner ? { owner } : {}),
    ...(disposition ? { disposition } : {}),
  };
}

/** The waiver's disposition (undefined: none given, risk-accepted); an unknown one is a problem. */
function dispositionField(
  fields: Map<string, unknown>,
  where: string,
  problems: string[],
): Disposition | undefined {
  const value = textField(fields, 'disposition');
  if (value === undefined) return undefined;
  const word = value.toLowerCase();
  if (isDisposition(word)) return word;
  problems.push(
    `${where} has an unknown disposition ${quoteValue(value)}: use ${DISPOSITIONS.join(', ')} (the default is risk-accepted)`,
  );
  return undefined;
}

function textField(fields: Map<string, unknown>, key: string): string | undefined {
  const value = fields.get(key);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (typeof value !== 'string') return undefined;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

function isEmpty(node: unknown): boolean {
  return isScalar(node) && (node.value === null || node.value === '');
}

function nodeStart(node: Node | null | undefined): number {
  return node?.range?.[0] ?? 0;
}
