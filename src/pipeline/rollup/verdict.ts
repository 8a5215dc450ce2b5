// A run record's verdict, judged again from its own evidence: its failed findings and its gate,
// by the gate's one rule (gate.ts failsGate). A record is evidence, not a verdict: one whose
// verdict, per-finding `gating` or failing count disagrees with what its findings and gate say
// contradicts itself, and a roll-up counts it as failed with why. Pure.

import { isObject, type JsonObject, type Severity } from '../../client/index.js';
import { isFailedResult } from '../common/result-kinds.js';
import {
  failsGate,
  FAIL_ON_WORDS,
  GATE_SEVERITIES,
  type FailOn,
  type GateSeverity,
} from '../gate/judge.js';

/** What a record's verdict comes to when judged again. */
export interface Rejudged {
  /** Failed findings that fail the record's own gate (null: the scan did not complete). */
  gating: number | null;
  /** Its coverage dropped beyond its own max-coverage-drop, judged again from its numbers. */
  coverageFails: boolean;
  /** Why the record contradicts itself; null when it does not. */
  contradiction: string | null;
}

/** The gate's settings a record names, or why they are not ones a run writes. */
function gateOf(gate: JsonObject): { threshold: GateSeverity; failOn: FailOn } | string {
  const threshold = gate.failOnSeverity;
  const failOn = gate.failOn;
  if (!GATE_SEVERITIES.includes(threshold as GateSeverity))
    return '"gate.failOnSeverity" is not a severity';
  if (!FAIL_ON_WORDS.includes(failOn as FailOn)) return '"gate.failOn" is not any, new or overdue';
  return { threshold: threshold as GateSeverity, failOn: failOn as FailOn };
}

/** Whether this (checked) finding of the record fails its gate. */
function findingFails(
  gate: { threshold: GateSeverity; failOn: FailOn },
  finding: JsonObject,
): boolean {
  const state = finding.baselineState;
  return failsGate(gate, {
    severity: finding.severity as Severity,
    waived: isObject(finding.waiver),
    baselineState: state === 'new' || state === 'unchanged' ? state : undefined,
    overdue: typeof finding.overdue === 'boolean' ? finding.overdue : undefined,
  });
}

/** The finding's own words that disagree with the gate's judgement of it, or null. */
function findingContradiction(finding: JsonObject, fails: boolean, index: number): string | null {
  const what = `finding ${index + 1}${typeof finding.checkId === 'string' ? ` (${finding.checkId})` : ''}`;
  if (!isFailedResult(finding.result))
    return `${what} is listed as failed but its result is ${JSON.stringify(finding.result)}`;
  if (typeof finding.gating === 'boolean' && finding.gating !== fails) {
    return `${what} says it ${finding.gating ? 'fails' : 'does not fail'} the gate, but its severity, waiver and state say it ${fails ? 'does' : 'does not'}`;
  }
  return null;
}

/**
 * Judges a record again: the scan must have completed with a gate for any verdict but `failed`,
 * and then the verdict is `failed` exactly when a finding fails the record's own gate or its
 * coverage dropped beyond its own max-coverage-drop. `findings`
 * are the record's failed findings (objects with a known severity, checked by the caller).
 * Throws nothing; a gate that is not one a run writes is a contradiction too.
 */
export function rejudgeRecord(document: JsonObject, findings: readonly JsonObject[]): Rejudged {
  const verdict = document.verdict;
  if (verdict === null || verdict === undefined)
    return { gating: null, coverageFails: false, contradiction: null };
  const scan = isObject(document.scan) ? document.scan : undefined;
  if (scan?.phase !== 'succeeded' || !isObject(document.gate)) {
    const contradiction =
      verdict === 'passed'
        ? 'the record says passed, but its scan did not complete (or it has no gate)'
        : null;
    return { gating: null, coverageFails: false, contradiction };
  }
  const gate = gateOf(document.gate);
  if (typeof gate === 'string') return { gating: null, coverageFails: false, contradiction: gate };
  const coverage = coverageOf(document.coverage);
  if (typeof coverage === 'string')
    return { gating: null, coverageFails: false, contradiction: coverage };
  let gating = 0;
  let first: string | null = null;
  findings.forEach((finding, index) => {
    const fails = findingFails(gate, finding);
    if (fails) gating++;
    first ??= findingContradiction(finding, fails, index);
  });
  return {
    gating,
    coverageFails: coverage,
    contradiction: verdictContradiction(document, verdict, gating, coverage) ?? first,
  };
}

/** Whether the record's coverage fails its own max-coverage-drop, judged from its numbers (false
 *  when it compared none), or why its coverage is not one a run writes. */
function coverageOf(coverage: unknown): boolean | string {
  if (coverage === null || coverage === undefined) return false;
  if (!isObject(coverage)) return '"coverage" is not an object';
  if (coverage.compared !== true) return false;
  const { baselineEvaluated, dropped, maxDrop, fails } = coverage;
  const counted =
    Number.isSafeInteger(baselineEvaluated) &&
    Array.isArray(dropped) &&
    typeof maxDrop === 'number' &&
    typeof fails === 'boolean';
  if (!counted) return '"coverage" is not one a run writes';
  const before = baselineEvaluated as number;
  if (dropped.length > before)
    return `its coverage says ${dropped.length} of ${before} checks dropped`;
  const judged = maxDrop < 100 && dropped.length * 100 > maxDrop * before;
  if (judged !== fails) {
    return `its coverage says it ${fails ? 'fails' : 'does not fail'}, but ${dropped.length} of ${before} checks dropped against a max-coverage-drop of ${maxDrop} % say it ${judged ? 'does' : 'does not'}`;
  }
  return judged;
}

/** The record's verdict and failing count against the count its findings give. */
function verdictContradiction(
  document: JsonObject,
  verdict: unknown,
  gating: number,
  coverageFails: boolean,
): string | null {
  const judged = gating > 0 || coverageFails ? 'failed' : 'passed';
  const failing = isObject(document.gate) ? document.gate.failing : undefined;
  if (verdict !== judged) {
    const coverage = coverageFails ? ' and its coverage dropped beyond its limit' : '';
    return `the record says ${String(verdict)}, but ${gating} of its failed findings fail its own gate${coverage}`;
  }
  if (failing !== gating) {
    return `the record's gate says ${String(failing)} failing, but ${gating} of its failed findings fail it`;
  }
  return null;
}
