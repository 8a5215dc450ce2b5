// A judged run for the PR comment's tests, judged by the gate itself (judgeFindings) so that its
// counts, order and waivers are the ones a run has.
import type { FindingView, Scan } from '../../../src/client/types.js';
import {
  DEFAULT_GATE,
  judgeFindings,
  type GateSettings,
  type Waiver,
} from '../../../src/pipeline/gate/judge.js';
import type { JobResult } from '../../../src/pipeline/job/types.js';

export const NOW = Date.parse('2026-11-20T10:00:00Z');

export function view(index: number, patch: Partial<FindingView> = {}): FindingView {
  return {
    id: `f-${index}`,
    identity: `CHK-${index}`,
    title: `Check number ${index}`,
    severity: 'high',
    category: 'Identity',
    remediation: 'Turn it on',
    reference: 'https://docs.example.com/x',
    result: 'Failed',
    ...patch,
  };
}

export interface Judging {
  settings?: GateSettings;
  waivers?: Waiver[];
  baseline?: FindingView[];
}

export function judgedRun(failed: FindingView[], judging: Judging = {}): JobResult {
  const settings = judging.settings ?? DEFAULT_GATE;
  const gate = judgeFindings(
    failed,
    judging.baseline ? { ...settings, baseline: { kind: 'previous' } } : settings,
    {
      baseline: judging.baseline
        ? { kind: 'found', source: 'scan X of 2026-11-19', failed: judging.baseline }
        : { kind: 'none' },
      waivers: judging.waivers ?? [],
    },
    NOW,
  );
  const scan: Scan = {
    id: 'scan-1',
    status: 'completed',
    phase: 'succeeded',
    knownStatus: true,
    terminal: true,
    raw: {},
  };
  const failing = gate.counts.gating > 0;
  return {
    scanId: 'scan-1',
    status: 'completed',
    scan,
    verdict: failing ? 'failed' : 'passed',
    failed: gate.findings.length,
    findings: gate.findings,
    gate,
    fixed: gate.fixed,
    report: { policy: 'none' },
    failureReason: failing ? `${gate.counts.gating} failed findings` : undefined,
    failStep: failing,
    triggered: true,
  };
}
