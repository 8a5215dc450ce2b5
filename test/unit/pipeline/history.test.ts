// Which scans make a history, pure: the completed visible scans of the type before the current
// one, newest first; time must run forward — a previous scan dated at or after the current one,
// or a date that cannot be right, is clock skew (ages unknown), never a scan silently dropped.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { toScan } from '../../../src/client/index.js';
import type { Scan } from '../../../src/client/types.js';
import { historyScans } from '../../../src/pipeline/gate/history.js';

const NOW_MS = Date.parse('2026-11-25T12:00:00.000Z');
const at = (hoursAgo: number) => new Date(NOW_MS - hoursAgo * 3_600_000).toISOString();

function scan(id: string, created: string, extra: Record<string, unknown> = {}): Scan {
  return toScan({
    id,
    status: 'completed',
    scanType: 'compliance',
    createdAt: created,
    completedAt: created,
    ...extra,
  });
}

const current = scan('now', at(1));

/** The ids of the history, or the skew's words. */
function history(listed: Scan[], listedBefore: boolean, of: Scan = current): string[] | string {
  const found = historyScans(of, listed, { listedBefore, nowMs: NOW_MS });
  return found.kind === 'skew' ? found.why : found.previous.map((s) => s.id);
}

describe('historyScans', () => {
  it('the completed visible scans of the type before the current one, newest first', () => {
    const listed = [
      current,
      scan('b', at(30)),
      scan('a', at(60)),
      scan('c', at(20)),
      scan('hidden', at(10), { hidden: true }),
      scan('security', at(10), { scanType: 'security' }),
      scan('failed', at(10), { status: 'failed' }),
    ];
    assert.deepEqual(history(listed, true), ['c', 'b', 'a']);
  });

  it('a previous scan dated at or after the current one is skew when listed before the trigger', () => {
    for (const created of [at(1), at(0.5), at(-24 * 3)]) {
      const why = history([scan('a', at(30)), scan('ahead', created)], true);
      assert.match(
        String(why),
        /^clock skew: scan ahead is dated \S+, at or after the current scan \(2026-11-25T11:00:00\.000Z\)$/,
        created,
      );
    }
  });

  it('a scan followed by id: a later scan listed before it is left out and counted; after it, skew', () => {
    const later = scan('later', at(0.5));
    const found = historyScans(current, [later, current, scan('a', at(30))], {
      listedBefore: false,
      nowMs: NOW_MS,
    });
    assert.deepEqual(found.kind === 'scans' && [found.previous.map((s) => s.id), found.later], [
      ['a'],
      1,
    ]);
    assert.match(String(history([current, later], false)), /^clock skew: scan later is dated/);
  });

  it('a previous scan completed after the current one is skew', () => {
    const overlapping = scan('long', at(30), { completedAt: at(0.5) });
    assert.match(
      String(history([overlapping], false)),
      /^clock skew: scan long completed at \S+, after the current scan/,
    );
  });

  it('dates that cannot be right: 1970, far ahead, unreadable, none — the current scan too', () => {
    for (const bad of ['1970-01-01T00:00:00Z', '2031-01-01T00:00:00Z', 'yesterday']) {
      assert.match(String(history([scan('odd', bad)], true)), /^clock skew: scan odd is dated "/);
      const now = scan('now', bad);
      assert.match(
        String(history([scan('a', at(30))], true, now)),
        /^clock skew: the current scan/,
      );
    }
    const undated = toScan({ id: 'u', status: 'completed', scanType: 'compliance' });
    assert.match(String(history([undated], true)), /^clock skew: scan u has no date$/);
    // Days ahead of this machine's clock is still a service clock running fast.
    assert.deepEqual(history([scan('a', at(30))], true, scan('now', at(-24 * 5))), ['a']);
  });

  it('a run of skewed scans is named once, with how many more', () => {
    const why = history([scan('x', at(-1)), scan('y', at(-2)), scan('z', '1970-01-01')], true);
    assert.match(String(why), /^clock skew: scan x is dated .*; 2 more scans too$/);
  });
});
