// TENANT_SCAN_TEST_PACING_MS: it can only shorten the pacing (50 ms to 1 s), never stretch it, and
// anything else leaves the defaults.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { pollIntervalsOf, testPacingMs } from '../../../src/pipeline/job/pacing.js';

describe('test pacing', () => {
  it('a whole number of ms from 50 to 1000 sets every poll and write spacing', () => {
    for (const [raw, ms] of [
      ['50', 50],
      [' 100 ', 100],
      ['1000', 1000],
    ] as const) {
      assert.equal(testPacingMs({ TENANT_SCAN_TEST_PACING_MS: raw }), ms);
      assert.deepEqual(pollIntervalsOf({ TENANT_SCAN_TEST_PACING_MS: raw }), { min: ms, max: ms });
    }
  });

  it('absent, unreadable or out of range: the defaults', () => {
    for (const raw of [undefined, '', '0', '49', '1001', '60000', '-5', '1e2', '100ms', 'fast']) {
      assert.equal(testPacingMs({ TENANT_SCAN_TEST_PACING_MS: raw }), undefined, String(raw));
      assert.equal(pollIntervalsOf({ TENANT_SCAN_TEST_PACING_MS: raw }), undefined);
    }
  });
});
