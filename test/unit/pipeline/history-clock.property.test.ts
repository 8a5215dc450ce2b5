// Guarantee 14, "Time runs forward" (docs/guarantees.md): for any history of scan dates and
// clocks — skewed either way, before 2000, a week ahead of the runner, equal times, unreadable
// strings, a service clock at 1970 — `fail-on: overdue` never passes on a wrong clock: every age
// is then unknown (overdue, the strict side) and the history's line names the skew. The history
// is composed as the gate composes it (history.ts → deadlines.ts → judge.ts); the oracle that
// says which clocks are wrong is written here, from the row, not from the code.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { toScan } from '../../../src/client/index.js';
import type { FindingView, Scan } from '../../../src/client/types.js';
import { agesOf, DEFAULT_SLA_DAYS } from '../../../src/pipeline/gate/deadlines.js';
import { historyScans, scanTime, type HistoryRead } from '../../../src/pipeline/gate/history.js';
import { DEFAULT_GATE, judgeFindings } from '../../../src/pipeline/gate/judge.js';
import { propertyParameters } from '../../helpers/property.js';

const DAY = 86_400_000;
const Y2000 = Date.UTC(2000, 0, 1);

/** What the row calls a date that can be right: ISO 8601 with its zone (the seed: "ISO 8601
 *  strings with a UTC offset"), a day the calendar has, from 2000 on, at most a week ahead of the
 *  runner's clock. */
function rightDate(text: string | undefined, runnerMs: number): boolean {
  // Absent (the client reads an empty string as absent): the scan's other date stands for it.
  if (text === undefined || text === '') return true;
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.exec(text);
  if (!iso) return false;
  const [, y, mo, d] = iso.map(Number);
  const day = new Date(Date.UTC(y ?? 0, (mo ?? 0) - 1, d ?? 0));
  if (day.getUTCMonth() !== (mo ?? 0) - 1 || day.getUTCDate() !== d) return false;
  const ms = new Date(text).getTime();
  return ms >= Y2000 && ms <= runnerMs + 7 * DAY;
}

/** A scan's dates: near the runner's clock mostly, and every edge the row names. */
function dateText(runnerMs: number): fc.Arbitrary<string | undefined> {
  const iso = (ms: number) => new Date(ms).toISOString();
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: -400, max: 2 }).map((d) => iso(runnerMs + d * DAY)) },
    // A few days on whole days: equal times between scans come often.
    { weight: 4, arbitrary: fc.integer({ min: -3, max: 0 }).map((d) => iso(runnerMs + d * DAY)) },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        iso(Y2000),
        iso(Y2000 - 1),
        iso(0), // a service clock at 1970
        iso(runnerMs + 7 * DAY),
        iso(runnerMs + 7 * DAY + 1),
        iso(runnerMs + 30 * DAY),
        new Date(runnerMs - DAY).toISOString().replace('Z', '+02:00'),
        new Date(runnerMs - DAY).toISOString().replace('.000Z', ''), // no zone
        new Date(runnerMs - DAY).toISOString().replace(/:\d\d\.\d+Z$/, 'Z'), // no seconds
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        '',
        'soon',
        '7',
        '0',
        'Nov 20 2026',
        '2026-02-30T00:00:00Z',
        '2026-13-01T00:00:00Z',
        'NaN',
      ),
    },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

interface Drawn {
  runnerMs: number;
  current: { createdAt?: string; completedAt?: string };
  previous: Array<{ createdAt?: string; completedAt?: string; failed: boolean[] }>;
  listedBefore: boolean;
  /** Where the current scan is in the service's list (newest first), when it is listed. */
  position: number;
}

const drawn: fc.Arbitrary<Drawn> = fc
  .integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2030, 0, 1) })
  .chain((runnerMs) => {
    const dates = fc.record(
      { createdAt: dateText(runnerMs), completedAt: dateText(runnerMs) },
      { requiredKeys: [] },
    );
    return fc.record({
      runnerMs: fc.constant(runnerMs),
      current: dates,
      previous: fc.array(
        fc.record({
          createdAt: dateText(runnerMs),
          completedAt: dateText(runnerMs),
          failed: fc.array(fc.boolean(), { minLength: 3, maxLength: 3 }),
        }),
        { maxLength: 5 },
      ),
      listedBefore: fc.boolean(),
      position: fc.nat(),
    });
  });

const CHECKS = ['A', 'B', 'C'];

function scanOf(id: string, dates: { createdAt?: string; completedAt?: string }): Scan {
  const raw: Record<string, unknown> = { id, status: 'Completed', scanType: 'compliance' };
  for (const [name, value] of Object.entries(dates)) if (value !== undefined) raw[name] = value;
  return toScan(raw);
}

function dated(s: { createdAt?: string; completedAt?: string }): boolean {
  return Boolean(s.createdAt) || Boolean(s.completedAt);
}

/** Whether the row calls this history's clock wrong: a date that cannot be right (the current
 *  scan's too), a scan with no date at all, or a previous scan not before the current one. */
function wrongClock(d: Drawn): boolean {
  const all = [d.current, ...d.previous];
  if (all.some((s) => !rightDate(s.createdAt, d.runnerMs) || !rightDate(s.completedAt, d.runnerMs)))
    return true;
  if (!dated(d.current)) return true;
  const ms = (s: { createdAt?: string; completedAt?: string }, which: 'created' | 'at') =>
    new Date(
      (which === 'created' ? s.createdAt || s.completedAt : s.completedAt || s.createdAt) ?? '',
    ).getTime();
  // A scan the service lists before the current one (newer) and dated after it is a later scan,
  // left out; one listed after it (older), or any when the list was read before the trigger, is
  // skew when dated at or after it.
  const position = currentPosition(d);
  return d.previous.some(
    (p, index) =>
      !dated(p) ||
      (ms(p, 'created') >= ms(d.current, 'created') && (d.listedBefore || index >= position)) ||
      (ms(p, 'created') < ms(d.current, 'created') && ms(p, 'at') > ms(d.current, 'at')),
  );
}

function currentPosition(d: Drawn): number {
  return d.position % (d.previous.length + 1);
}

/** The gate as applyGate composes it, `fail-on: overdue` with a history of every scan listed. */
function judge(d: Drawn) {
  const current = scanOf('now', d.current);
  const previous = d.previous.map((p, i) => scanOf(`p${i}`, p));
  const position = currentPosition(d);
  const listed = d.listedBefore
    ? previous
    : [...previous.slice(0, position), current, ...previous.slice(position)];
  const found = historyScans(current, listed, {
    listedBefore: d.listedBefore,
    nowMs: d.runnerMs,
  });
  const history: HistoryRead =
    found.kind === 'skew'
      ? { kind: 'unreadable', why: found.why, skew: true }
      : {
          kind: 'read',
          complete: true,
          later: found.later,
          scans: found.previous.map((scan) => ({
            id: scan.id,
            at: scanTime(scan) ?? '',
            failed: new Set(
              CHECKS.filter((_, c) => d.previous[Number(scan.id.slice(1))]?.failed[c]),
            ),
            failedCount: 0,
            evaluated: null,
          })),
        };
  const failed: FindingView[] = CHECKS.map((id) => ({
    id,
    identity: id,
    title: id,
    severity: 'info',
    result: 'Failed',
  }));
  const ages = agesOf(failed, scanTime(current), history, DEFAULT_SLA_DAYS);
  const gate = { ...DEFAULT_GATE, failOn: 'overdue' as const };
  return {
    history,
    outcome: judgeFindings(
      failed,
      gate,
      { baseline: { kind: 'none' }, waivers: [], history, ages },
      d.runnerMs,
    ),
  };
}

describe('guarantee 14: time runs forward', () => {
  it('fail-on overdue never passes on a wrong clock, and the history line names the skew', () => {
    fc.assert(
      fc.property(drawn, (d) => {
        const { history, outcome } = judge(d);
        if (!wrongClock(d)) return;
        assert.equal(history.kind, 'unreadable', 'a wrong clock leaves no history to trust');
        assert.ok(history.kind === 'unreadable' && history.skew, 'it is called skew');
        assert.match(history.why, /^clock skew: (the current scan|scan p\d+) /);
        for (const finding of outcome.findings) {
          assert.equal(finding.age?.overdue, true, `${finding.identity}'s age is unknown`);
          assert.equal(finding.gating, true, `${finding.identity} fails fail-on: overdue`);
        }
      }),
      propertyParameters(400),
    );
  });

  it('on a right clock the history is read and a finding new this scan is within its deadline', () => {
    fc.assert(
      fc.property(drawn, (d) => {
        if (wrongClock(d)) return;
        const { history, outcome } = judge(d);
        assert.equal(history.kind, 'read', history.kind === 'unreadable' ? history.why : '');
        for (const finding of outcome.findings) {
          const failedBefore =
            history.kind === 'read' && history.scans[0]?.failed.has(finding.identity);
          if (!failedBefore)
            assert.equal(finding.age?.overdue, false, `${finding.identity} is new: not overdue`);
        }
      }),
      propertyParameters(400),
    );
  });
});
