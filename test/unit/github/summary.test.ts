// The summary and annotation builders in-process: size limits cut on character boundaries, rows
// dropped with an "and N more" line, server text that cannot break the Markdown, fallbacks.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scan } from '../../../src/client/types.js';
import { annotationOrder, planAnnotations } from '../../../src/github/annotations.js';
import { cutBytes } from '../../../src/pipeline/common/markdown.js';
import { buildSummary } from '../../../src/github/summary.js';
import { liveMarkup, renderedText, tables } from '../../helpers/gfm.js';
import type { JudgedFinding } from '../../../src/pipeline/gate/judge.js';
import type { JobResult } from '../../../src/pipeline/job/types.js';
import { judgedRun, view } from './pr-comment-sample.js';

function finding(index: number, patch: Partial<JudgedFinding> = {}): JudgedFinding {
  return {
    id: `f-${index}`,
    identity: `CHK-${index}`,
    gating: true,
    title: `Check number ${index}`,
    severity: 'high',
    category: 'Identity',
    remediation: 'Turn it off.',
    reference: 'https://docs.example.com/x',
    result: 'Failed',
    ...patch,
  };
}

function resultWith(findings: JudgedFinding[]): JobResult {
  const scan: Scan = {
    id: 'scan-1',
    status: 'completed',
    phase: 'succeeded',
    knownStatus: true,
    terminal: true,
    raw: {},
  };
  return {
    scanId: 'scan-1',
    status: 'completed',
    scan,
    verdict: findings.length > 0 ? 'failed' : 'passed',
    failed: findings.length,
    findings,
    fixed: [],
    resultsPath: '/tmp/results.json',
    report: { policy: 'none' },
    failureReason: findings.length > 0 ? `${findings.length} failed findings` : undefined,
    failStep: findings.length > 0,
    triggered: true,
  };
}

describe('buildSummary', () => {
  it('puts the verdict first', () => {
    assert.match(buildSummary({ result: resultWith([]) }), /^## ✅ Tenant scan passed/);
    assert.match(
      renderedText(buildSummary({ result: resultWith([]) })),
      /^✅ Tenant scan passed: no failed findings\n/,
    );
    assert.match(buildSummary({ result: resultWith([finding(1)]) }), /^## ❌ Tenant scan failed/);
  });

  it("ends the waiver's reason with a stop before the remediation, unless it has one", () => {
    const waived = (reason: string) =>
      finding(1, {
        gating: false,
        waiver: { check: 'CHK-1', reason, expires: '2026-12-03', line: 2 },
      });
    const text = renderedText(
      buildSummary({ result: resultWith([waived('Until the accounts are live')]) }),
    );
    assert.match(
      text,
      /Waived \(accepted risk\) until 2026-12-03: Until the accounts are live\. Turn it off\./,
    );
    const stopped = renderedText(buildSummary({ result: resultWith([waived('Agreed!')]) }));
    assert.match(stopped, /Waived \(accepted risk\) until 2026-12-03: Agreed! Turn it off\./);
  });

  it('drops rows that do not fit, says how many more, and stays under the limit', () => {
    const findings = Array.from({ length: 500 }, (_, i) =>
      finding(i, { remediation: 'é'.repeat(300) }),
    );
    const text = buildSummary({ result: resultWith(findings) }, 20_000);
    assert.ok(Buffer.byteLength(text) <= 20_000);
    const shown = (text.match(/\| Check number \d+/g) ?? []).length;
    assert.ok(shown > 0 && shown < 500);
    assert.ok(text.includes(`…and ${500 - shown} more failed findings — see the results file`));
    assert.doesNotMatch(text, /\uFFFD/);
  });

  it('keeps server text from breaking the table or injecting HTML', () => {
    const nasty = finding(1, {
      title: 'a | b <script>alert(1)</script>\n| new row',
      reference: 'javascript:alert(1)',
    });
    const text = buildSummary({ result: resultWith([nasty]) });
    assert.deepEqual(liveMarkup(text), []);
    const findingsTable = tables(text).find((t) => t.header.includes('Finding'));
    assert.deepEqual(findingsTable?.rows, [3], 'one row of three cells');
    assert.match(renderedText(text), /a \| b <script>alert\(1\)<\/script> \| new row/);
  });

  it('falls back for findings with nothing but an id', () => {
    const sparse: JudgedFinding = {
      id: 'only-id',
      identity: 'only-id',
      gating: true,
      title: 'only-id',
      severity: 'unknown',
      result: 'Failed',
    };
    const text = buildSummary({ result: resultWith([sparse]) });
    assert.match(text, /### Unknown severity \(1\)/);
    assert.doesNotMatch(text, /undefined/);
  });

  it('an error summary states the error first, then whose move it is', () => {
    const text = buildSummary({
      error: 'Trigger failed: quota',
      errorHeading: 'Trigger failed',
      errorKind: 'user',
      scanId: 'x',
    });
    assert.match(text, /^## ❌ Tenant scan error\\: Trigger failed\n\n/);
    assert.match(
      renderedText(text),
      /^❌ Tenant scan error: Trigger failed\nTrigger failed: quota\nThis needs a change on your side/,
    );
    const failure = buildSummary({
      error: 'Connection failed: nothing answers',
      errorHeading: 'Connection failed',
      errorKind: 'failure',
    });
    assert.match(
      renderedText(failure),
      /^❌ Tenant scan error: Connection failed\n.*\nThe service or the network failed: re-running/,
    );
  });

  it('an error that is not the job’s own says the run stopped', () => {
    const text = buildSummary({ error: 'Unexpected error: boom' });
    assert.match(
      renderedText(text),
      /^❌ Tenant scan error: the run stopped\nUnexpected error: boom$/,
    );
  });

  it('the failed counts add up to "Failed in all"; the fixed ones are a line apart', () => {
    const result = judgedRun([view(1), view(2, { severity: 'low' }), view(3)], {
      settings: { threshold: 'medium', failOn: 'new', baseline: { kind: 'previous' } },
      baseline: [view(1), view(9)],
    });
    const markdown = buildSummary({ result });
    const counts = tables(markdown).find((t) => t.header[0] === 'Failed findings');
    assert.ok(counts, 'a counts table');
    const text = renderedText(markdown);
    const table = text.split('\n').filter((line) => / \| \d+$/.test(line));
    const rows = table.slice(0, table.findIndex((line) => line.startsWith('Failed in all')) + 1);
    assert.deepEqual(rows, [
      'Fail the gate (new, at medium or above) | 1',
      'New, below medium | 1',
      'Unchanged since the baseline | 1',
      'Failed in all | 3',
    ]);
    assert.match(text, /^Fixed since the baseline \(1\): CHK-9$/m);
    const none = judgedRun([view(1)], { baseline: [view(1)] });
    assert.match(renderedText(buildSummary({ result: none })), /^Fixed since the baseline: none$/m);
    assert.doesNotMatch(renderedText(buildSummary({ result: judgedRun([view(1)]) })), /Fixed/);
  });
});

describe('cutBytes', () => {
  it('never splits a character', () => {
    assert.equal(cutBytes('aé😀b', 4), 'aé');
    assert.equal(cutBytes('aé😀b', 7), 'aé😀');
  });
});

describe('planAnnotations', () => {
  it('annotates up to the limit, worst first as given, then one line for the rest', () => {
    const findings = [
      finding(1, { severity: 'critical' }),
      finding(2, { severity: 'medium' }),
      finding(3, { severity: 'low' }),
    ];
    const plan = planAnnotations(findings, 2);
    assert.deepEqual(
      plan.annotations.map((a) => a.level),
      ['error', 'warning'],
    );
    assert.equal(
      plan.more,
      '…and 1 more failed finding not annotated — see the job summary and the results file',
    );
    assert.equal(planAnnotations(findings, 0).annotations.length, 0);
    assert.equal(planAnnotations(findings, 5).more, undefined);
  });
});

describe('annotationOrder ("worst first")', () => {
  it('the findings that fail the gate first, each group critical first; waived ones not at all', () => {
    const findings = [
      finding(1, { severity: 'medium', gating: true, baselineState: 'new' }),
      finding(2, { severity: 'low', gating: false, baselineState: 'new' }),
      finding(3, { severity: 'high', gating: true, baselineState: 'new' }),
      finding(4, { severity: 'critical', gating: false, baselineState: 'unchanged' }),
      finding(5, {
        severity: 'critical',
        gating: false,
        waiver: { check: 'CHK-5', reason: 'r', expires: '2099-01-01', line: 1 },
      }),
    ];
    assert.deepEqual(
      annotationOrder(findings).map((f) => f.id),
      ['f-3', 'f-1', 'f-4', 'f-2'],
    );
  });
});
