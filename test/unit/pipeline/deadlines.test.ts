// Ages and deadlines, pure: a streak counts back through the previous scans until a pass breaks
// it; the deadline is the streak's start plus its severity's days; an age that is unknown, or that
// reaches past the history read while within its deadline, counts as overdue.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FindingView } from '../../../src/client/types.js';
import {
  DEFAULT_SLA_DAYS,
  agesOf,
  describeDeadline,
  failedTrend,
  trendLine,
} from '../../../src/pipeline/gate/deadlines.js';
import type { HistoryRead, HistoryScan } from '../../../src/pipeline/gate/history.js';
import { parseSlaDays } from '../../../src/pipeline/settings/parse.js';

const DAY = 86_400_000;
const NOW = '2026-11-25T12:00:00.000Z';
const ago = (days: number) => new Date(Date.parse(NOW) - days * DAY).toISOString();

function finding(identity: string, severity: FindingView['severity'] = 'critical'): FindingView {
  return { id: identity, identity, title: identity, severity, result: 'Failed' };
}

function scan(days: number, failed: string[]): HistoryScan {
  return {
    id: `s${days}`,
    at: ago(days),
    failed: new Set(failed),
    failedCount: failed.length,
    evaluated: null,
  };
}

const read = (scans: HistoryScan[], complete = true): HistoryRead => ({
  kind: 'read',
  scans,
  complete,
  later: 0,
});

describe('agesOf', () => {
  it('a streak runs back to its first scan; a pass in between restarts it', () => {
    const history = read([scan(1, ['A', 'B']), scan(2, ['A']), scan(3, ['A', 'B'])]);
    const ages = agesOf([finding('A'), finding('B'), finding('C')], NOW, history, DEFAULT_SLA_DAYS);
    assert.equal(ages.get('A')?.failingSince, ago(3));
    assert.equal(ages.get('A')?.failingScans, 4);
    assert.equal(ages.get('B')?.failingSince, ago(1), 'the pass 2 days ago broke its streak');
    assert.equal(ages.get('B')?.failingScans, 2);
    assert.equal(ages.get('C')?.failingSince, NOW, 'new: failing since this scan');
    assert.equal(ages.get('C')?.failingScans, 1);
  });

  it('the deadline: one day before, on the day, and after', () => {
    const cases: Array<[number, boolean, string]> = [
      [6, false, 'due in 1 day'],
      [7 - 1 / 24, false, 'due in 1 day'],
      [7, false, 'due today'],
      [7 + 1 / 24, true, 'overdue by 1 day'],
      [8, true, 'overdue by 1 day'],
      [9.5, true, 'overdue by 3 days'],
    ];
    for (const [days, overdue, words] of cases) {
      const ages = agesOf([finding('A')], NOW, read([scan(days, ['A'])]), DEFAULT_SLA_DAYS);
      const age = ages.get('A')!;
      assert.equal(age.overdue, overdue, `${days} days`);
      assert.equal(describeDeadline(age), words, `${days} days`);
      assert.equal(age.dueAt, new Date(Date.parse(ago(days)) + 7 * DAY).toISOString());
    }
  });

  it('each severity its own deadline; an unknown severity the strictest', () => {
    const history = read([scan(20, ['H', 'M', 'U'])]);
    const ages = agesOf(
      [finding('H', 'high'), finding('M', 'medium'), finding('U', 'unknown')],
      NOW,
      history,
      DEFAULT_SLA_DAYS,
    );
    assert.equal(ages.get('H')?.overdue, false, 'high: 30 days');
    assert.equal(ages.get('M')?.overdue, false, 'medium: 90 days');
    assert.equal(ages.get('U')?.overdue, true, 'unknown: 7 days');
  });

  it('the strict side: no history, or a streak beyond the history read within its deadline', () => {
    const unknown = agesOf([finding('A')], NOW, { kind: 'unreadable', why: 'x' }, DEFAULT_SLA_DAYS);
    assert.equal(unknown.get('A')?.overdue, true);
    assert.equal(unknown.get('A')?.failingSince, undefined);
    assert.equal(describeDeadline(unknown.get('A')!), 'age unknown');
    const window = read([scan(1, ['A', 'L'])], false);
    const ages = agesOf([finding('A'), finding('L', 'low')], NOW, window, DEFAULT_SLA_DAYS);
    assert.equal(ages.get('A')?.beyondWindow, true);
    assert.equal(ages.get('A')?.overdue, true, 'at least a day old: within 7, but maybe past it');
    // The whole history read (complete): a streak that reaches its start is exact.
    const whole = agesOf([finding('A')], NOW, read([scan(1, ['A'])], true), DEFAULT_SLA_DAYS);
    assert.equal(whole.get('A')?.overdue, false);
  });

  it('time runs forward: a previous scan dated after this one makes every age unknown', () => {
    const skewed = read([scan(-2, ['A']), scan(40, ['A'])]);
    const ages = agesOf([finding('A'), finding('B')], NOW, skewed, DEFAULT_SLA_DAYS);
    for (const id of ['A', 'B']) {
      assert.equal(ages.get(id)?.overdue, true, id);
      assert.equal(ages.get(id)?.failingSince, undefined, id);
    }
    const none = agesOf([finding('A')], undefined, read([scan(1, ['A'])]), DEFAULT_SLA_DAYS);
    assert.equal(none.get('A')?.overdue, true, 'a scan without a time: unknown');
  });

  it('the trend: failed findings per scan, oldest first, this scan last', () => {
    const history = read([scan(1, ['A', 'B']), scan(2, ['A']), scan(3, ['A', 'B', 'C'])]);
    assert.deepEqual(failedTrend(history, 1), [3, 1, 2, 1]);
    assert.equal(trendLine([3, 1, 2, 1]), '█▁▅▁ 3 → 1 → 2 → 1');
    assert.equal(trendLine([4, 4]), '▄▄ 4 → 4');
    assert.equal(trendLine([]), '');
  });
});

describe('parseSlaDays', () => {
  it('reads severity=days pairs; the others keep their defaults; refuses the rest', () => {
    assert.deepEqual(parseSlaDays('sla', 'critical=3, high=14'), {
      ...DEFAULT_SLA_DAYS,
      critical: 3,
      high: 14,
    });
    assert.equal(parseSlaDays('sla', ''), undefined);
    for (const bad of ['critical', 'critical=0', 'urgent=3', 'high=x', 'critical=99999']) {
      assert.throws(() => parseSlaDays('sla', bad), /sla must be severity=days pairs/, bad);
    }
    assert.throws(() => parseSlaDays('sla', 'high=3,high=4'), /gives high twice/);
  });
});
