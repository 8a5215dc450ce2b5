// The pure core of the notification: what changed since the baseline and whether a run speaks
// under each notify-on word, from the gate's own judgement (judgeFindings).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FindingView, Severity } from '../../../src/client/types.js';
import {
  judgeFindings,
  type BaselineRead,
  type GateSettings,
  type Waiver,
} from '../../../src/pipeline/gate/judge.js';
import {
  changedSinceBaseline,
  changesOf,
  decideNotify,
  type RunEnd,
} from '../../../src/pipeline/notify/changes.js';
import type { NotifyMessage } from '../../../src/pipeline/notify/notify.js';
import { chatMessageOf } from '../../../src/render/notify-message.js';
import type { FindingAge } from '../../../src/pipeline/gate/deadlines.js';
import { decideFleetNotify } from '../../../src/pipeline/notify/fleet.js';
import type { Rollup, TenantRow } from '../../../src/pipeline/rollup/rollup.js';

const NOW = Date.parse('2026-11-26T12:00:00Z');
const BASELINE_AT = '2026-11-25T12:00:00Z';

function finding(identity: string, severity: Severity = 'high'): FindingView {
  return { id: identity, identity, title: `Title of ${identity}`, severity, result: 'fail' };
}

const ANY: GateSettings = { threshold: 'info', failOn: 'any', baseline: { kind: 'previous' } };

/** `at` null: a baseline file (no time). */
function found(failed: FindingView[], at: string | null = BASELINE_AT): BaselineRead {
  return { kind: 'found', source: 'scan s1 of 2026-11-25', failed, at: at ?? undefined };
}

function judged(
  failed: FindingView[],
  baseline: BaselineRead,
  options: {
    settings?: GateSettings;
    waivers?: Waiver[];
    ages?: Map<string, FindingAge>;
  } = {},
): RunEnd {
  const settings = options.settings ?? ANY;
  const gate = judgeFindings(
    failed,
    settings,
    {
      baseline,
      waivers: options.waivers ?? [],
      ages: options.ages,
      history: options.ages ? { kind: 'read', scans: [], complete: true, later: 0 } : undefined,
    },
    NOW,
  );
  const verdict = gate.counts.gating > 0 ? 'failed' : 'passed';
  return { kind: 'judged', verdict, gate };
}

function waiver(check: string, expires: string): Waiver {
  return { check, reason: 'accepted', expires, line: 1 };
}

const A = finding('A', 'critical');
const B = finding('B', 'medium');
const C = finding('C', 'low');

describe('notify: what changed and whether a run speaks', () => {
  it('change: new failures speak, the same again is silent, a fix speaks', () => {
    const first = judged([A, B], { kind: 'missing', why: 'no earlier completed scan' });
    assert.deepEqual(decideNotify('change', first), {
      notify: true,
      why: '2 new failing findings',
    });
    const same = judged([A, B], found([A, B]));
    assert.deepEqual(decideNotify('change', same), {
      notify: false,
      why: 'nothing changed since the baseline',
    });
    const fixed = judged([A], found([A, B]));
    assert.deepEqual(decideNotify('change', fixed), { notify: true, why: '1 fixed' });
    const allFixed = judged([], found([A]));
    assert.deepEqual(decideNotify('change', allFixed), {
      notify: true,
      why: '1 fixed, the verdict went from failed to passed',
    });
  });

  it('new failures are listed worst first, and only those at or above the threshold count', () => {
    const high: GateSettings = { ...ANY, threshold: 'medium' };
    const end = judged([C, B, A], found([]), { settings: high });
    assert.equal(end.kind, 'judged');
    if (end.kind !== 'judged') return;
    const changes = changesOf(end.gate);
    assert.deepEqual(
      changes.newFailing.map((f) => f.identity),
      ['A', 'B'],
    );
    const lowOnly = judged([C], found([]), { settings: high });
    assert.equal(decideNotify('change', lowOnly).notify, false, 'a new low finding under medium');
    const lowFixed = judged([], found([C]), { settings: high });
    assert.equal(decideNotify('change', lowFixed).notify, false, 'a fixed low one under medium');
  });

  it('new: speaks for new failing findings only, not for a fix', () => {
    assert.equal(decideNotify('new', judged([A, B], found([A]))).notify, true);
    assert.deepEqual(decideNotify('new', judged([A], found([A, B]))), {
      notify: false,
      why: 'no new failing findings',
    });
  });

  it('failure speaks on every failed verdict; always on every run', () => {
    const same = judged([A], found([A]));
    assert.equal(decideNotify('failure', same).notify, true);
    assert.equal(decideNotify('failure', judged([], found([]))).notify, false);
    assert.equal(decideNotify('always', judged([], found([]))).notify, true);
    const error: RunEnd = { kind: 'error', line: 'the scan ended with status failed' };
    assert.equal(decideNotify('failure', error).notify, true);
    assert.equal(decideNotify('always', error).notify, true);
    assert.equal(decideNotify('change', error).notify, false);
    assert.equal(decideNotify('new', error).notify, false);
  });

  it('a waiver that ended since the baseline speaks once; one that ended before does not', () => {
    const endedYesterday = [waiver('A', '2026-11-25')];
    const now = judged([A], found([A]), { waivers: endedYesterday });
    assert.deepEqual(decideNotify('change', now), {
      notify: true,
      why: '1 expired waiver, the verdict went from passed to failed',
    });
    const endedLongAgo = [waiver('A', '2026-10-01')];
    assert.equal(
      decideNotify('change', judged([A], found([A]), { waivers: endedLongAgo })).notify,
      false,
    );
    // A baseline file has no time: an expired waiver of a failing check speaks.
    const file = judged([A], found([A], null), { waivers: endedLongAgo });
    assert.equal(decideNotify('change', file).notify, true);
  });

  it('a new waiver in force keeps a new finding quiet; the waived baseline keeps the verdict', () => {
    const inForce = [waiver('B', '2026-12-31')];
    assert.equal(
      decideNotify('change', judged([A, B], found([A]), { waivers: inForce })).notify,
      false,
    );
  });

  it('a finding that fell due since the baseline speaks (with a history)', () => {
    const overdue: GateSettings = { ...ANY, failOn: 'overdue', history: 5 };
    const age = (dueAt: string): FindingAge => ({
      failingSince: '2026-10-01T00:00:00Z',
      failingScans: 9,
      beyondWindow: false,
      dueAt,
      daysLeft: -1,
      overdue: true,
    });
    const fellDue = judged([A], found([A]), {
      settings: overdue,
      ages: new Map([['A', age('2026-11-26T00:00:00Z')]]),
    });
    assert.deepEqual(decideNotify('change', fellDue), { notify: true, why: '1 now overdue' });
    const longDue = judged([A], found([A]), {
      settings: overdue,
      ages: new Map([['A', age('2026-11-01T00:00:00Z')]]),
    });
    assert.equal(decideNotify('change', longDue).notify, false);
  });

  it('with fail-on new the verdict of the baseline is unknown: no flip is claimed', () => {
    const newGate: GateSettings = { ...ANY, failOn: 'new' };
    const end = judged([A], found([A]), { settings: newGate });
    assert.equal(end.kind === 'judged' && changesOf(end.gate).previousVerdict, undefined);
    assert.equal(decideNotify('change', end).notify, false);
  });
});

describe('notify: a run without a baseline', () => {
  it('claims no change: every failing finding would look new (always, failure, new)', () => {
    const end = judged([A], { kind: 'none' }, { settings: { ...ANY, baseline: { kind: 'none' } } });
    assert.equal(end.kind === 'judged' && changedSinceBaseline(end.gate, end.verdict), undefined);
    assert.deepEqual(decideNotify('always', end), {
      notify: true,
      why: 'no baseline to compare with',
    });
    assert.equal(
      decideNotify('failure', end).why,
      'the verdict is failed; no baseline to compare with',
    );
    assert.equal(decideNotify('new', end).notify, false);
  });

  it('the card says nothing changed when nothing did, and never "Changed" without a baseline', () => {
    const line = (end: RunEnd) => {
      if (end.kind !== 'judged') throw new Error('judged');
      const message: NotifyMessage = {
        result: {
          scanId: 's2',
          status: 'completed',
          scan: {
            id: 's2',
            status: 'completed',
            phase: 'succeeded',
            knownStatus: true,
            terminal: true,
            raw: {},
          },
          verdict: end.verdict,
          failed: end.gate.findings.length,
          findings: end.gate.findings,
          gate: end.gate,
          fixed: end.gate.fixed,
          report: { policy: 'none' },
          failStep: false,
          triggered: true,
        },
        changed: changedSinceBaseline(end.gate, end.verdict),
        why: decideNotify('always', end).why,
        links: {},
      };
      return chatMessageOf(message).summary[0];
    };
    assert.equal(line(judged([A], found([A]))), 'Nothing changed since the baseline');
    assert.equal(
      line(judged([A], { kind: 'none' }, { settings: { ...ANY, baseline: { kind: 'none' } } })),
      'No baseline to compare with: what changed is not known',
    );
    assert.equal(
      line(judged([A], found([]))),
      'Changed: 1 new failing finding, the verdict went from passed to failed',
    );
  });
});

describe('notify: the fleet of a roll-up', () => {
  const row = (tenant: string, verdict: TenantRow['verdict'], counts: Partial<TenantRow> = {}) =>
    ({
      tenant,
      name: null,
      verdict,
      problem: null,
      failed: 0,
      gating: 0,
      new: 0,
      fixed: 0,
      overdue: null,
      notEvaluated: null,
      coverage: null,
      worst: null,
      scanId: null,
      completedAt: null,
      source: null,
      ...counts,
    }) satisfies TenantRow;
  const fleet = (tenants: TenantRow[]): Rollup => ({
    verdict: tenants.some((t) => t.verdict !== 'passed') ? 'failed' : 'passed',
    reason: '',
    tenants,
    totalTenants: tenants.length,
    failedTenants: tenants.filter((t) => t.verdict !== 'passed').length,
    judgedTenants: tenants.length,
    maxFailedTenants: 0,
    checks: [],
  });

  it('speaks once for the tenants that changed, most new first; silent when none did', () => {
    const rollup = fleet([
      row('a', 'failed', { failed: 3, new: 1 }),
      row('b', 'passed', { fixed: 2 }),
      row('c', 'failed', { failed: 5, new: 4 }),
      row('d', 'failed', { failed: 5 }),
    ]);
    const decision = decideFleetNotify('change', rollup);
    assert.equal(decision.notify, true);
    assert.equal(decision.why, '3 tenants changed');
    assert.deepEqual(
      decision.changed.map((t) => t.tenant),
      ['c', 'a', 'b'],
    );
    const same = fleet([row('d', 'failed', { failed: 5 }), row('e', 'passed')]);
    assert.deepEqual(
      [decideFleetNotify('change', same).notify, decideFleetNotify('new', same).notify],
      [false, false],
    );
    assert.equal(decideFleetNotify('failure', same).notify, true);
    assert.equal(decideFleetNotify('new', fleet([row('b', 'passed', { fixed: 2 })])).notify, false);
    const missing = fleet([row('m', 'missing', { new: null, fixed: null })]);
    assert.equal(
      decideFleetNotify('change', missing).why,
      'no tenant changed; 1 without a verdict',
    );
    assert.equal(decideFleetNotify('always', missing).notify, true);
  });
});
