// The CSV of the findings, in process: the BOM and the header, one row per failed and fixed
// finding read back with csv-parse, OWASP's own examples of the escaping, and every column.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { CSV_COLUMNS, csvHead, csvLines } from '../../../src/pipeline/output/csv.js';
import { exportRows, type ExportRow } from '../../../src/pipeline/output/export-rows.js';
import { findingJsonOf, sampleSource } from './export-sample.js';

function readBack(text: string): string[][] {
  return parse(text, { bom: true, relax_column_count: false }) as string[][];
}

function rowOf(patch: Partial<ExportRow>): ExportRow {
  const row = [...exportRows({ ...sampleSource(), fixed: [] })][0];
  assert.ok(row);
  return { ...row, ...patch };
}

describe('the CSV of the findings', () => {
  it('starts with a UTF-8 BOM and the header, every field quoted, lines ended CRLF', () => {
    const head = csvHead();
    assert.ok(head.startsWith('\uFEFF"Tenant","Scan","Check ID","Title"'), head);
    assert.ok(head.endsWith('"Remediation","Help link"\r\n'));
    assert.deepEqual(readBack(head), [[...CSV_COLUMNS]]);
  });

  it('one row per failed finding then per fixed one, each column from the record', () => {
    const rows = readBack(csvHead() + csvLines([...exportRows(sampleSource())]));
    const header = rows[0] ?? [];
    const byName = rows
      .slice(1)
      .map((cells) => Object.fromEntries(header.map((h, i) => [h, cells[i]])));
    assert.deepEqual(
      byName.map((r) => [r['Check ID'], r.State, r.Result]),
      [
        ['CIS-1', 'new', 'Failed'],
        ['CIS-2', 'unchanged', 'Failed'],
        ['CIS-3', 'new', 'Failed'],
        ['CIS-4', 'fixed', ''],
      ],
    );
    assert.deepEqual(byName[0], {
      Tenant: 'contoso',
      Scan: 'scan-7',
      'Check ID': 'CIS-1',
      Title: 'Check number 1',
      Severity: 'critical',
      Result: 'Failed',
      Category: 'Identity',
      State: 'new',
      'Fails gate': 'yes',
      'Failing since': '2026-11-01T00:00:00Z',
      Deadline: '2026-11-08T00:00:00Z',
      Overdue: 'yes',
      'Waived until': '',
      'Waiver reason': '',
      'Waiver owner': '',
      Disposition: '',
      Remediation: 'Turn it on',
      'Help link': 'https://docs.example.com/checks/x',
    });
    const waived = byName[2] ?? {};
    assert.deepEqual(
      [waived['Waived until'], waived['Waiver reason'], waived['Waiver owner']],
      ['2026-12-31', 'Vendor fix due', 'sec-team'],
    );
    assert.equal(waived.Disposition, 'risk-accepted', 'a waiver without a disposition');
    assert.equal(byName[3]?.['Fails gate'], 'no');
  });

  it("a waiver's own disposition is written as it says", () => {
    const source = sampleSource();
    source.findings = [
      findingJsonOf(9, {
        waiver: { reason: 'r', expires: '2026-12-01', owner: null, disposition: 'false-positive' },
      } as never),
    ];
    const rows = readBack(csvLines([...exportRows({ ...source, fixed: [] })]));
    assert.equal(rows[0]?.[CSV_COLUMNS.indexOf('Disposition')], 'false-positive');
  });

  it("escapes OWASP's two examples exactly as the page shows", () => {
    const first = csvLines([rowOf({ title: '=1+2";=1+2' })]);
    assert.ok(first.includes(',"\'=1+2"";=1+2",'), first);
    const second = csvLines([rowOf({ title: '=1+2\'" ;,=1+2' })]);
    assert.ok(second.includes(',"\'=1+2\'"" ;,=1+2",'), second);
  });

  it('neutralises each formula initiator the page lists, and leaves other text alone', () => {
    const title = CSV_COLUMNS.indexOf('Title');
    for (const lead of ['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠']) {
      const [cells] = readBack(csvLines([rowOf({ title: `${lead}HYPERLINK("x")` })]));
      assert.equal(cells?.[title], `'${lead}HYPERLINK("x")`, JSON.stringify(lead));
    }
    for (const text of ["'=already", ' =spaced', 'plain', '1-2']) {
      const [cells] = readBack(csvLines([rowOf({ title: text })]));
      assert.equal(cells?.[title], text);
    }
  });

  it('no rows: nothing after the header', () => {
    assert.equal(csvLines([]), '');
  });
});
