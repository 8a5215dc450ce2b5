// Property: whatever text the service sends — a formula initiator first, quotes, separators, line
// breaks, a BOM or any Unicode inside — the CSV read back with csv-parse has one row per finding,
// each cell the text itself (a single quote before it when it would begin a formula), and no cell
// begins with a character a spreadsheet would start a formula with.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, csvHead, csvLines } from '../../../src/pipeline/output/csv.js';
import { exportRows } from '../../../src/pipeline/output/export-rows.js';
import { propertyParameters } from '../../helpers/property.js';
import { INITIATORS, findingJson, serviceText } from './export-arbitraries.js';

/** The cell a spreadsheet should see: the text, with a quote before a formula initiator. */
function expected(text: string): string {
  return INITIATORS.some((c) => text.startsWith(c)) ? `'${text}` : text;
}

describe('property: the CSV neutralises every formula and reads back as the findings', () => {
  it('holds for any service text', () => {
    fc.assert(
      fc.property(serviceText, fc.array(findingJson, { maxLength: 5 }), (tenant, findings) => {
        const rows = [...exportRows({ tenant, scanId: 's', time: null, findings, fixed: [] })];
        const read = parse(csvHead() + csvLines(rows), { bom: true }) as string[][];
        assert.equal(read.length, findings.length + 1);
        const column = (name: (typeof CSV_COLUMNS)[number]) => CSV_COLUMNS.indexOf(name);
        findings.forEach((finding, index) => {
          const cells = read[index + 1] ?? [];
          assert.equal(cells.length, CSV_COLUMNS.length);
          assert.equal(cells[column('Tenant')], expected(tenant));
          assert.equal(cells[column('Check ID')], expected(finding.checkId));
          assert.equal(cells[column('Title')], expected(finding.title));
          assert.equal(cells[column('Result')], expected(finding.result));
          assert.equal(cells[column('Category')], expected(finding.category ?? ''));
          assert.equal(cells[column('Remediation')], expected(finding.remediation ?? ''));
          assert.equal(cells[column('Help link')], expected(finding.reference ?? ''));
          assert.equal(cells[column('Waiver reason')], expected(finding.waiver?.reason ?? ''));
          assert.equal(cells[column('Waiver owner')], expected(finding.waiver?.owner ?? ''));
          for (const cell of cells) {
            assert.ok(!INITIATORS.some((c) => cell.startsWith(c)), JSON.stringify(cell));
          }
        });
      }),
      propertyParameters(200),
    );
  });
});
