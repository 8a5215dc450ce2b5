// Property: whatever findings a run or a record holds — any text, a missing field, a time that is
// no time — every OCSF event validates against the committed schema, one per failed finding and
// one per fixed one, each named by its check's identity, with a status its state decides.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exportRows } from '../../../src/pipeline/output/export-rows.js';
import { ocsfLines } from '../../../src/pipeline/output/ocsf.js';
import { ocsfEvents } from '../../formats/ocsf-validator.js';
import { propertyParameters } from '../../helpers/property.js';
import { findingJson, serviceText } from './export-arbitraries.js';

describe('property: every OCSF event validates, one per finding', () => {
  it('holds for any findings', () => {
    fc.assert(
      fc.property(
        serviceText,
        fc.option(serviceText, { nil: null }),
        fc.array(findingJson, { maxLength: 6 }),
        fc.array(findingJson, { maxLength: 3 }),
        (tenant, time, findings, fixed) => {
          const rows = [...exportRows({ tenant, scanId: 's-1', time, findings, fixed })];
          const events = ocsfEvents(ocsfLines(rows, 1_700_000_000_000));
          assert.equal(events.length, findings.length + fixed.length);
          events.forEach((event, index) => {
            const source =
              index < findings.length ? findings[index] : fixed[index - findings.length];
            assert.equal((event.finding_info as { uid: string }).uid, source?.checkId);
            const status = event.status_id;
            if (index >= findings.length) assert.equal(status, 4, 'fixed: resolved');
            else if (source?.waiver) assert.equal(status, 3, 'waived: suppressed');
            else assert.equal(status, source?.baselineState === 'unchanged' ? 2 : 1);
          });
        },
      ),
      propertyParameters(150),
    );
  });
});
