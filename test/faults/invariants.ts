// The invariants, checked on what one run left behind: the six of issue 7, and two for a broken or
// hostile service (issue 18). Pure functions of an Observation: each returns the violations it
// found (empty when the run kept the invariant).
import { LOST_TRIGGER_STATE } from '../../src/github/post-step-state.js';
import type { ScanTruth } from '../emulator/types.js';
import { REFERENCE_BASE } from '../emulator/findings-catalog.js';
import { DEFAULT_REPOSITORY, DEFAULT_RUN_ID } from '../helpers/runner.js';
import { isOurMarker, liveMarkup } from '../helpers/gfm.js';
import { containsSecret } from '../helpers/secret-scan.js';
import type { Observation, StepView } from './observation.js';

export interface Violation {
  invariant: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 | 11 | 12 | 13 | 14;
  message: string;
}

export const INVARIANT_NAMES: Record<Violation['invariant'], string> = {
  1: 'at most one scan triggered',
  2: 'verdict matches ground truth or a clear classified error',
  3: 'no report file unless complete with matching sha256',
  4: 'no triggered scan left running after main and post',
  5: 'the key reaches only the API',
  6: 'no report credit spent unless report: generate',
  7: 'every exchange within its deadline, memory bounded, a bound named with its route',
  8: 'service text reaches people as plain text: no control character, no live markup',
  9: 'no verdict unless every results page was read and agrees with the scan counts',
  10: "tracking issues: never two open for one thing, none touched without a verdict, no outsider's edited",
  11: 'rotation: the secret always holds a working key, at most one key it never held (none after a run that succeeded), no key leaks, none of people deleted',
  12: "many tenants: each record matches its tenant's truth, a fault stays with its tenant, no scan left running",
  13: 'tenant settings: an apply says exactly what it changed and did not; a second apply finishes the job',
  14: "coverage and stalls: a scan that evaluated too few of its baseline's checks fails, naming them; a stalled scan is stopped, never passed",
};

const PHASES = [
  'Sanity checks',
  'Authentication',
  'Trigger',
  'Wait',
  'Results',
  'Baseline',
  'Report',
  'Verdict',
  'Cancel',
  'Publish',
];
const CLASSIFIED_LINE = new RegExp(`^(${PHASES.join('|')}) (?:failed|timed out): \\S`);

/** Things a user must never see in a log, a summary or an output. */
const UNCLEAR_TEXT: Array<[RegExp, string]> = [
  [/\bundefined\b/, '"undefined"'],
  [/\[object Object\]/, '"[object Object]"'],
  [/\bNaN\b/, '"NaN"'],
  [/^\s*at \S.*(:\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m, 'a stack trace'],
  [/\b(TypeError|ReferenceError|SyntaxError|RangeError)\b/, 'a JavaScript error name'],
];

const CANONICAL_STATUS: Record<string, ScanTruth['status']> = {
  queued: 'queued',
  pending: 'queued',
  running: 'running',
  in_progress: 'running',
  completed: 'completed',
  succeeded: 'completed',
  failed: 'failed',
  error: 'failed',
  cancelled: 'cancelled',
  canceled: 'cancelled',
};

export function canonicalStatus(status: string): string {
  const word = status.trim().toLowerCase();
  return CANONICAL_STATUS[word] ?? word;
}

/** The log a user sees: the runner consumes `::add-mask::` lines (they carry the secret by design). */
export function visibleLog(step: StepView): string {
  return `${step.stdout}\n${step.stderr}`
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('::add-mask::'))
    .join('\n');
}

function isRunning(scan: ScanTruth): boolean {
  return scan.status === 'queued' || scan.status === 'running';
}

/** Scans that appeared during the run with the run's key (others' keys start other jobs' scans). */
export function triggeredScans(o: Observation): ScanTruth[] {
  const before = new Set(o.scansBefore.map((s) => s.id));
  return o.scansAfter.filter(
    (s) => !before.has(s.id) && (o.runKeyId === undefined || s.keyId === o.runKeyId),
  );
}

/** The scan the run worked on: its scan-id output, else the one it triggered, else the followed one. */
export function scanOfRun(o: Observation): ScanTruth | undefined {
  const id = o.main.outputs['scan-id'];
  if (id) return o.scansAfter.find((s) => s.id === id);
  return triggeredScans(o)[0] ?? o.scansAfter.find((s) => s.id === o.scansBefore[0]?.id);
}

const waits = (o: Observation) => (o.inputs.wait ?? 'true').trim().toLowerCase() !== 'false';
const failsOnFindings = (o: Observation) =>
  !['false', 'no', 'off', '0'].includes(
    (o.inputs['fail-on-findings'] ?? 'true').trim().toLowerCase(),
  );
const killedByHarness = (step: StepView) => step.signalsSent.includes('SIGKILL');

// 1 ------------------------------------------------------------------------------------------------
export function checkAtMostOneScan(o: Observation): Violation[] {
  const triggered = triggeredScans(o);
  const violations: Violation[] = [];
  if (triggered.length > 1) {
    violations.push({
      invariant: 1,
      message: `${triggered.length} scans were triggered: ${triggered.map((s) => s.id).join(', ')}`,
    });
  }
  if (o.inputs['scan-id'] && triggered.length > 0) {
    violations.push({
      invariant: 1,
      message: `scan-id was given but scan ${triggered[0]?.id} was triggered`,
    });
  }
  return violations;
}

// 2 ------------------------------------------------------------------------------------------------
function unclearTexts(name: string, step: StepView): Violation[] {
  const texts: Record<string, string> = {
    'error lines': step.errors.join('\n'),
    log: visibleLog(step),
    summary: step.summary,
    outputs: Object.values(step.outputs).join('\n'),
  };
  const violations: Violation[] = [];
  for (const [where, text] of Object.entries(texts)) {
    for (const [pattern, what] of UNCLEAR_TEXT) {
      const match = pattern.exec(text);
      if (!match) continue;
      const line = text.slice(0, match.index).split('\n').length;
      const shown = (text.split('\n')[line - 1] ?? '').trim().slice(0, 160);
      violations.push({
        invariant: 2,
        message: `${name} ${where} shows ${what}: ${JSON.stringify(shown)}`,
      });
    }
  }
  return violations;
}

function checkFailureLine(o: Observation): Violation[] {
  const last = o.main.errors.at(-1);
  if (last === undefined) {
    return [{ invariant: 2, message: `main exited ${o.main.exitCode} without an ::error:: line` }];
  }
  if (last.includes('\n') || !CLASSIFIED_LINE.test(last)) {
    return [
      {
        invariant: 2,
        message: `main's failure line is not one classified line: ${JSON.stringify(last.slice(0, 200))}`,
      },
    ];
  }
  return [];
}

const SEVERITY_RANK: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };
const THRESHOLD_WORDS: Record<string, string> = { moderate: 'medium', severe: 'high' };

/** What the gate should find, from the emulator's ground truth: how many failed findings fail it
 *  (severity threshold, baseline with fail-on new), and the new/fixed counts. The baseline is the
 *  scan the log names; it must be a completed scan of the type created before the run's. */
function expectedGate(
  o: Observation,
  truth: ScanTruth,
): {
  gating: number;
  new: number;
  fixed?: number;
  waived: number;
  overdue?: number;
  problem?: string;
  coverageFails: boolean;
} {
  // Without the per-finding truth (hand-made observations), the scan's count, severity unknown.
  const failed =
    o.failedFindings[truth.id] ??
    Array.from({ length: truth.failed }, (_, i) => ({ checkId: `#${i}`, severity: '' }));
  const word = (o.inputs['fail-on-severity'] ?? '').trim().toLowerCase() || 'info';
  const threshold = SEVERITY_RANK[THRESHOLD_WORDS[word] ?? word] ?? 0;
  const atOrAbove = (severity: string) =>
    o.findingShape === 'sparse' || (SEVERITY_RANK[severity] ?? threshold) >= threshold;
  let before: Set<string> | undefined;
  let problem: string | undefined;
  if (o.inputs.baseline === 'previous') {
    const named = /^Baseline: scan (\S+) of /m.exec(o.main.stdout)?.[1];
    const none = /^Baseline: none — /m.test(o.main.stdout);
    if (named) {
      const scan = o.scansAfter.find((s) => s.id === named);
      if (
        !scan ||
        scan.status !== 'completed' ||
        scan.hidden ||
        scan.scanType !== truth.scanType ||
        !(Date.parse(scan.createdAt) < Date.parse(truth.createdAt))
      ) {
        problem = `the baseline scan ${named} is not a completed ${truth.scanType} scan created before the run's`;
      }
      before = new Set((o.failedFindings[named] ?? []).map((f) => f.checkId));
    } else if (!none) {
      problem = 'baseline previous but the log names no baseline (nor says there is none)';
    }
  }
  const waived = new Set(o.waivedChecks);
  const open = failed.filter((f) => !waived.has(f.checkId));
  const fresh = open.filter((f) => !before?.has(f.checkId));
  const overdue = overdueChecks(o, truth, failed);
  const failOn = o.inputs['fail-on'];
  const counted =
    failOn === 'new'
      ? fresh
      : failOn === 'overdue'
        ? open.filter((f) => overdue.has(f.checkId))
        : open;
  const now = new Set(failed.map((f) => f.checkId));
  const coverage = expectedCoverage(o, truth);
  // With coverage compared, every result was read: a check not evaluated now is not fixed.
  const evaluatedNow = coverage ? new Set(o.evaluatedChecks?.[truth.id] ?? []) : undefined;
  return {
    gating: counted.filter((f) => atOrAbove(f.severity)).length,
    new: fresh.length,
    waived: failed.length - open.length,
    fixed: before
      ? [...before].filter((id) => !now.has(id) && (evaluatedNow?.has(id) ?? true)).length
      : undefined,
    coverageFails: coverage?.fails ?? false,
    overdue: o.inputs.history ? open.filter((f) => overdue.has(f.checkId)).length : undefined,
    problem,
  };
}

/** The baseline scan the run's log names (`Baseline: scan X of …`), with baseline previous. */
function namedBaseline(o: Observation): string | undefined {
  if (o.inputs.baseline !== 'previous') return undefined;
  return /^Baseline: scan (\S+) of /m.exec(o.main.stdout)?.[1];
}

/**
 * Coverage from the ground truth (issue 47): the checks the named baseline scan evaluated that the
 * run's scan did not, and whether they are more than max-coverage-drop percent (default 10) of
 * the baseline's evaluated checks. Undefined when nothing is compared: no baseline named, coverage
 * off (100), or no per-check truth (hand-made observations).
 */
export function expectedCoverage(
  o: Observation,
  truth: ScanTruth,
): { dropped: string[]; base: number; fails: boolean } | undefined {
  const named = namedBaseline(o);
  const raw = (o.inputs['max-coverage-drop'] ?? '').trim();
  const max = raw === '' ? 10 : Number(raw.replace(/%$/, ''));
  if (!named || !(max < 100)) return undefined;
  const before = o.evaluatedChecks?.[named];
  const now = o.evaluatedChecks?.[truth.id];
  if (!before || !now) return undefined;
  const evaluatedNow = new Set(now);
  const base = [...new Set(before)];
  const dropped = base.filter((check) => !evaluatedNow.has(check));
  return { dropped, base: base.length, fails: dropped.length * 100 > max * base.length };
}

const DAY_MS = 86_400_000;
const DEFAULT_SLA: Record<string, number> = {
  critical: 7,
  high: 30,
  medium: 90,
  low: 180,
  info: 365,
};

/**
 * The checks past their deadline, from the ground truth (issue 25): the run scan's failed checks,
 * each with its streak back through the previous completed scans of the type (newest first, the
 * `history` input's count); due at the streak's first scan plus its severity's days, against the
 * run scan's completion. Unknown severity: the strictest deadline; a streak that reaches past the
 * scans read (more exist): overdue; a history the run said it could not read, or dates that
 * disagree with time running forward (clockSkew): all overdue.
 */
function overdueChecks(
  o: Observation,
  truth: ScanTruth,
  failed: Array<{ checkId: string; severity: string }>,
): Set<string> {
  const count = Number(o.inputs.history ?? 0);
  if (!(count > 0)) return new Set();
  if (/History: could not be read whole/.test(o.main.stdout) || clockSkew(o, truth))
    return new Set(failed.map((f) => f.checkId));
  const sla = { ...DEFAULT_SLA };
  for (const part of (o.inputs['sla-days'] ?? '').split(',').filter((p) => p !== '')) {
    const [severity, days] = part.split('=');
    if (severity && days) sla[severity] = Number(days);
  }
  const time = (scan: ScanTruth) => scan.completedAt ?? scan.createdAt;
  const earlier = o.scansAfter
    .filter(
      (s) =>
        s.id !== truth.id &&
        s.status === 'completed' &&
        !s.hidden &&
        s.scanType === truth.scanType &&
        Date.parse(s.createdAt) < Date.parse(truth.createdAt),
    )
    .sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
  const read = earlier.slice(0, count);
  const nowMs = Date.parse(time(truth));
  const overdue = new Set<string>();
  for (const finding of failed) {
    let since = time(truth);
    let broken = false;
    for (const scan of read) {
      if (!(o.failedFindings[scan.id] ?? []).some((f) => f.checkId === finding.checkId)) {
        broken = true;
        break;
      }
      since = time(scan);
    }
    // Sparse findings carry no severity: the action gives them the strictest deadline.
    const severity = o.findingShape === 'sparse' ? 'unknown' : finding.severity;
    const days = sla[severity] ?? Math.min(...Object.values(sla));
    const beyond = !broken && earlier.length > count;
    if (beyond || Date.parse(since) + days * DAY_MS < nowMs) overdue.add(finding.checkId);
  }
  return overdue;
}

/** Whether the ground truth's dates disagree with time running forward (issue 31): a date that
 *  cannot be right (before 2000, a week past this machine's clock), a completed scan of the type
 *  completed after the run's, or — when the run triggered its scan, so every scan it listed
 *  before is earlier — one dated at or after it. */
function clockSkew(o: Observation, truth: ScanTruth): boolean {
  const wrong = (date: string | undefined) => {
    const ms = Date.parse(date ?? '2000-01-01');
    return !(ms >= Date.UTC(2000, 0, 1) && ms <= Date.now() + 7 * DAY_MS);
  };
  const followed = Boolean(o.inputs['scan-id']);
  const end = (scan: ScanTruth) => Date.parse(scan.completedAt ?? scan.createdAt);
  if (wrong(truth.createdAt) || wrong(truth.completedAt)) return true;
  return o.scansAfter.some(
    (s) =>
      s.id !== truth.id &&
      s.status === 'completed' &&
      !s.hidden &&
      s.scanType === truth.scanType &&
      (wrong(s.createdAt) ||
        wrong(s.completedAt) ||
        (!followed && Date.parse(s.createdAt) >= Date.parse(truth.createdAt)) ||
        (Date.parse(s.createdAt) < Date.parse(truth.createdAt) && end(s) > end(truth))),
  );
}

/** A roll-up judges the run's record as the run did (its findings and gate give its verdict), and
 *  the same record edited to say passed over a failed run still fails (issue 31). */
function checkRecordJudged(o: Observation, verdict: string): Violation[] {
  const record = o.record;
  if (!record || o.main.signalsSent.length > 0) return [];
  const violations: Violation[] = [];
  if (record.verdict !== verdict || record.problem !== null) {
    violations.push({
      invariant: 2,
      message: `the roll-up judges the run's record ${record.verdict}${record.problem ? ` (${record.problem})` : ''}, but the run's verdict is ${verdict}`,
    });
  }
  if (record.editedToPass !== undefined && record.editedToPass !== 'failed') {
    violations.push({
      invariant: 2,
      message: `the record of a failed run, edited to say passed, is judged ${record.editedToPass} by the roll-up`,
    });
  }
  return violations;
}

function checkVerdictAgainstTruth(o: Observation, truth: ScanTruth | undefined): Violation[] {
  const out = o.main.outputs;
  const verdict = out.verdict ?? '';
  if (verdict === '') return [];
  if (!truth)
    return [{ invariant: 2, message: `verdict ${verdict} but the emulator has no such scan` }];
  const violations: Violation[] = [];
  const said = (m: string) => violations.push({ invariant: 2, message: m });
  const gate = truth.status === 'completed' ? expectedGate(o, truth) : undefined;
  if (gate?.problem) said(gate.problem);
  const gating = gate?.gating ?? 0;
  const coverageFails = gate?.coverageFails ?? false;
  const truthFails = truth.status !== 'completed' || gating > 0 || coverageFails;
  const what = `the scan is ${truth.status} with ${truth.failed} failed findings, ${gating} failing the gate${coverageFails ? ', its coverage dropped beyond max-coverage-drop' : ''}`;
  if (verdict === 'passed' && truthFails) said(`verdict passed but ${what}`);
  if (verdict === 'failed' && !truthFails) said(`verdict failed but ${what}`);
  if (verdict !== 'passed' && verdict !== 'failed')
    said(`verdict output is ${JSON.stringify(verdict)}`);
  if (out.status && canonicalStatus(out.status) !== truth.status) {
    said(`status output ${JSON.stringify(out.status)} but the scan is ${truth.status}`);
  }
  if (truth.status === 'completed' && out.failed && Number(out.failed) !== truth.failed) {
    said(`failed output ${out.failed} but the scan has ${truth.failed} failed findings`);
  }
  if (gate && out.new && Number(out.new) !== gate.new) {
    said(`new output ${out.new} but ${gate.new} failed findings are not in the baseline`);
  }
  if (gate && out.waived && Number(out.waived) !== gate.waived) {
    said(`waived output ${out.waived} but ${gate.waived} failed findings have a waiver in force`);
  }
  if (gate?.overdue !== undefined && out.overdue && Number(out.overdue) !== gate.overdue) {
    said(
      `overdue output ${out.overdue} but ${gate.overdue} failed findings are past their deadline`,
    );
  }
  if (gate?.fixed !== undefined && out.fixed && Number(out.fixed) !== gate.fixed) {
    said(`fixed output ${out.fixed} but ${gate.fixed} baseline findings no longer fail`);
  }
  if (truth.status === 'completed' && out.total && Number(out.total) !== truth.total) {
    said(`total output ${out.total} but the scan has ${truth.total} checks`);
  }
  const shouldFailStep =
    truth.status !== 'completed' || ((gating > 0 || coverageFails) && failsOnFindings(o));
  if (o.main.exitCode === 0 && shouldFailStep) said(`main passed the step but ${what}`);
  // A job cancelled after a passing verdict fails with a classified cancel line: that is fine.
  const cancelled = o.main.signalsSent.length > 0;
  if (o.main.exitCode !== 0 && verdict === 'passed' && !cancelled) {
    said(`main failed the step with verdict passed`);
  }
  return [...violations, ...checkRecordJudged(o, verdict)];
}

export function checkVerdict(o: Observation): Violation[] {
  const violations = [...unclearTexts('main', o.main)];
  if (o.post) {
    violations.push(...unclearTexts('post', o.post));
    if (o.post.exitCode !== 0) {
      violations.push({
        invariant: 2,
        message: `post step exited ${o.post.exitCode} (cleanup problems must be warnings)`,
      });
    }
  }
  if (o.main.timedOut) {
    return [
      ...violations,
      { invariant: 2, message: 'main step hung: killed by the harness safety timeout' },
    ];
  }
  if (o.cancelKind === 'sigint' && killedByHarness(o.main)) {
    violations.push({
      invariant: 2,
      message: `main did not end within the runner's grace after SIGINT (signals sent: ${o.main.signalsSent.join(', ')})`,
    });
  }
  // Ended by a signal (a kill, or SIGINT before the action had installed its handler): the runner
  // says "cancelled"; nothing of the action's own outcome to judge beyond what it printed.
  if (o.main.signal !== null) return violations;
  if (o.main.exitCode !== 0) violations.push(...checkFailureLine(o));
  const truth = scanOfRun(o);
  if (waits(o)) {
    if (o.main.exitCode === 0 && !o.main.outputs.verdict) {
      violations.push({ invariant: 2, message: 'main passed the step without a verdict' });
    }
    violations.push(...checkVerdictAgainstTruth(o, truth));
  } else if (o.main.outputs.verdict) {
    violations.push({
      invariant: 2,
      message: `wait is false but verdict is ${o.main.outputs.verdict}`,
    });
  }
  const reported = o.main.outputs['scan-id'];
  const ours = new Set([...triggeredScans(o).map((s) => s.id), o.inputs['scan-id']]);
  if (reported && truth && !ours.has(reported) && !tookAnotherJobsScanInTheRace(o)) {
    violations.push({
      invariant: 2,
      message: `scan-id output ${reported} is a scan the run neither triggered nor was given`,
    });
  }
  if (o.main.outputs['scan-id'] && !truth) {
    violations.push({
      invariant: 2,
      message: `scan-id output ${o.main.outputs['scan-id']} is no scan of the tenant`,
    });
  }
  return violations;
}

// 3 ------------------------------------------------------------------------------------------------
export function checkReportFile(o: Observation): Violation[] {
  const violations: Violation[] = [];
  const report = o.files.find((f) => f.path === o.reportFile);
  const truth = scanOfRun(o);
  if (report) {
    const expected = truth ? o.reportDigests[truth.id] : undefined;
    if (expected === undefined || report.sha256 !== expected) {
      violations.push({
        invariant: 3,
        message: `report file ${report.path} (${report.bytes} bytes) does not match the report's sha256`,
      });
    }
  }
  if (o.main.outputs['report-path'] && !report && !killedByHarness(o.main)) {
    violations.push({
      invariant: 3,
      message: `report-path output is set but ${o.reportFile} does not exist`,
    });
  }
  const given = new Set(o.givenFiles.map((path) => `${o.workspacePrefix}${path}`));
  const leftovers = o.files.filter(
    (f) => f.path.startsWith(o.workspacePrefix) && f.path !== o.reportFile && !given.has(f.path),
  );
  for (const file of leftovers) {
    violations.push({
      invariant: 3,
      message: `file left in the workspace: ${file.path} (${file.bytes} bytes)`,
    });
  }
  for (const sha of o.uploadedReports) {
    if (!truth || sha !== o.reportDigests[truth.id]) {
      violations.push({
        invariant: 3,
        message: `uploaded report artifact does not match the report's sha256`,
      });
    }
  }
  return violations;
}

// 4 ------------------------------------------------------------------------------------------------
/** The outcome of the last lookup after a lost trigger answer, as the steps saved it (state
 *  `lost-trigger`): post's when it looked again, else main's; undefined when none was done. */
export function lostTriggerLookup(o: Observation): string | undefined {
  return o.post?.state[LOST_TRIGGER_STATE] || o.main.state[LOST_TRIGGER_STATE] || undefined;
}

/**
 * The documented known gap (README, "Known gaps"): a lost trigger answer while another job's scan
 * of the same type was created between the scan list read right before the trigger and the
 * trigger itself (one round trip). The lookup then finds two candidates, refuses to guess (state
 * `lost-trigger=several`), says so in one classified line and cancels nothing, so the run's own
 * scan may be left running. Counted as that gap, not as a new break. Read from the structured
 * state the steps save, never from the wording of a message.
 */
export function refusedAmbiguousLostTrigger(o: Observation): boolean {
  return lostTriggerLookup(o) === 'several';
}

/**
 * The other face of the same gap: the trigger never reached the service (a reset before it was
 * handled) while another job's scan of the same type was created in that round trip. The lookup
 * then finds one candidate, the other job's, and follows it (state `lost-trigger=found`). Read from
 * the saved state and the ground truth: the scan the run reports was created during the run by
 * another key.
 */
export function tookAnotherJobsScanInTheRace(o: Observation): boolean {
  if (lostTriggerLookup(o) !== 'found' || o.runKeyId === undefined) return false;
  const reported = o.scansAfter.find((s) => s.id === o.main.outputs['scan-id']);
  const existedBefore = o.scansBefore.some((s) => s.id === reported?.id);
  return reported !== undefined && !existedBefore && reported.keyId !== o.runKeyId;
}

export function checkNoScanLeftRunning(o: Observation): Violation[] {
  const violations: Violation[] = [];
  if (waits(o) && !refusedAmbiguousLostTrigger(o)) {
    for (const scan of triggeredScans(o).filter(isRunning)) {
      violations.push({
        invariant: 4,
        message: `scan ${scan.id} triggered by the run is still ${scan.status} (${scan.progress}%) after main${o.post ? ' and post' : ''}`,
      });
    }
  }
  const triggered = new Set(triggeredScans(o).map((s) => s.id));
  for (const after of o.scansAfter.filter((s) => !triggered.has(s.id))) {
    const before = o.scansBefore.find((s) => s.id === after.id);
    if (before?.status !== 'cancelled' && after.status === 'cancelled') {
      const whose = after.id === o.inputs['scan-id'] ? 'followed (scan-id)' : "another job's";
      violations.push({
        invariant: 4,
        message: `scan ${after.id}, ${whose}, not triggered by the run, was cancelled by the run`,
      });
    }
  }
  return violations;
}

// 5 ------------------------------------------------------------------------------------------------
function stepLeaks(name: string, step: StepView, key: string): string[] {
  const places: Record<string, string> = {
    log: visibleLog(step),
    outputs: JSON.stringify(step.outputs),
    state: JSON.stringify(step.state),
    summary: step.summary,
  };
  return Object.entries(places)
    .filter(([, text]) => containsSecret(text, key))
    .map(([where]) => `${name} ${where}`);
}

/** The key is registered as a secret (`::add-mask::`) before the step prints anything else. */
function checkMaskedFirst(o: Observation): Violation[] {
  const lines = o.main.stdout.split('\n').map((line) => line.trim());
  const maskAt = lines.indexOf(`::add-mask::${o.apiKey}`);
  // Killed before it printed anything: nothing was shown unmasked.
  if (maskAt === -1 && lines.every((line) => line === '')) return [];
  if (maskAt === -1)
    return [{ invariant: 5, message: 'the API key was never masked (::add-mask::)' }];
  const before = lines
    .slice(0, maskAt)
    .filter(
      (line) => line !== '' && !line.startsWith('::add-mask::') && !line.startsWith('::debug::'),
    );
  if (before.length === 0) return [];
  return [
    {
      invariant: 5,
      message: `the key was masked only after: ${JSON.stringify(before[0]?.slice(0, 120))}`,
    },
  ];
}

export function checkKeyStaysWithApi(o: Observation): Violation[] {
  const places = [
    ...stepLeaks('main', o.main, o.apiKey),
    ...(o.post ? stepLeaks('post', o.post, o.apiKey) : []),
    ...[...(o.githubMarkdown ?? []), ...(o.githubTitles ?? [])]
      .filter((text) => containsSecret(text, o.apiKey))
      .map(() => 'a body or title sent to GitHub'),
    ...o.foreignRequests.flatMap((r) =>
      r.keyFoundIn.map((where) => `${r.origin} ${r.method} ${r.path} ${where}`),
    ),
    ...o.files.filter((f) => f.containsKey).map((f) => `file ${f.path}`),
  ];
  return [
    ...checkMaskedFirst(o),
    ...places.map((place) => ({ invariant: 5 as const, message: `the API key reached ${place}` })),
  ];
}

// 6 ------------------------------------------------------------------------------------------------
export function checkCredits(o: Observation): Violation[] {
  const violations: Violation[] = [];
  const spent = o.creditsAfter - o.creditsBefore;
  const generate = (o.inputs.report ?? '').trim().toLowerCase() === 'generate';
  if (spent > 0 && !generate) {
    violations.push({
      invariant: 6,
      message: `${spent} report credit(s) spent with report: ${o.inputs.report ?? '(default)'}`,
    });
  }
  if (spent > 1)
    violations.push({ invariant: 6, message: `${spent} report credits spent in one run` });
  const generateCalls = o.apiRequests.filter(
    (r) => r.method === 'POST' && /\/report\/generate$/.test(r.path),
  );
  if (!generate && generateCalls.length > 0) {
    violations.push({
      invariant: 6,
      message: `report generation was requested with report: ${o.inputs.report ?? '(default)'}`,
    });
  }
  return violations;
}

// 7 ------------------------------------------------------------------------------------------------
/** What the whole step may hold in memory, whatever a single answer does (issue 18). Tighter than
 *  guarantee 7's 700 MB, which is for reads at the caps: the campaign's reads are small (at most
 *  60 results), so 300 MiB is room enough beside any hostile answer (150 MiB, a 3 GiB report). */
export const MEMORY_BOUND_BYTES = 300 * 1024 * 1024;
/** Over the request timeout: undici's coarse timers (about a second) and the emulator's log. */
export const DEADLINE_GRACE_MS = 2_500;
const DEFAULT_REQUEST_TIMEOUT_MS = 120_000;
const HOSTILE_FAULTS = new Set(['endless-body', 'huge-body', 'trickle', 'no-answer']);
/** The words a message uses when a bound stopped a request. */
const BOUND_HIT =
  /the answer exceeded|the pages' answers passed|no (?:complete )?answer within|nothing received for|larger than the .* cap/;
/** ...which must follow the route (or the download's origin) it stopped. */
const NAMES_ROUTE =
  /((GET|POST|PUT|PATCH|DELETE) \/\S*|Report download from \S+): (the answer exceeded|the pages' answers passed|no (?:complete )?answer within|nothing received for|the report is larger than)/;

export function requestTimeoutMs(o: Observation): number {
  const raw = (o.inputs['request-timeout-seconds'] ?? '').trim();
  return raw === '' ? DEFAULT_REQUEST_TIMEOUT_MS : Number(raw) * 1000;
}

export function checkBounded(o: Observation): Violation[] {
  const violations: Violation[] = [];
  const said = (message: string) => violations.push({ invariant: 7, message });
  for (const [name, step] of [
    ['main', o.main],
    ['post', o.post],
  ] as const) {
    if (step?.peakRssBytes !== undefined && step.peakRssBytes > MEMORY_BOUND_BYTES) {
      said(`${name} step peaked at ${Math.round(step.peakRssBytes / 2 ** 20)} MiB of memory`);
    }
  }
  const limit = requestTimeoutMs(o) + DEADLINE_GRACE_MS;
  const exchanges = [
    ...o.apiRequests.map((r) => ({ ...r, what: `${r.method} ${r.path}` })),
    ...(o.downloads ?? []).map((d) => ({ ...d, what: 'the download' })),
  ];
  for (const r of exchanges) {
    if (r.fault && HOSTILE_FAULTS.has(r.fault) && (r.durationMs ?? 0) > limit) {
      said(`${r.what} (${r.fault}) lasted ${r.durationMs} ms, over its ${limit} ms deadline`);
    }
  }
  for (const [name, step] of [
    ['main', o.main],
    ['post', o.post],
  ] as const) {
    for (const line of step ? visibleLog(step).split('\n') : []) {
      if (BOUND_HIT.test(line) && !NAMES_ROUTE.test(line)) {
        said(
          `${name}: a bound was hit without naming its route: ${JSON.stringify(line.slice(0, 200))}`,
        );
      }
    }
  }
  return violations;
}

// 8 ------------------------------------------------------------------------------------------------
/** Anything a terminal would act on: C0 but tab and line feed, DEL, C1, bidi and zero-width marks. */
// eslint-disable-next-line no-control-regex
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/;

export function checkNoControls(o: Observation): Violation[] {
  const violations: Violation[] = [];
  for (const [name, step] of [
    ['main', o.main],
    ['post', o.post],
  ] as const) {
    if (!step) continue;
    const places = { log: visibleLog(step), summary: step.summary, errors: step.errors.join('\n') };
    for (const [where, text] of Object.entries(places)) {
      const found = CONTROLS.exec(text);
      if (found) {
        const code = found[0].codePointAt(0)?.toString(16).padStart(4, '0');
        violations.push({ invariant: 8, message: `${name} ${where} shows U+${code}` });
      }
    }
  }
  return violations;
}

/** The run's own page, as the runner the campaign starts names it (the PR comment links it). */
const RUN_PAGE = `https://github.com/${DEFAULT_REPOSITORY}/actions/runs/${DEFAULT_RUN_ID}`;

/** Links the action itself renders: the findings' references, the report artifact and the run. */
function ownLink(o: Observation, address: string): boolean {
  return (
    address.startsWith(REFERENCE_BASE) ||
    address === o.main.outputs['artifact-url'] ||
    address === RUN_PAGE
  );
}

/** Markup GitHub would make live in a summary, a PR comment or a check run: a mention, an issue
 *  reference, an image, HTML (but the comment's hidden marker) or a link the action did not make. */
export function checkPlainMarkdown(o: Observation): Violation[] {
  const texts: Array<[string, string]> = [
    ['main summary', o.main.summary],
    ...(o.githubMarkdown ?? []).map((text, i): [string, string] => [`GitHub body ${i + 1}`, text]),
  ];
  const violations: Violation[] = [];
  for (const [where, text] of texts) {
    const live = liveMarkup(text).filter(
      (m) =>
        !(m.kind === 'link' && ownLink(o, m.text)) && !(m.kind === 'html' && isOurMarker(m.text)),
    );
    for (const m of live.slice(0, 3)) {
      violations.push({
        invariant: 8,
        message: `${where} has a live ${m.kind}: ${JSON.stringify(m.text.slice(0, 80))}`,
      });
    }
  }
  return violations;
}

// 9 ------------------------------------------------------------------------------------------------
/** Faults that leave a results read not whole whatever the client does. */
const BROKEN_READ = new Set(['data', 'endless-cursor']);

/**
 * A verdict rests only on results read whole: no page of the run's scan answered with something
 * that is not a list or with a cursor that never ends, and (when the service shows counts and the
 * scan has failed findings) at least one read of every page that a drop-failed fault did not hit.
 * A read starts with a request without a cursor.
 */
export function checkWholeRead(o: Observation): Violation[] {
  const verdict = o.main.outputs.verdict ?? '';
  const truth = scanOfRun(o);
  if (verdict === '' || !truth) return [];
  const path = `/scans/${encodeURIComponent(truth.id)}/results`;
  const reads: Array<Array<{ fault?: string }>> = [];
  for (const r of o.apiRequests.filter((r) => r.method === 'GET' && r.path === path)) {
    if (!/(^|&)cursor=/.test(r.query ?? '') || reads.length === 0) reads.push([]);
    reads.at(-1)?.push({ fault: r.fault });
  }
  const broken = reads.flat().find((r) => r.fault && BROKEN_READ.has(r.fault));
  if (broken) {
    return [
      {
        invariant: 9,
        message: `verdict ${verdict} although a results page was hit by ${broken.fault}`,
      },
    ];
  }
  const short = (read: Array<{ fault?: string }>) => read.some((r) => r.fault === 'drop-failed');
  if (o.countsShown !== false && truth.failed > 0 && reads.length > 0 && reads.every(short)) {
    return [
      {
        invariant: 9,
        message: `verdict ${verdict} although every results read left out failed results (the counts say ${truth.failed})`,
      },
    ];
  }
  return [];
}

// 10 -----------------------------------------------------------------------------------------------
/**
 * Tracking issues (tracking-issue on): never two open issues for one thing (one marker); none
 * created or edited by a run without a verdict; with `one`, an undisturbed run leaves its issue open
 * exactly when the verdict is failed. An outsider's issue or PR comment that carries our marker (and
 * a forged state line) is never changed nor written to. Issue and check run titles are plain: no
 * mention or issue reference GitHub would link.
 */
export function checkTracking(o: Observation): Violation[] {
  const violations: Violation[] = [];
  const say = (message: string) => violations.push({ invariant: 10, message });
  for (const title of o.githubTitles ?? []) {
    if (/(?:^|[^\w`])[@#][\w]/.test(title))
      say(`a title GitHub would link: ${JSON.stringify(title)}`);
  }
  for (const item of o.foreignItems ?? []) {
    if (item.changed || item.writes > 0)
      say(
        `an outsider's ${item.kind} ${item.kind === 'issue' ? '#' : ''}${item.id} carrying our marker was ${item.changed ? 'changed' : 'written to'} (${item.writes} writes): only what we wrote is ours`,
      );
  }
  const issues = o.trackingIssues;
  if (!issues) return violations;
  const open = issues.filter((issue) => issue.state === 'open');
  const markers = open.flatMap((issue) => issue.markers);
  const twice = markers.find((marker, i) => markers.indexOf(marker) !== i);
  if (twice) say(`two open issues carry ${twice}`);
  const verdict = o.main.outputs.verdict ?? '';
  if (verdict === '' && (o.trackingWrites ?? 0) > 0)
    say(`${o.trackingWrites} issue writes by a run without a verdict`);
  const undisturbed = o.cancelKind === 'none' && !o.main.timedOut;
  if (o.inputs['tracking-issue'] === 'one' && undisturbed && verdict !== '') {
    const expected = verdict === 'failed' ? 1 : 0;
    if (open.length !== expected)
      say(`verdict ${verdict} but ${open.length} open tracking issues (expected ${expected})`);
  }
  return violations;
}

// 14 -----------------------------------------------------------------------------------------------
/**
 * Coverage and stalls (issue 47). With a baseline named and coverage on: when the truth's drop is
 * more than max-coverage-drop, the verdict is failed and the log says `Coverage dropped: N of M
 * checks …`, naming a dropped check; within it, the log never says so. With stall-minutes: a scan
 * whose progress stopped for good is never passed (no verdict, the step fails); a `stalled` line
 * comes only with stall-minutes, and names the progress the scan stopped at.
 */
export function checkCoverageAndStalls(o: Observation): Violation[] {
  const violations: Violation[] = [];
  const say = (message: string) => violations.push({ invariant: 14, message });
  const truth = scanOfRun(o);
  const verdict = o.main.outputs.verdict ?? '';
  const log = visibleLog(o.main);
  const coverage =
    truth?.status === 'completed' && verdict !== '' ? expectedCoverage(o, truth) : undefined;
  if (coverage?.fails) {
    const line = `Coverage dropped: ${coverage.dropped.length} of ${coverage.base} check`;
    if (verdict !== 'failed')
      say(
        `verdict ${verdict} although ${coverage.dropped.length} of the ${coverage.base} checks the baseline evaluated were not evaluated now`,
      );
    if (!log.includes(line)) say(`the log does not say "${line}…"`);
    else if (!log.includes(coverage.dropped[0] ?? ''))
      say(`the coverage line does not name ${coverage.dropped[0]}`);
  } else if (coverage && /Coverage dropped:/.test(log)) {
    say(
      `the log says coverage dropped, but ${coverage.dropped.length} of ${coverage.base} is within max-coverage-drop`,
    );
  }
  const stallMinutes = Number(o.inputs['stall-minutes'] || 0);
  const stalled = o.main.errors.find((line) => /the scan stalled: no progress for/.test(line));
  if (stalled && !(stallMinutes > 0)) say(`a stalled line without stall-minutes: ${stalled}`);
  const undisturbed = o.cancelKind === 'none' && !o.main.timedOut && o.main.signal === null;
  if (o.stalledForGood && stallMinutes > 0 && undisturbed) {
    if (verdict !== '') say(`verdict ${verdict} for a scan whose progress stopped for good`);
    if (o.main.exitCode === 0) say('the step passed a scan whose progress stopped for good');
  }
  const at = stalled ? /\(at (\d+) %/.exec(stalled)?.[1] : undefined;
  if (at !== undefined && truth && o.stalledForGood && Number(at) !== truth.progress)
    say(`the stalled line says ${at} %, but the scan stopped at ${truth.progress} %`);
  return violations;
}

export function checkInvariants(o: Observation): Violation[] {
  return [
    ...checkAtMostOneScan(o),
    ...checkVerdict(o),
    ...checkReportFile(o),
    ...checkNoScanLeftRunning(o),
    ...checkKeyStaysWithApi(o),
    ...checkCredits(o),
    ...checkBounded(o),
    ...checkNoControls(o),
    ...checkPlainMarkdown(o),
    ...checkWholeRead(o),
    ...checkTracking(o),
    ...checkCoverageAndStalls(o),
  ];
}
