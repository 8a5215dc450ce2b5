// JUnit XML of a scan: one test suite for the scan, one test case per check, failed checks as
// <failure>. This is what GitLab, Azure Pipelines and Jenkins show in their test tabs. The layout
// follows the widely used Jenkins/Ant JUnit schema (test/fixtures/junit/junit.xsd).

import type { FindingView } from '../../client/index.js';
import {
  ageProperties,
  resultKind,
  type FindingMarks,
  type ResultKind,
  type ResultsInput,
} from './checks.js';

export function toJunitXml(input: ResultsInput): string {
  return [...junitLines(input)].join('\n') + '\n';
}

// A waived failure is reported as skipped, with the waiver's reason: it does not fail the gate.
function kindOf(finding: FindingView & FindingMarks): ResultKind | 'skipped' {
  return waived(finding) ? 'skipped' : resultKind(finding.result);
}

/** The document's lines, one test case at a time (250,000 cases are never one string). */
export function* junitLines(input: ResultsInput): Generator<string> {
  const tally = new Map<ResultKind | 'skipped', number>();
  for (const finding of input.findings) {
    const kind = kindOf(finding);
    tally.set(kind, (tally.get(kind) ?? 0) + 1);
  }
  const count = (kind: ResultKind) => tally.get(kind) ?? 0;
  const tests = input.findings.length;
  const failures = count('failed');
  const errors = count('error');
  const skipped = tests - failures - errors - count('passed');
  const time = formatSeconds(scanDurationSeconds(input));
  const counts = { tests, failures, errors };

  yield* [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites${attrs({ name: 'tenant-scan', ...counts, time })}>`,
    `  <testsuite${attrs({
      name: suiteName(input),
      ...counts,
      skipped,
      time,
      timestamp: input.scan.createdAt,
      id: input.scan.id,
      package: 'tenant-scan',
    })}>`,
    ...propertiesXml(input),
  ];
  for (const finding of input.findings) yield testcaseXml(finding, kindOf(finding));
  yield '  </testsuite>';
  yield '</testsuites>';
}

function suiteName(input: ResultsInput): string {
  const type = input.scan.scanType ?? 'scan';
  const tenant = input.tenantName ? ` of ${input.tenantName}` : '';
  return `tenant-scan ${type}${tenant} (${input.scan.id})`;
}

function propertiesXml(input: ResultsInput): string[] {
  const props: Record<string, string | undefined> = {
    'scan.id': input.scan.id,
    'scan.status': input.scan.status,
    'scan.type': input.scan.scanType,
    'scan.createdAt': input.scan.createdAt,
    'scan.completedAt': input.scan.completedAt,
    tenant: input.tenantName,
  };
  const entries = Object.entries(props).filter(([, value]) => value !== undefined && value !== '');
  return [
    '    <properties>',
    ...entries.map(([name, value]) => `      <property${attrs({ name, value })}/>`),
    '    </properties>',
  ];
}

function waived(finding: FindingView & FindingMarks): boolean {
  return finding.waiver !== undefined && resultKind(finding.result) === 'failed';
}

function testcaseXml(finding: FindingView & FindingMarks, kind: ResultKind): string {
  const head = `    <testcase${attrs({
    name: `${finding.identity}: ${finding.title}`,
    classname: `tenant-scan.${finding.category ?? 'uncategorised'}`,
    time: '0',
  })}`;
  const children = [propertiesOf(finding), outcomeXml(finding, kind)].filter(
    (child): child is string => child !== undefined,
  );
  return children.length > 0
    ? `${head}>\n${children.map((child) => `      ${child}`).join('\n')}\n    </testcase>`
    : `${head}/>`;
}

/** A failed finding's age as testcase properties (the JUnit format's testcase <properties>). */
function propertiesOf(finding: FindingView & FindingMarks): string | undefined {
  const entries = Object.entries(ageProperties(finding));
  if (entries.length === 0) return undefined;
  const lines = entries.map(
    ([name, value]) => `<property${attrs({ name, value: String(value) })}/>`,
  );
  return `<properties>${lines.join('')}</properties>`;
}

function outcomeXml(finding: FindingView & FindingMarks, kind: ResultKind): string | undefined {
  const message = `[${finding.severity}] ${finding.title}`;
  if (waived(finding) && finding.waiver) {
    const { reason, expires, owner } = finding.waiver;
    const who = owner ? `, owner ${owner}` : '';
    return `<skipped${attrs({ message: `waived until ${expires}${who}: ${reason}` })}/>`;
  }
  switch (kind) {
    case 'passed':
      return undefined;
    case 'failed':
      return `<failure${attrs({ type: finding.severity, message })}>${text(details(finding))}</failure>`;
    case 'error':
      return `<error${attrs({ type: finding.severity, message })}>${text(details(finding))}</error>`;
    case 'skipped':
      return `<skipped${attrs({ message: finding.result })}/>`;
    case 'other':
      return `<skipped${attrs({ message: `unknown result "${finding.result}"` })}/>`;
  }
}

function details(finding: FindingView): string {
  return [
    `Check: ${finding.identity}`,
    `Severity: ${finding.severity}`,
    finding.category ? `Category: ${finding.category}` : undefined,
    finding.description ? `\n${finding.description}` : undefined,
    finding.remediation ? `\nRemediation: ${finding.remediation}` : undefined,
    finding.reference ? `Reference: ${finding.reference}` : undefined,
  ]
    .filter((line) => line !== undefined)
    .join('\n');
}

function scanDurationSeconds(input: ResultsInput): number {
  const start = Date.parse(input.scan.createdAt ?? '');
  const end = Date.parse(input.scan.completedAt ?? '');
  if (Number.isNaN(start) || Number.isNaN(end) || end < start) return 0;
  return (end - start) / 1000;
}

function formatSeconds(seconds: number): string {
  return seconds.toFixed(3);
}

function attrs(values: Record<string, string | number | undefined>): string {
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => ` ${name}="${attribute(String(value))}"`)
    .join('');
}

// Characters XML 1.0 does not allow at all (control characters, lone surrogates, U+FFFE/U+FFFF).
const INVALID_XML =
  // eslint-disable-next-line no-control-regex
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function text(value: string): string {
  return value
    .replace(INVALID_XML, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');
}
