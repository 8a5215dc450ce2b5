// Drawn service text and findings for the CSV and OCSF properties: a formula initiator first half
// the time, then quotes, separators, line breaks, a BOM, tabs or any Unicode grapheme.
import fc from 'fast-check';

/** What OWASP lists as opening a formula (the page's current list, full-width forms included). */
export const INITIATORS = ['=', '+', '-', '@', '\t', '\r', '\n', '＝', '＋', '－', '＠'];

const piece = fc.oneof(
  fc.constantFrom('"', ',', ';', '\n', '\r\n', '\r', '\uFEFF', '\t', "'", ...INITIATORS),
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

export const serviceText = fc
  .tuple(fc.constantFrom(...INITIATORS, '', 'a', "'", ' ', '"'), fc.array(piece, { maxLength: 6 }))
  .map(([lead, rest]) => lead + rest.join(''));

const isoTime = fc
  .integer({ min: 0, max: 4_102_444_800_000 })
  .map((ms) => new Date(ms).toISOString());

/** A finding as a record lists it (record.ts's FindingJson), any field possibly missing. */
export const findingJson = fc.record(
  {
    checkId: serviceText,
    title: serviceText,
    severity: fc.constantFrom('critical', 'high', 'medium', 'low', 'info', 'unknown'),
    category: fc.option(serviceText, { nil: null }),
    result: serviceText,
    description: fc.option(serviceText, { nil: null }),
    remediation: fc.option(serviceText, { nil: null }),
    reference: fc.option(fc.oneof(serviceText, fc.webUrl()), { nil: null }),
    baselineState: fc.constantFrom('new', 'unchanged'),
    gating: fc.boolean(),
    failingSince: fc.option(fc.oneof(isoTime, serviceText), { nil: null }),
    dueAt: fc.option(isoTime, { nil: null }),
    overdue: fc.boolean(),
    waiver: fc.record({ reason: serviceText, expires: serviceText, owner: fc.option(serviceText) }),
  },
  { requiredKeys: ['checkId', 'title', 'severity', 'category', 'result'] },
);
