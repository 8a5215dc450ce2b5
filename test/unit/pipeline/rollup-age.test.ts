// How old a roll-up's evidence may be (--max-age, input max-age), judged in memory against a fixed
// clock: the duration read strictly, a record or plan older than the limit is stale (no verdict,
// fails the roll-up, listed first, its findings out of the checks view), a time that is not one or
// is ahead of the clock beyond the skew margin is unreadable, a record without a scan time is aged
// by its writtenAt, a record with no time is stale — and without a limit nothing changes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RollupBuilder, summarize, type RecordEntry } from '../../../src/pipeline/index.js';
import {
  CLOCK_SKEW_MS,
  ageWords,
  judgeAge,
  type AgeRule,
} from '../../../src/pipeline/rollup/age.js';
import { parseTimestamp } from '../../../src/pipeline/common/timestamp.js';
import { summarizePlan } from '../../../src/pipeline/rollup/plans.js';
import { SettingProblem } from '../../../src/pipeline/common/settings-problems.js';
import { formatDuration, parseDuration } from '../../../src/pipeline/settings/duration.js';
import { rollupMarkdown } from '../../../src/render/rollup-markdown.js';

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-26T12:00:00Z');
const at = (hoursAgo: number) => new Date(NOW - hoursAgo * HOUR).toISOString();
const RULE: AgeRule = { maxAgeMs: 36 * HOUR, nowMs: NOW };

function recordEntry(label: string, scan: object | null, patch: object = {}): RecordEntry {
  const record = summarize({
    version: 1,
    label,
    tenant: label,
    scan,
    verdict: 'failed',
    error: null,
    failed: 1,
    new: 0,
    overdue: null,
    gate: { failOnSeverity: 'info', failOn: 'any', failing: 1 },
    findings: [{ checkId: 'CIS-1', title: 'T', severity: 'high', result: 'Failed', gating: true }],
    ...patch,
  });
  return { kind: 'read', source: `${label}.json`, record };
}

const completed = (hoursAgo: number) => ({
  id: 's',
  phase: 'succeeded',
  createdAt: at(hoursAgo + 1),
  completedAt: at(hoursAgo),
});

function planEntry(tenant: string, checkedAt: string): RecordEntry {
  const doc = { kind: 'tenant-plan', version: 1, tenant, checkedAt, drift: [], problems: [] };
  return { kind: 'plan', source: `${tenant}.plan.json`, plan: summarizePlan(doc) };
}

function rollUp(entries: RecordEntry[], age: AgeRule | null) {
  const builder = new RollupBuilder(age);
  for (const entry of entries) builder.add(entry);
  return builder.finish({});
}

describe('parseDuration', () => {
  it('a whole number of minutes, hours or days', () => {
    assert.equal(parseDuration('--max-age', '90m'), 90 * 60_000);
    assert.equal(parseDuration('--max-age', ' 36h '), 36 * HOUR);
    assert.equal(parseDuration('--max-age', '7d'), 7 * 24 * HOUR);
    assert.equal(parseDuration('--max-age', '366d'), 366 * 24 * HOUR);
    assert.equal(parseDuration('--max-age', ''), undefined);
    assert.equal(parseDuration('--max-age', undefined), undefined);
  });

  it('anything else is one line that shows the form', () => {
    for (const bad of ['36', '1.5d', '1d12h', '36 hours', '0h', '-1d', '367d', 'h', '7D', '7w']) {
      assert.throws(
        () => parseDuration("input 'max-age'", bad),
        (error: unknown) =>
          error instanceof SettingProblem &&
          error.message ===
            `input 'max-age' must be a duration such as 90m, 36h or 7d (a whole number of minutes, hours or days, above 0 and at most 366d), got "${bad}"`,
        bad,
      );
    }
  });

  it('formatDuration writes it back in its largest whole unit', () => {
    assert.deepEqual([90 * 60_000, 36 * HOUR, 48 * HOUR, 7 * 24 * HOUR].map(formatDuration), [
      '90m',
      '36h',
      '2d',
      '7d',
    ]);
  });
});

// Date.parse takes each of these; none is an ISO 8601 time with its zone.
const LOOSE = ['1', '2026', 'Nov 26 2026', '2026-11-26T19:00:00', '2026-11-26 19:00'];

describe("parseTimestamp: the one reading of a record's or a plan's time", () => {
  it('an ISO 8601 date and time with its zone, however spelled, is its moment', () => {
    const moment = NOW - HOUR;
    const iso = new Date(moment).toISOString();
    for (const spelled of [
      iso,
      iso.replace('Z', '+00:00'),
      iso.replace('Z', '+0000').replace('T', ' '),
      iso.replace('.000Z', 'z'),
      '2026-11-26T12:00:00+01:00',
    ]) {
      assert.equal(parseTimestamp(spelled), moment, spelled);
    }
  });

  it("anything else is no time, not a guess in this machine's zone", () => {
    for (const loose of [...LOOSE, 'last Tuesday', '', '2026-13-01T00:00Z']) {
      assert.equal(parseTimestamp(loose), undefined, loose);
    }
  });

  it('a day the calendar does not have is no time, not the day it would roll over to', () => {
    for (const missing of ['2026-02-30T00:00Z', '2026-02-29T12:00:00Z', '2026-04-31T00:00+02:00']) {
      assert.equal(parseTimestamp(missing), undefined, missing);
    }
    assert.equal(parseTimestamp('2028-02-29T12:00:00Z'), Date.UTC(2028, 1, 29, 12));
    assert.equal(parseTimestamp('2026-12-31T23:59:59-05:00'), Date.UTC(2027, 0, 1, 4, 59, 59));
  });

  it('the plan reader and the age rule refuse the same times and take the same ones', () => {
    const plan = (checkedAt: string) =>
      summarizePlan({ kind: 'tenant-plan', version: 1, checkedAt, drift: [], problems: [] });
    for (const loose of LOOSE) {
      assert.equal(judgeAge(loose, RULE, 'plan', 'checkedAt').kind, 'unreadable', loose);
      assert.throws(() => plan(loose), /"checkedAt" is not a time with its zone/, loose);
    }
    for (const time of [at(1), at(1).replace('Z', '+00:00'), '2026-11-26T12:00:00+01:00']) {
      assert.equal(judgeAge(time, RULE, 'plan', 'checkedAt').kind, 'fresh', time);
      assert.equal(plan(time).checkedAt, time);
    }
  });
});

describe('judgeAge', () => {
  it('fresh up to the limit, stale past it, with how old and the limit', () => {
    assert.deepEqual(judgeAge(at(36), RULE, 'record', 'scan time'), { kind: 'fresh' });
    assert.deepEqual(judgeAge(at(0), RULE, 'record', 'scan time'), { kind: 'fresh' });
    assert.deepEqual(judgeAge(at(72), RULE, 'record', 'scan time'), {
      kind: 'stale',
      why: 'record is 3 days old (max-age 36h)',
    });
    assert.deepEqual(judgeAge(at(36.1), RULE, 'plan', 'checkedAt'), {
      kind: 'stale',
      why: 'plan is 2166 minutes old (max-age 36h)',
    });
  });

  it('a time ahead of the clock: believed within the skew margin, unreadable beyond it', () => {
    const ahead = (ms: number) => new Date(NOW + ms).toISOString();
    assert.deepEqual(judgeAge(ahead(CLOCK_SKEW_MS), RULE, 'record', 'scan time'), {
      kind: 'fresh',
    });
    assert.equal(CLOCK_SKEW_MS, 5 * 60_000);
    const future = judgeAge(ahead(3 * HOUR), RULE, 'record', 'scan time');
    assert.equal(future.kind, 'unreadable');
    assert.match((future as { why: string }).why, /scan time .* is 3 hours in the future/);
    assert.equal(judgeAge(ahead(CLOCK_SKEW_MS + 60_000), RULE, 'x', 'y').kind, 'unreadable');
    // Just past the margin, the words say so: never "5 minutes", which the margin allows.
    const justPast = judgeAge(ahead(CLOCK_SKEW_MS + 1_000), RULE, 'record', 'scan time');
    assert.deepEqual(justPast, {
      kind: 'unreadable',
      why: `its scan time (${ahead(CLOCK_SKEW_MS + 1_000)}) is more than 5 minutes in the future: a clock is wrong`,
    });
    assert.match(
      (judgeAge(ahead(CLOCK_SKEW_MS + 60_000), RULE, 'x', 'y') as { why: string }).why,
      / is 6 minutes in the future/,
    );
  });

  it('not a time: unreadable; no time: stale', () => {
    assert.deepEqual(judgeAge('last Tuesday', RULE, 'record', 'scan time'), {
      kind: 'unreadable',
      why: 'its scan time "last Tuesday" is not a time with its zone',
    });
    for (const loose of LOOSE) {
      assert.equal(judgeAge(loose, RULE, 'record', 'scan time').kind, 'unreadable', loose);
    }
    const sameMoment = new Date(NOW - HOUR).toISOString();
    for (const spelled of [
      sameMoment,
      sameMoment.replace('Z', '+00:00'),
      sameMoment.replace('Z', '+0000').replace('T', ' '),
      sameMoment.replace(/\.\d+Z$/, '.1234567Z'),
    ]) {
      assert.deepEqual(judgeAge(spelled, RULE, 'record', 'scan time'), { kind: 'fresh' }, spelled);
    }
    assert.deepEqual(judgeAge(null, RULE, 'record', 'scan time'), {
      kind: 'stale',
      why: 'no time in the record (max-age 36h)',
    });
  });

  it('ageWords rounds down, in the largest unit that shows the age is past the limit, else says more than', () => {
    assert.equal(ageWords(53 * HOUR, 48 * HOUR), '53 hours');
    assert.equal(ageWords(53 * HOUR, 36 * HOUR), '2 days');
    // Past the limit by less than a minute: rounded down it would read as at the limit.
    assert.equal(ageWords(36 * HOUR + 30_000, 36 * HOUR), 'more than 2160 minutes');
    assert.equal(ageWords(36 * HOUR + 60_000, 36 * HOUR), '2161 minutes');
    const words = [1, 59, 119, 120, 47 * 60, 48 * 60].map((minutes) => ageWords(minutes * 60_000));
    assert.deepEqual(words, [
      '1 minute',
      '59 minutes',
      '119 minutes',
      '2 hours',
      '47 hours',
      '2 days',
    ]);
  });
});

describe('a roll-up with a max-age', () => {
  const entries = [
    recordEntry('fresh', completed(2)),
    recordEntry('old', completed(72)),
    recordEntry('ahead', completed(-2)),
    recordEntry('garbled', { ...completed(2), completedAt: 'soon' }),
    recordEntry(
      'errored',
      { id: 's', phase: 'failed', createdAt: at(100), completedAt: null },
      {
        verdict: null,
        error: 'Wait failed: the scan failed',
        failed: 0,
        gate: null,
        findings: [],
      },
    ),
    recordEntry('timeless', null, {
      verdict: null,
      error: 'Authentication failed: 401',
      failed: 0,
      gate: null,
      findings: [],
    }),
  ];

  it('an old record is stale: no verdict, listed first with why, out of the checks view', () => {
    const rollup = rollUp(entries, RULE);
    const row = (tenant: string) => rollup.tenants.find((r) => r.tenant === tenant)!;
    assert.equal(row('fresh').verdict, 'failed');
    assert.deepEqual(
      [row('old').verdict, row('old').problem, row('old').gating, row('old').scanId],
      ['stale', 'record is 3 days old (max-age 36h)', null, 's'],
    );
    assert.equal(row('ahead').verdict, 'unreadable');
    assert.match(row('ahead').problem!, /is 2 hours in the future/);
    assert.equal(row('garbled').verdict, 'unreadable');
    // A run that ended in an error is aged by its scan's creation time, and keeps its error line.
    assert.equal(row('errored').verdict, 'stale');
    assert.equal(
      row('errored').problem,
      'record is 4 days old (max-age 36h); its run ended in an error: Wait failed: the scan failed',
    );
    assert.equal(row('timeless').verdict, 'stale');
    assert.match(row('timeless').problem!, /^no time in the record \(max-age 36h\); .*401/);
    assert.equal(rollup.tenants.at(-1)!.tenant, 'fresh');
    assert.deepEqual(rollup.checks[0]!.tenants, ['fresh']);
    assert.equal(rollup.judgedTenants, 1);
    assert.equal(rollup.failedTenants, 6);
    assert.match(
      rollupMarkdown(rollup),
      /\| No verdict \(missing, stale, unreadable, an error\) \| 5 \|/,
    );
    assert.match(rollupMarkdown(rollup), /⌛ stale/);
  });

  it('a stale tenant fails the roll-up alone; a fresh one passes', () => {
    const passed = {
      verdict: 'passed',
      failed: 0,
      gate: { failOnSeverity: 'info', failOn: 'any', failing: 0 },
      findings: [],
    };
    const old = rollUp([recordEntry('a', completed(40), passed)], RULE);
    assert.deepEqual([old.verdict, old.failedTenants], ['failed', 1]);
    const fresh = rollUp([recordEntry('a', completed(30), passed)], RULE);
    assert.deepEqual([fresh.verdict, fresh.failedTenants], ['passed', 0]);
  });

  it('without a max-age nothing changes: every record judged as it says', () => {
    // A scan time of a type no writer gives is not looked at without an age asked.
    const odd = recordEntry('odd', { ...completed(2), createdAt: 42 }, { verdict: 'failed' });
    assert.equal(rollUp([odd], null).tenants[0]!.verdict, 'failed');
    const rollup = rollUp(entries, null);
    const verdicts = Object.fromEntries(rollup.tenants.map((r) => [r.tenant, r.verdict]));
    assert.deepEqual(verdicts, {
      fresh: 'failed',
      old: 'failed',
      ahead: 'failed',
      garbled: 'failed',
      errored: 'error',
      timeless: 'error',
    });
  });

  it('a record without a scan time is aged by its writtenAt; without one, no time', () => {
    const noScan = (label: string, writtenAt?: unknown) =>
      recordEntry(label, null, {
        ...(writtenAt === undefined ? {} : { writtenAt }),
        verdict: null,
        error: 'Authentication failed: 401',
        failed: 0,
        gate: null,
        findings: [],
      });
    const entries = [
      noScan('new', at(1)),
      noScan('old', at(72)),
      noScan('ahead', at(-2)),
      noScan('garbled', 'yesterday'),
      noScan('older-writer'),
      // A scan time comes first: a record written now of a scan completed long ago is stale.
      recordEntry('rewritten', completed(72), { writtenAt: at(0) }),
    ];
    const rows = rollUp(entries, RULE).tenants;
    const row = (tenant: string) => rows.find((r) => r.tenant === tenant)!;
    assert.deepEqual(
      [row('new').verdict, row('new').problem],
      ['error', 'Authentication failed: 401'],
      'fresh: judged as it says',
    );
    assert.deepEqual(
      [row('old').verdict, row('old').problem],
      [
        'stale',
        'record is 3 days old (max-age 36h); its run ended in an error: Authentication failed: 401',
      ],
    );
    assert.equal(row('ahead').verdict, 'unreadable');
    assert.match(row('ahead').problem!, /^its writtenAt \(.*\) is 2 hours in the future/);
    assert.equal(row('garbled').verdict, 'unreadable');
    assert.match(row('garbled').problem!, /^its writtenAt "yesterday" is not a time/);
    assert.equal(row('older-writer').verdict, 'stale');
    assert.match(row('older-writer').problem!, /^no time in the record \(max-age 36h\)/);
    assert.equal(row('rewritten').verdict, 'stale');
    // Without a max-age no writtenAt is looked at: bad or missing, the record reads as before.
    const verdicts = rollUp(entries, null).tenants.map((r) => [r.tenant, r.verdict]);
    assert.deepEqual(
      verdicts.filter(([, verdict]) => verdict !== 'error'),
      [['rewritten', 'failed']],
    );
    assert.equal(rollUp([noScan('odd', 42)], null).tenants[0]!.verdict, 'error');
  });

  it('plans by their checkedAt: stale, unreadable ahead of the clock, fresh', () => {
    const plans = [
      planEntry('p-old', at(50)),
      planEntry('p-ahead', at(-1)),
      planEntry('p-new', at(1)),
    ];
    const rows = rollUp(plans, RULE).plans!.tenants;
    const row = (tenant: string) => rows.find((r) => r.tenant === tenant)!;
    assert.deepEqual(
      [row('p-old').verdict, row('p-old').problem, row('p-old').checkedAt],
      ['stale', 'plan is 2 days old (max-age 36h)', at(50)],
    );
    assert.equal(row('p-ahead').verdict, 'unreadable');
    assert.equal(row('p-new').verdict, 'passed');
    assert.deepEqual(
      rollUp(plans, null).plans!.tenants.map((r) => r.verdict),
      ['passed', 'passed', 'passed'],
    );
    assert.match(
      rollupMarkdown(rollUp(plans, RULE)),
      /\| No plan \(missing, stale, unreadable\) \| 2 \|/,
    );
  });
});
