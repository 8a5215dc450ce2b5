// Findings for the writers' tests: every result kind, every severity, hostile text and sparse fields.

import { describeFinding } from '../../src/client/findings.js';
import type { FindingView } from '../../src/client/types.js';
import type { ResultsInput } from '../../src/pipeline/output/checks.js';

/** Hand-written findings read as the client reads the service's (describeFinding decides each
 *  one's identity: checkId, else id, else derived from its title). */
export const FINDINGS: FindingView[] = (
  [
    {
      id: 'f-1',
      checkId: 'CIS-1.1.1',
      title: 'MFA is not enforced for <admins> & "guests"',
      severity: 'critical',
      category: 'Identity',
      description:
        'Admins sign in without MFA.\u0001 Control char and emoji 🔐 and lone \ud800 surrogate',
      remediation: 'Enforce MFA with a conditional access policy',
      reference: 'https://docs.example.com/checks/cis-1.1.1?x=1&y=2',
      result: 'Failed',
    },
    {
      id: 'f-2',
      checkId: 'CIS-1.1.2',
      title: 'Audit log on',
      severity: 'low',
      category: 'Logging',
      result: 'Passed',
    },
    { id: 'f-3', title: 'Sparse finding', severity: 'unknown', result: 'Skipped' },
    {
      id: 'f-4',
      checkId: 'CIS-2.0.1',
      title: 'Could not evaluate',
      severity: 'medium',
      result: 'Error',
    },
    {
      id: 'f-5',
      checkId: 'CIS-1.1.1',
      title: 'MFA again (same check, another object)',
      severity: 'critical',
      result: 'Failed',
      reference: 'not a url',
    },
    { id: 'f-6', checkId: 'CIS-3.1', title: 'Medium one', severity: 'medium', result: 'failed' },
    { id: 'f-7', checkId: 'CIS-4.1', title: 'High one', severity: 'high', result: 'Failed' },
    { id: 'f-8', checkId: 'CIS-5.1', title: 'Info one', severity: 'info', result: 'Failed' },
    { id: '', title: 'No id at all', severity: 'low', result: 'Failed' },
    { id: 'f-10', checkId: 'CIS-6.1', title: 'Odd result', severity: 'low', result: 'NotRun' },
  ] as Array<Record<string, unknown>>
).map((finding) => describeFinding(finding));

/** The identity of the sample finding that names no check (derived from its title). */
export const NO_ID = FINDINGS.find((f) => f.title === 'No id at all')?.identity ?? '';

export function sampleInput(findings: FindingView[] = FINDINGS): ResultsInput {
  return {
    scan: {
      id: 'scan-123',
      status: 'completed',
      scanType: 'compliance',
      createdAt: '2026-01-01T00:00:00Z',
      completedAt: '2026-01-01T00:01:30.500Z',
      summary: { total: findings.length, failed: 6 },
    },
    findings,
    tenantName: 'Contoso & Co <Ltd>',
    toolVersion: '0.1.0',
  };
}
