// The job's verdict, pure (job/verdict.ts): decided once from the scan's end and the gate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FindingView, Scan, ScanPhase } from '../../../src/client/types.js';
import { DEFAULT_GATE, gateReason, judgeFindings } from '../../../src/pipeline/gate/judge.js';
import { decideVerdict } from '../../../src/pipeline/job/verdict.js';

function scan(phase: ScanPhase, status: string = phase): Scan {
  return { id: 's1', status, phase, knownStatus: true, terminal: phase !== 'running', raw: {} };
}

function finding(identity: string, severity: FindingView['severity']): FindingView {
  return { id: identity, identity, title: identity, severity, result: 'Failed' };
}

const judged = (failed: FindingView[], threshold: 'info' | 'high' = 'info') =>
  judgeFindings(
    failed,
    { ...DEFAULT_GATE, threshold },
    { baseline: { kind: 'none' }, waivers: [] },
    Date.now(),
  );

describe('decideVerdict', () => {
  it('not waited for: no verdict, the step does not fail', () => {
    const verdict = decideVerdict({ waited: false, scan: scan('running'), failOnFindings: true });
    assert.deepEqual(verdict, { completed: false, failStep: false });
  });

  it('a scan that ended otherwise than succeeded: failed, with its status, whatever the gate', () => {
    const verdict = decideVerdict({
      waited: true,
      scan: scan('cancelled', 'Cancelled'),
      failOnFindings: false,
    });
    assert.equal(verdict.completed, false);
    assert.equal(verdict.verdict, 'failed');
    assert.equal(verdict.verdictReason, 'the scan ended with status "Cancelled"');
    assert.equal(verdict.failStep, true);
  });

  it('succeeded but not judged (results unread) is not completed', () => {
    const verdict = decideVerdict({ waited: true, scan: scan('succeeded'), failOnFindings: true });
    assert.equal(verdict.completed, false);
    assert.equal(verdict.verdict, 'failed');
  });

  it('judged: passed without gating findings, failed with them; the step only when asked', () => {
    const clean = decideVerdict({
      waited: true,
      scan: scan('succeeded'),
      gate: judged([finding('low-1', 'low')], 'high'),
      failOnFindings: true,
    });
    assert.equal(clean.completed, true);
    assert.equal(clean.verdict, 'passed');
    assert.equal(clean.failStep, false);
    const gate = judged([finding('crit-1', 'critical'), finding('low-1', 'low')], 'high');
    const red = decideVerdict({
      waited: true,
      scan: scan('succeeded'),
      gate,
      failOnFindings: true,
    });
    assert.equal(red.verdict, 'failed');
    assert.match(red.verdictReason ?? '', /1 failed finding at high or above/);
    assert.equal(red.failStep, true);
    const quiet = decideVerdict({
      waited: true,
      scan: scan('succeeded'),
      gate,
      failOnFindings: false,
    });
    assert.equal(quiet.verdict, 'failed');
    assert.equal(quiet.failStep, false, 'fail-on-findings: false keeps the step green');
  });
});

describe('gateReason', () => {
  it('a waiver ending in 5 days is one "expiring within 7 days", one in 10 days is not', () => {
    const now = Date.parse('2026-11-20T10:00:00Z');
    const waiver = (check: string, expires: string, line: number) => ({
      check,
      reason: 'r',
      expires,
      line,
    });
    const gate = judgeFindings(
      [finding('CHK-1', 'high'), finding('CHK-2', 'high')],
      DEFAULT_GATE,
      {
        baseline: { kind: 'none' },
        waivers: [waiver('CHK-1', '2026-11-25', 1), waiver('CHK-2', '2026-11-30', 2)],
      },
      now,
    );
    assert.equal(
      gateReason(gate),
      'no failed findings; 2 waived (2 accepted risks), 1 expiring within 7 days',
    );
  });
});
