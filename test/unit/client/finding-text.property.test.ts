// Service text is cut to documented lengths before a finding is kept (FINDING_TEXT_LIMITS in
// src/client/findings.ts; docs/guarantees.md, Bounds): whatever a service sends, a kept view holds
// at most that much of it, cut at a character, never between the halves of a surrogate pair, and
// nothing of a text it could not keep whole (an id too long is cut apart by a hash).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { FINDING_TEXT_LIMITS, describeFinding } from '../../../src/client/findings.js';
import { propertyParameters } from '../../helpers/property.js';

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Text of any length around each limit, in any script (astral characters included). */
const text = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc
    .tuple(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 }),
      fc.integer({ min: 1, max: 4_000 }),
    )
    .map(([unit, times]) => unit.repeat(times)),
);

function kept(value: string, whole: string, limit: number): void {
  assert.ok(value.length <= limit, `${value.length} characters kept, limit ${limit}`);
  assert.doesNotMatch(value, LONE_SURROGATE);
  if (value === whole) return;
  assert.ok(value.endsWith('…'), 'a cut text says so');
  assert.ok(whole.startsWith(value.slice(0, -1)), 'a cut text is the start of the text');
}

describe('a finding as kept', () => {
  it('property: title, category, description and remediation within their limits', () => {
    fc.assert(
      fc.property(text, text, text, text, (title, category, description, remediation) => {
        const view = describeFinding({
          id: 'f',
          title,
          category,
          description,
          remediation,
          result: 'Failed',
        });
        const limits = FINDING_TEXT_LIMITS;
        if (title.trim() !== '') kept(view.title, title, limits.title);
        if (category.trim() !== '') kept(view.category ?? '', category, limits.category);
        if (description.trim() !== '')
          kept(view.description ?? '', description, limits.description);
        if (remediation.trim() !== '')
          kept(view.remediation ?? '', remediation, limits.remediation);
      }),
      propertyParameters(200),
    );
  });

  it('property: ids stay apart however long, and an address too long to keep is dropped', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 600 }),
        (stem, extra) => {
          const long = `${stem}${'x'.repeat(FINDING_TEXT_LIMITS.id + extra)}`;
          const a = describeFinding({ checkId: `${long}-a`, result: 'Failed' });
          const b = describeFinding({ checkId: `${long}-b`, result: 'Failed' });
          assert.ok(a.identity.length <= FINDING_TEXT_LIMITS.id);
          assert.notEqual(a.identity, b.identity);
          const reference = `https://example.com/${'p'.repeat(FINDING_TEXT_LIMITS.reference + extra)}`;
          assert.equal(describeFinding({ reference, result: 'Failed' }).reference, undefined);
        },
      ),
      propertyParameters(100),
    );
  });
});
