// The kinds and coverage judgement as a property: for any baseline and current results — result
// words drawn over the whole vocabulary (every spelling of every kind, case changed at random, and
// words nobody knows) — the counts add up, the drop is exactly the checks the baseline evaluated
// that are not evaluated now, and the gate fails exactly when that drop is more than
// max-coverage-drop percent of the baseline's evaluated checks. The model below knows each word's
// meaning from its own table, not from the code under test.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  countResults,
  isEvaluatedResult,
  isFailedResult,
} from '../../../src/pipeline/common/result-kinds.js';
import { judgeCoverage } from '../../../src/pipeline/gate/coverage.js';
import { DEFAULT_GATE, gateFails, judgeFindings } from '../../../src/pipeline/gate/judge.js';
import { propertyParameters } from '../../helpers/property.js';

type Meaning = 'failed' | 'passed' | 'not evaluated';

/** Spellings a service may send, by what they mean. */
const SPELLINGS: Record<Meaning, string[]> = {
  failed: ['Failed', 'fail', 'Failure', 'failing', 'NonCompliant', 'non-compliant'],
  passed: ['Passed', 'pass', 'Success', 'succeeded', 'Successful', 'Compliant'],
  'not evaluated': [
    'Skipped',
    'skip',
    'NotApplicable',
    'not_applicable',
    'Not Applicable',
    'N/A',
    'na',
    'Inapplicable',
    'NotLicensed',
    'not-licensed',
    'Unlicensed',
    'License Required',
    'Error',
    'errored',
    'NotRun',
    'not_run',
    'Not Executed',
    'NotEvaluated',
    '',
  ],
};

const KNOWN_KEYS = new Set(
  Object.values(SPELLINGS)
    .flat()
    .map((word) => word.toLowerCase().replace(/[^a-z0-9]/g, '')),
);

/** A spelling with its letters' case changed at random. */
const recased = (word: string) =>
  fc
    .array(fc.boolean(), { minLength: word.length, maxLength: word.length })
    .map((upper) =>
      [...word].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );

const knownWord: fc.Arbitrary<{ word: string; meaning: Meaning }> = fc
  .constantFrom(
    ...(Object.entries(SPELLINGS) as Array<[Meaning, string[]]>).flatMap(([meaning, words]) =>
      words.map((word) => ({ word, meaning })),
    ),
  )
  .chain(({ word, meaning }) => recased(word).map((w) => ({ word: w, meaning })));

/** A word no vocabulary has: not evaluated, under its own name. */
const unknownWord = fc
  .stringMatching(/^[A-Za-z][A-Za-z _/-]{0,14}$/)
  .filter((word) => !KNOWN_KEYS.has(word.toLowerCase().replace(/[^a-z0-9]/g, '')))
  .map((word) => ({ word, meaning: 'not evaluated' as Meaning }));

const result = fc.oneof({ weight: 4, arbitrary: knownWord }, { weight: 1, arbitrary: unknownWord });

/** A scan's results: checks C0…C59, each once, with a word. */
const scanResults = fc.uniqueArray(
  fc.record({ check: fc.integer({ min: 0, max: 59 }).map((n) => `C${n}`), result }),
  { selector: (r) => r.check, maxLength: 60 },
);

/** max-coverage-drop: whole percents mostly, tenths now and then, the edges 0 and 100. */
const maxDrop = fc.oneof(
  fc.integer({ min: 0, max: 100 }),
  fc.integer({ min: 0, max: 1000 }).map((tenths) => tenths / 10),
  fc.constantFrom(0, 100),
);

const evaluatedBy = (results: Array<{ check: string; result: { meaning: Meaning } }>) =>
  results.filter((r) => r.result.meaning !== 'not evaluated').map((r) => r.check);

describe('kinds and coverage, for any results (property)', () => {
  it('the counts add up, and each word is counted as what it means', () => {
    fc.assert(
      fc.property(scanResults, (results) => {
        const words = results.map((r) => r.result.word);
        const counts = countResults(words);
        const model = (meaning: Meaning) => results.filter((r) => r.result.meaning === meaning);
        assert.equal(counts.total, results.length);
        assert.equal(counts.passed + counts.failed + counts.notEvaluated, counts.total);
        assert.equal(
          counts.kinds.reduce((n, k) => n + k.count, 0),
          counts.notEvaluated,
        );
        assert.ok(counts.kinds.every((k) => k.count > 0));
        assert.equal(counts.passed, model('passed').length);
        assert.equal(counts.failed, model('failed').length);
        for (const r of results) {
          assert.equal(isFailedResult(r.result.word), r.result.meaning === 'failed', r.result.word);
          assert.equal(
            isEvaluatedResult(r.result.word),
            r.result.meaning !== 'not evaluated',
            r.result.word,
          );
        }
      }),
      propertyParameters(300),
    );
  });

  it('the drop is the baseline-evaluated, now-not set; the gate fails iff it exceeds the setting', () => {
    fc.assert(
      fc.property(scanResults, scanResults, maxDrop, (baseline, current, max) => {
        // As the job derives them: the checks whose word the one decision calls evaluated.
        const before = baseline.filter((r) => isEvaluatedResult(r.result.word)).map((r) => r.check);
        const now = current.filter((r) => isEvaluatedResult(r.result.word)).map((r) => r.check);
        const coverage = judgeCoverage(before, now, max, 'scan B');
        const modelBefore = evaluatedBy(baseline);
        const modelNow = new Set(evaluatedBy(current));
        const dropped = modelBefore.filter((check) => !modelNow.has(check));
        assert.deepEqual(coverage.dropped, dropped);
        assert.equal(coverage.baselineEvaluated, modelBefore.length);
        assert.equal(coverage.evaluatedNow, modelNow.size);
        // Exceeds, in tenths of a percent and whole numbers: no rounding on either side.
        const exceeds = dropped.length * 1000 > Math.round(max * 10) * modelBefore.length;
        assert.equal(coverage.fails, exceeds);
        const outcome = judgeFindings(
          [],
          { ...DEFAULT_GATE, baseline: { kind: 'previous' }, maxCoverageDrop: max },
          {
            baseline: { kind: 'found', source: 'scan B', failed: [], evaluated: before },
            waivers: [],
            coverage,
          },
          Date.now(),
        );
        assert.equal(gateFails(outcome), exceeds);
      }),
      propertyParameters(300),
    );
  });
});
