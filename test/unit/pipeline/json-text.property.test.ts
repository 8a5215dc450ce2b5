// The record and the CLI's --output json are written a piece at a time (src/pipeline/common/
// json-text.ts) so that 250,000 findings are never one string: the pieces must be exactly the
// text JSON.stringify(value, null, 2) would have been, whatever the value.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonArray } from '../../../src/pipeline/common/files.js';
import {
  BATCH_CHARS,
  batched,
  jsonList,
  prettyJsonPieces,
} from '../../../src/pipeline/common/json-text.js';
import { propertyParameters } from '../../helpers/property.js';

/** JSON values, and what JSON.stringify treats specially: undefined members, Dates, large
 *  containers (written a member at a time past 32 members). */
const values = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.constant(undefined),
    fc.date({ noInvalidDate: true }),
    fc.array(tie('value'), { maxLength: 80 }),
    fc.array(tie('value'), { maxLength: 300 }).map((items) => jsonList(items, (item) => item)),
    fc.dictionary(fc.string(), tie('value'), { maxKeys: 60 }),
  ),
}));

describe('JSON in pieces', () => {
  it('property: the pieces join to JSON.stringify(value, null, 2)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(values.value, { maxLength: 100 }),
          fc.dictionary(fc.string(), values.value),
        ),
        (value) => {
          assert.equal([...prettyJsonPieces(value)].join(''), JSON.stringify(value, null, 2));
        },
      ),
      propertyParameters(200),
    );
  });

  it('property: batches keep the text and its order', () => {
    fc.assert(
      fc.property(fc.array(fc.string()), fc.integer({ min: 1, max: 50 }), (pieces, size) => {
        assert.equal([...batched(pieces, size)].join(''), pieces.join(''));
      }),
      propertyParameters(100),
    );
  });

  it('250,000 findings: written in pieces, none larger than a batch, parsed back whole', () => {
    const findings = Array.from({ length: 250_000 }, (_, i) => ({
      id: `f-${i}`,
      result: 'Failed',
    }));
    const record = { version: 1, findings: jsonList(findings, (f) => ({ ...f, shown: true })) };
    let longest = 0;
    let text = '';
    for (const batch of batched(prettyJsonPieces(record))) {
      longest = Math.max(longest, batch.length);
      text += batch;
    }
    assert.ok(longest < 2 * BATCH_CHARS, `a batch of ${longest} characters`);
    assert.equal((JSON.parse(text) as typeof record).findings.length, 250_000);
    const array = [...jsonArray(findings)].join('');
    assert.equal((JSON.parse(array) as unknown[]).length, 250_000);
  });
});
