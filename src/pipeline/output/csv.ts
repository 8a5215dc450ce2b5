// The findings as CSV for a spreadsheet (csv-stringify): one row per finding, a UTF-8 BOM so that
// Excel reads the text as UTF-8, and OWASP's rule against formula injection
// (https://owasp.org/www-community/attacks/CSV_Injection): every field wrapped in double quotes,
// every double quote doubled, and a single quote before a cell that would begin with = + - @, a tab
// or a carriage return (or their full-width forms) — the library's escape_formulas — or with a
// line feed, which the page lists too and the library does not. Quoting every field keeps a
// separator or a quote inside service text from starting a cell of its own.

import { stringify } from 'csv-stringify/sync';
import type { ExportRow } from './export-rows.js';

/** The header, one column per field of a row, in order. */
export const CSV_COLUMNS = [
  'Tenant',
  'Scan',
  'Check ID',
  'Title',
  'Severity',
  'Result',
  'Category',
  'State',
  'Fails gate',
  'Failing since',
  'Deadline',
  'Overdue',
  'Waived until',
  'Waiver reason',
  'Waiver owner',
  'Disposition',
  'Remediation',
  'Help link',
] as const;

const yesNo = (value: boolean | undefined): string =>
  value === undefined ? '' : value ? 'yes' : 'no';

/** A row's cells, as plain text (neutralised when written). */
export function csvCells(row: ExportRow): string[] {
  const waiver = row.waiver;
  return [
    row.tenant,
    row.scanId ?? '',
    row.checkId,
    row.title,
    row.severity,
    row.result,
    row.category ?? '',
    row.state ?? '',
    yesNo(row.gating),
    row.failingSince ?? '',
    row.dueAt ?? '',
    yesNo(row.overdue),
    waiver?.expires ?? '',
    waiver?.reason ?? '',
    waiver?.owner ?? '',
    waiver?.disposition ?? '',
    row.remediation ?? '',
    row.reference ?? '',
  ];
}

/** A line feed opens a formula in some spreadsheets too (OWASP); the library's set lacks it. */
function quoteLeadingLineFeed(value: string): string {
  return value.startsWith('\n') ? `'${value}` : value;
}

const OPTIONS = {
  quoted: true,
  quoted_empty: true,
  escape_formulas: true,
  record_delimiter: 'windows',
  cast: { string: quoteLeadingLineFeed },
} as const;

/** The BOM and the header line: the start of every CSV file. */
export function csvHead(): string {
  return stringify([[...CSV_COLUMNS]], { ...OPTIONS, bom: true });
}

/** The lines of `rows` (no header), each row's cells neutralised. */
export function csvLines(rows: readonly ExportRow[]): string {
  if (rows.length === 0) return '';
  return stringify(rows.map(csvCells), OPTIONS);
}
