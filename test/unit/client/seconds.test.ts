// A limit in a line is the limit that was set, to the millisecond: read back, the text is the
// number of milliseconds it was made of.
import assert from 'node:assert/strict';
import { it } from 'node:test';
import fc from 'fast-check';
import { seconds } from '../../../src/client/index.js';
import { propertyParameters } from '../../helpers/property.js';

it('seconds(ms) reads back as ms, for every whole millisecond up to an hour', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 3_600_000 }), (ms) => {
      const text = seconds(ms);
      assert.match(text, /^\d+(\.\d{1,3})? s$/);
      assert.equal(Math.round(Number.parseFloat(text) * 1000), ms, text);
    }),
    propertyParameters(2_000),
  );
  assert.deepEqual([150, 120_000, 1_250, 1].map(seconds), ['0.15 s', '120 s', '1.25 s', '0.001 s']);
});
