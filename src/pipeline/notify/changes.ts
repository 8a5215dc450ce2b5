// Whether a run is worth a message, and what changed: pure. Everything comes from the gate's
// judgement against the baseline (and the history) the job already read: no state of our own.

import type { FindingView } from '../../client/index.js';
import { atOrAbove, type GateOutcome, type JudgedFinding, type Waiver } from '../gate/judge.js';
import type { Verdict } from '../job/types.js';
import type { NotifyOn } from './settings.js';
import { plural } from '../common/text.js';

const DAY_MS = 86_400_000;

/** What changed since the baseline, each list worst first. */
export interface Changes {
  /** Failing, not waived, at or above the threshold, and not in the baseline (every such one when
   *  no baseline could be read: the safe side). */
  newFailing: JudgedFinding[];
  /** Failed in the baseline at or above the threshold, not failed now. */
  fixed: FindingView[];
  /** Waivers that ended since the baseline (every expired one when its time is unknown). */
  expiredWaivers: Waiver[];
  /** Failing in the baseline too, now past a deadline that fell after it (needs a history). */
  newlyOverdue: JudgedFinding[];
  /** The verdict the baseline's findings get from the same gate, when that can be known. */
  previousVerdict?: Verdict;
  /** Checks the baseline evaluated and this scan did not, when that fails the gate. */
  notEvaluatedNow: string[];
}

/** How a run ended, as the notification sees it. */
export type RunEnd =
  | { kind: 'judged'; verdict: Verdict; gate: GateOutcome }
  /** The scan was not judged: it failed, timed out, or the job stopped with an error. */
  | { kind: 'error'; line: string };

export interface NotifyDecision {
  notify: boolean;
  /** Why, in words for the log: "2 new failing findings, 1 fixed" or "nothing changed". */
  why: string;
}

/** The first instant after a waiver's last day (UTC). */
function waiverEndMs(waiver: Waiver): number {
  return Date.parse(`${waiver.expires}T00:00:00Z`) + DAY_MS;
}

/** The changes of a judged run since its baseline. */
export function changesOf(gate: GateOutcome): Changes {
  const { settings, baseline } = gate;
  const at = baseline.kind === 'found' && baseline.at ? Date.parse(baseline.at) : Number.NaN;
  const failingNow = new Set(gate.findings.map((f) => f.identity));
  const expiredWaivers = gate.expired.filter((waiver) =>
    Number.isNaN(at) ? failingNow.has(waiver.check) : waiverEndMs(waiver) > at,
  );
  const newlyOverdue = gate.findings.filter((f) => {
    const due = Date.parse(f.age?.dueAt ?? '');
    return (
      !f.waiver &&
      f.baselineState === 'unchanged' &&
      f.age?.overdue === true &&
      atOrAbove(f.severity, settings.threshold) &&
      !Number.isNaN(at) &&
      due > at
    );
  });
  return {
    newFailing: gate.findings.filter(
      (f) =>
        !f.waiver && f.baselineState !== 'unchanged' && atOrAbove(f.severity, settings.threshold),
    ),
    fixed: gate.fixed.filter((f) => atOrAbove(f.severity, settings.threshold)),
    expiredWaivers,
    newlyOverdue,
    previousVerdict: previousVerdictOf(gate, expiredWaivers),
    notEvaluatedNow:
      gate.coverage.kind === 'compared' && gate.coverage.fails ? gate.coverage.dropped : [],
  };
}

/** With fail-on any, the baseline's verdict under the same gate: failed when one of its findings
 *  is at or above the threshold and was not waived then (a waiver in force now, or one that ended
 *  since). Other fail-on words need what the baseline itself was compared with: unknown. */
function previousVerdictOf(gate: GateOutcome, endedSince: readonly Waiver[]): Verdict | undefined {
  if (gate.settings.failOn !== 'any' || gate.baseline.kind !== 'found') return undefined;
  const inForce = [...gate.findings.flatMap((f) => (f.waiver ? [f.waiver] : [])), ...gate.stale];
  const waivedThen = new Set([...inForce, ...endedSince].map((waiver) => waiver.check));
  const failed = gate.baseline.failed.some(
    (f) => !waivedThen.has(f.identity) && atOrAbove(f.severity, gate.settings.threshold),
  );
  return failed ? 'failed' : 'passed';
}

/** The changes in words, the most pressing first; [] when nothing changed. */
export function changeWords(changes: Changes, verdict: Verdict): string[] {
  const words: string[] = [];
  if (changes.newFailing.length > 0)
    words.push(plural(changes.newFailing.length, 'new failing finding'));
  if (changes.newlyOverdue.length > 0) words.push(`${changes.newlyOverdue.length} now overdue`);
  if (changes.expiredWaivers.length > 0)
    words.push(plural(changes.expiredWaivers.length, 'expired waiver'));
  if (changes.fixed.length > 0) words.push(`${changes.fixed.length} fixed`);
  if (changes.notEvaluatedNow.length > 0)
    words.push(`coverage dropped: ${changes.notEvaluatedNow.length} checks not evaluated now`);
  if (changes.previousVerdict !== undefined && changes.previousVerdict !== verdict)
    words.push(`the verdict went from ${changes.previousVerdict} to ${verdict}`);
  return words;
}

/** What changed since the baseline, in words; undefined when there is no baseline to compare with
 *  (every failing finding would look new). */
export function changedSinceBaseline(gate: GateOutcome, verdict: Verdict): string[] | undefined {
  return gate.baseline.kind === 'none' ? undefined : changeWords(changesOf(gate), verdict);
}

/** Whether this run speaks, under `on`. */
export function decideNotify(on: NotifyOn, end: RunEnd): NotifyDecision {
  if (end.kind === 'error') {
    const notify = on === 'failure' || on === 'always';
    return {
      notify,
      why: notify
        ? 'the job ended in an error'
        : `the job ended in an error (notify-on ${on} does not send for that)`,
    };
  }
  const changes = changesOf(end.gate);
  const known = changedSinceBaseline(end.gate, end.verdict);
  const changed = known ?? [];
  const summary =
    known === undefined
      ? 'no baseline to compare with'
      : changed.length > 0
        ? changed.join(', ')
        : 'nothing changed since the baseline';
  switch (on) {
    case 'always':
      return { notify: true, why: summary };
    case 'failure':
      return { notify: end.verdict === 'failed', why: `the verdict is ${end.verdict}; ${summary}` };
    case 'new':
      return known === undefined
        ? { notify: false, why: summary }
        : {
            notify: changes.newFailing.length > 0,
            why: changes.newFailing.length > 0 ? summary : 'no new failing findings',
          };
    case 'change':
      return { notify: changed.length > 0, why: summary };
  }
}
