// A failed finding as a page's row (page-data.ts): from the gate's judgement of a run, or from a
// record a roll-up read. Both carry the same facts, so a tenant of a fleet reads like a run.

import type { Severity } from '../../client/index.js';
import { severityRank } from '../../pipeline/common/findings.js';
import { dispositionWords, isDisposition } from '../../pipeline/gate/dispositions.js';
import type { JudgedFinding } from '../../pipeline/gate/judge.js';
import type { RolledFinding } from '../../pipeline/rollup/records.js';
import { FLAG, type FindingRow } from './page-data.js';
import { MAX_CHARS, type PageStrings } from './strings.js';

/** The facts of a row, whichever its source. */
interface RowFacts {
  check: string;
  title: string;
  severity: Severity;
  category?: string;
  remediation?: string;
  reference?: string;
  description?: string;
  gating?: boolean;
  baselineState?: 'new' | 'unchanged';
  overdue?: boolean;
  beyondWindow?: boolean;
  failingSince?: string;
  dueAt?: string;
  daysLeft?: number;
  failingScans?: number;
  waiver?: { reason: string; expires: string; owner?: string; disposition?: string };
}

/** "false positive", "accepted risk" (a waiver that names none); a word this version does not
 *  know, from another version's record, as the record has it. */
function dispositionOf(waiver: RowFacts['waiver']): string | undefined {
  if (!waiver) return undefined;
  const { disposition } = waiver;
  if (disposition === undefined || isDisposition(disposition)) return dispositionWords(disposition);
  return disposition;
}

function flagsOf(facts: RowFacts): number {
  let flags = 0;
  if (facts.gating) flags |= FLAG.gating;
  if (facts.waiver) flags |= FLAG.waived;
  else if (facts.baselineState === 'new') flags |= FLAG.new;
  else if (facts.baselineState === 'unchanged') flags |= FLAG.unchanged;
  if (facts.overdue && !facts.waiver) flags |= FLAG.overdue;
  if (facts.beyondWindow) flags |= FLAG.beyondWindow;
  return flags;
}

function row(strings: PageStrings, facts: RowFacts): FindingRow {
  return [
    strings.line(facts.check, MAX_CHARS.id),
    strings.line(facts.title, MAX_CHARS.title),
    severityRank(facts.severity),
    strings.line(facts.category, MAX_CHARS.category),
    strings.block(facts.remediation, MAX_CHARS.body),
    strings.url(facts.reference),
    strings.block(facts.description, MAX_CHARS.body),
    flagsOf(facts),
    strings.line(facts.failingSince, MAX_CHARS.date),
    strings.line(facts.dueAt, MAX_CHARS.date),
    Number.isSafeInteger(facts.daysLeft) ? (facts.daysLeft as number) : -1,
    Number.isSafeInteger(facts.failingScans) ? (facts.failingScans as number) : -1,
    strings.line(facts.waiver?.reason, MAX_CHARS.line),
    strings.line(facts.waiver?.expires, MAX_CHARS.date),
    strings.line(facts.waiver?.owner, MAX_CHARS.id),
    strings.line(dispositionOf(facts.waiver), MAX_CHARS.id),
  ];
}

/** A run's failed finding as its gate judged it. */
export function judgedRow(strings: PageStrings, finding: JudgedFinding): FindingRow {
  const { age } = finding;
  return row(strings, {
    ...finding,
    check: finding.identity,
    overdue: age?.overdue,
    beyondWindow: age?.beyondWindow,
    failingSince: age?.failingSince,
    dueAt: age?.dueAt,
    daysLeft: age?.daysLeft,
    failingScans: age?.failingScans,
  });
}

/** Days from `now` to `dueAt` (negative: overdue by), rounded away from the day it falls due as
 *  the gate rounds them (gate/deadlines.ts); undefined when either is unknown. */
function daysLeftOf(dueAt: string | undefined, now: string | null): number | undefined {
  const due = Date.parse(dueAt ?? '');
  const at = Date.parse(now ?? '');
  if (Number.isNaN(due) || Number.isNaN(at)) return undefined;
  const left = due - at;
  return left >= 0 ? Math.ceil(left / 86_400_000) : -Math.ceil(-left / 86_400_000);
}

/** A failed finding of a record a roll-up read; `scanTime` is the record's scan time. */
export function rolledRow(
  strings: PageStrings,
  finding: RolledFinding,
  scanTime: string | null,
): FindingRow {
  const shown = finding.shown ?? {};
  return row(strings, {
    ...shown,
    check: finding.check,
    title: finding.title,
    severity: finding.severity,
    daysLeft: daysLeftOf(shown.dueAt, scanTime),
  });
}
