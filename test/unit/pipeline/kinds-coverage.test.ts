// The pure cores of issue 47: what a result word means and how checks are counted
// (result-kinds.ts), coverage against the baseline (coverage.ts), waiver dispositions
// (dispositions.ts, the waivers file's parser) and how long a scan stood still (job/stall.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  countResults,
  countsFromScan,
  countsLine,
  MAX_UNKNOWN_KINDS,
  OTHER_UNKNOWN,
  resultKind,
} from '../../../src/pipeline/common/result-kinds.js';
import {
  coverageDropLine,
  coverageLogLine,
  judgeCoverage,
  parseMaxCoverageDrop,
} from '../../../src/pipeline/gate/coverage.js';
import {
  countDispositions,
  dispositionCountWords,
} from '../../../src/pipeline/gate/dispositions.js';
import { parseWaivers } from '../../../src/pipeline/gate/waivers-yaml.js';
import { SettingsError } from '../../../src/pipeline/common/settings-problems.js';
import { ProgressWatch, StallGuard } from '../../../src/pipeline/job/stall.js';
import type { Scan } from '../../../src/client/types.js';
import { parseStallMinutes } from '../../../src/pipeline/settings/stall-minutes.js';

describe('resultKind: one decision for every word', () => {
  it('reads every spelling of a kind alike, whatever the case and punctuation', () => {
    const kind = (word: string) => resultKind(word).kind;
    for (const word of ['NotApplicable', 'not_applicable', 'N/A', 'Not Applicable', 'n-a'])
      assert.equal(kind(word), 'not applicable', word);
    for (const word of ['NotLicensed', 'not-licensed', 'UNLICENSED'])
      assert.equal(kind(word), 'not licensed');
    for (const word of ['NotRun', 'not_run']) assert.equal(kind(word), 'not run');
    assert.equal(kind('FAILED'), 'failed');
    assert.equal(kind('Compliant'), 'passed');
    assert.equal(kind('Errored'), 'error');
    assert.equal(resultKind('Errored').outcome, 'not-evaluated');
  });

  it('an unknown word is not evaluated, under its own name (one line, short)', () => {
    assert.deepEqual(resultKind('Needs Review'), {
      outcome: 'not-evaluated',
      kind: 'needs-review',
      known: false,
      key: 'needsreview',
    });
    assert.equal(resultKind(undefined).kind, 'no result');
    assert.equal(resultKind('\u001b[2Jwow\u202e').kind, '2jwow');
    assert.ok(resultKind('x'.repeat(200)).kind.length <= 24);
  });
});

describe('countResults and countsFromScan', () => {
  it('counts each kind apart, spellings of one word together, and adds up', () => {
    const counts = countResults([
      'Passed',
      'passed',
      'Failed',
      'Skipped',
      'N/A',
      'NotApplicable',
      'Deferred',
      'DEFERRED',
      'Error',
    ]);
    assert.deepEqual(
      { total: counts.total, passed: counts.passed, failed: counts.failed },
      { total: 9, passed: 2, failed: 1 },
    );
    assert.deepEqual(counts.kinds, [
      { kind: 'skipped', count: 1, known: true },
      { kind: 'not applicable', count: 2, known: true },
      { kind: 'error', count: 1, known: true },
      { kind: 'deferred', count: 2, known: false },
    ]);
    assert.equal(
      countsLine(counts),
      '9 checks: 2 passed, 1 failed, 6 not evaluated (1 skipped, 2 not applicable, 1 error, 2 deferred)',
    );
  });

  it('keeps at most a few unknown words apart, the rest under one name', () => {
    const words = Array.from({ length: MAX_UNKNOWN_KINDS + 5 }, (_, i) => `word${i}`);
    const counts = countResults(words);
    assert.equal(counts.kinds.length, MAX_UNKNOWN_KINDS + 1);
    assert.deepEqual(counts.kinds.at(-1), { kind: OTHER_UNKNOWN, count: 5, known: false });
  });

  it("from the scan's counts: skipped and errors named, the rest unsplit; nothing without a total", () => {
    const counts = countsFromScan({ total: 20, passed: 10, failed: 3, skipped: 4, errors: 1 }, 3);
    assert.deepEqual(
      counts?.kinds.map((k) => [k.kind, k.count]),
      [
        ['skipped', 4],
        ['error', 1],
        ['not evaluated (kind not given)', 2],
      ],
    );
    assert.equal(counts?.notEvaluated, 7);
    assert.equal(countsFromScan({ failed: 3 }, 3), undefined);
  });
});

describe('coverage', () => {
  it('names the checks the baseline evaluated and this scan did not; more than the limit fails', () => {
    const before = Array.from({ length: 240 }, (_, i) => `MT.${1000 + i}`);
    const coverage = judgeCoverage(before, before.slice(40), 10, 'scan X of 2026-11-20');
    assert.equal(coverage.dropped.length, 40);
    assert.equal(coverage.fails, true);
    assert.equal(
      coverageDropLine(coverage),
      'Coverage dropped: 40 of 240 checks evaluated in scan X of 2026-11-20 were not evaluated now (MT.1000, MT.1001, MT.1002, MT.1003, MT.1004, MT.1005, MT.1006, MT.1007, MT.1008, MT.1009, … and 30 more): 16.7 %, more than 10 % (max-coverage-drop)',
    );
    assert.equal(
      judgeCoverage(before, before.slice(24), 10, 'x').fails,
      false,
      '24 of 240 is 10 %',
    );
    assert.equal(judgeCoverage(before, before.slice(25), 10, 'x').fails, true);
    assert.equal(judgeCoverage(before, [], 100, 'x').fails, false, '100: off');
    assert.equal(judgeCoverage([], ['a'], 0, 'x').fails, false, 'nothing evaluated before');
  });

  it('says in one line when there is nothing to compare', () => {
    assert.equal(
      coverageLogLine({ kind: 'none', why: 'no baseline to compare with' }),
      'Coverage: not compared — no baseline to compare with',
    );
    assert.equal(coverageLogLine({ kind: 'off' }), undefined);
  });

  it('max-coverage-drop: a percent from 0 to 100', () => {
    assert.equal(parseMaxCoverageDrop('m', ''), 10);
    assert.equal(parseMaxCoverageDrop('m', '2.5%'), 2.5);
    assert.equal(parseMaxCoverageDrop('m', '100'), 100);
    assert.throws(
      () => parseMaxCoverageDrop("input 'max-coverage-drop'", '150'),
      /^Error: input 'max-coverage-drop' must be a percent of the baseline's evaluated checks from 0 to 100 \(100: off\), got "150"$/,
    );
  });
});

describe('dispositions', () => {
  it('a waiver says why it waives; none is an accepted risk; each is counted apart', () => {
    const waivers = parseWaivers(
      'w.yml',
      'waivers:\n  - check: A\n    reason: r\n    expires: 2027-01-01\n  - check: B\n    reason: r\n    expires: 2027-01-01\n    disposition: False-Positive\n',
    );
    assert.deepEqual(
      waivers.map((w) => w.disposition),
      [undefined, 'false-positive'],
    );
    const counts = countDispositions([
      undefined,
      'risk-accepted',
      'risk-accepted',
      'false-positive',
    ]);
    assert.equal(dispositionCountWords(counts), '3 accepted risks, 1 false positive');
  });

  it('an unknown disposition is one line naming the file and the line', () => {
    const text =
      'waivers:\n  - check: A\n    reason: r\n    expires: 2027-01-01\n    disposition: wontfix\n';
    assert.throws(
      () => parseWaivers('w.yml', text),
      (error: unknown) =>
        error instanceof SettingsError &&
        error.problems.length === 1 &&
        error.problems[0] ===
          'w.yml line 2: waiver 1 has an unknown disposition "wontfix": use risk-accepted, false-positive, mitigated, compensating-control (the default is risk-accepted)',
    );
  });
});

describe('a scan that stands still', () => {
  it('counts from the last move of its progress, or of its status when it has none', () => {
    const watch = new ProgressWatch();
    const at = Date.parse('2026-11-20T12:03:00Z');
    assert.equal(watch.observe({ status: 'running', progress: 40 }, at - 60_000), true);
    assert.equal(watch.observe({ status: 'running', progress: 45 }, at), true);
    assert.equal(watch.observe({ status: 'running', progress: 45 }, at + 30_000), false);
    assert.equal(
      watch.stuckNote(at + 41 * 60_000),
      'progress stuck at 45 % since 12:03 UTC, 41 minutes',
    );
    assert.equal(
      watch.stalledDetail(30 * 60_000, 'stall-minutes'),
      'the scan stalled: no progress for 30 minutes (at 45 %; stall-minutes)',
    );
    const quiet = new ProgressWatch();
    quiet.observe({ status: 'queued', progress: undefined }, at);
    assert.equal(quiet.observe({ status: 'running', progress: undefined }, at + 5_000), true);
    assert.match(
      quiet.stuckNote(at + 65_000) ?? '',
      /^no progress reported, stuck at status "running" since 12:03 UTC, 1 minute$/,
    );
  });

  it('stops only after a read past stall-minutes confirms no move', async () => {
    const scan = (progress: number, terminal = false) =>
      ({
        id: 's',
        status: 'running',
        phase: 'running',
        knownStatus: true,
        terminal,
        progress,
        raw: {},
      }) as Scan;
    const reads = [scan(46), scan(46)];
    let asked = 0;
    const guard = new StallGuard(new ProgressWatch(), 40, () => {
      asked++;
      return Promise.resolve(reads.shift() ?? scan(46));
    });
    guard.seen(scan(45));
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(guard.signal.aborted, false, 'the read found it moved (45 → 46): counted again');
    await new Promise((resolve) => setTimeout(resolve, 60));
    assert.equal(guard.signal.aborted, true, 'no move since: stopped');
    assert.equal(asked, 2);
    const done = new StallGuard(new ProgressWatch(), 20, () => Promise.resolve(scan(46, true)));
    done.seen(scan(46));
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(done.signal.aborted, false, 'a scan that ended is not a stall');
    const off = new StallGuard(new ProgressWatch(), 0, () =>
      Promise.reject(new Error('never read')),
    );
    off.seen(scan(1));
    await new Promise((resolve) => setTimeout(resolve, 20));
    assert.equal(off.signal.aborted, false, 'stall-minutes 0: off');
    done.stop();
    off.stop();
  });

  it('stall-minutes: 0 (off) or minutes', () => {
    assert.equal(parseStallMinutes('s', ''), 0);
    assert.equal(parseStallMinutes('s', '0'), 0);
    assert.equal(parseStallMinutes('s', '0.5'), 30_000);
    assert.throws(
      () => parseStallMinutes('--stall-minutes', '-1'),
      /--stall-minutes must be 0 \(off\) or a number of minutes/,
    );
  });
});
