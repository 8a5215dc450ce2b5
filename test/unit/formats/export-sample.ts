// Findings as a run's record lists them (record.ts's FindingJson), for the CSV and OCSF tests.
import type { FindingJson } from '../../../src/pipeline/output/record.js';
import type { ExportSource } from '../../../src/pipeline/output/export-rows.js';

export function findingJsonOf(index: number, patch: Partial<FindingJson> = {}): FindingJson {
  return {
    id: `f-${index}`,
    checkId: `CIS-${index}`,
    title: `Check number ${index}`,
    severity: 'high',
    category: 'Identity',
    result: 'Failed',
    description: 'What the check looks at',
    remediation: 'Turn it on',
    reference: 'https://docs.example.com/checks/x',
    ...patch,
  };
}

/** One tenant's run: a new finding, an unchanged one, a waived one, and a fixed one. */
export function sampleSource(tenant = 'contoso'): ExportSource {
  return {
    tenant,
    scanId: 'scan-7',
    time: '2026-11-20T10:00:00Z',
    findings: [
      findingJsonOf(1, {
        severity: 'critical',
        baselineState: 'new',
        gating: true,
        failingSince: '2026-11-01T00:00:00Z',
        failingScans: 4,
        dueAt: '2026-11-08T00:00:00Z',
        overdue: true,
      }),
      findingJsonOf(2, { severity: 'medium', baselineState: 'unchanged', gating: true }),
      findingJsonOf(3, {
        severity: 'low',
        baselineState: 'new',
        gating: false,
        waiver: {
          reason: 'Vendor fix due',
          expires: '2026-12-31',
          owner: 'sec-team',
          disposition: 'risk-accepted',
        },
      }),
    ],
    fixed: [findingJsonOf(4, { severity: 'info' })],
  };
}
