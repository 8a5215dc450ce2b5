// The campaign's progress line: one every 5 %, never on the last run, with a rough time left.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { progressLine } from './progress.js';

describe('fault campaign progress', () => {
  it('a line each time a 5 % step is crossed, none for the last run', () => {
    const lines = Array.from({ length: 300 }, (_, i) =>
      progressLine(i + 1, 300, 0, 1000 * (i + 1)),
    );
    const printed = lines.filter((line) => line !== undefined);
    assert.equal(printed.length, 19, 'at 5, 10, … 95 %');
    assert.equal(lines[14], 'progress: 15/300 runs (5%), 0 failed, 0:15 elapsed, about 4:45 left');
    assert.equal(lines[299], undefined);
  });

  it('few runs: a line per run that crosses a step; failures so far are counted', () => {
    assert.equal(
      progressLine(1, 3, 1, 10_000),
      'progress: 1/3 runs (33%), 1 failed, 0:10 elapsed, about 0:20 left',
    );
    assert.equal(progressLine(1, 1, 0, 5_000), undefined);
    assert.equal(progressLine(3, 1000, 0, 1_000), undefined, 'below the first step');
  });
});
