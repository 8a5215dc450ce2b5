// SARIF 2.1.0 of a scan: each failed check is a result with its rule (id, help text, link), the
// level taken from the severity. Valid against the OASIS schema (test/fixtures/sarif/) and checked
// with Microsoft's SARIF multitool in CI.

import { CLIENT_VERSION } from '../../client/index.js';
import type { FindingView, Severity } from '../../client/index.js';
import { JsonList, prettyJsonPieces } from '../common/json-text.js';
import { markdownLink, markdownText } from '../common/markdown.js';
import { ageProperties, resultKind, type FindingMarks, type ResultsInput } from './checks.js';

export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';
export const DEFAULT_TOOL_URI = 'https://github.com/tenant-scan/tenant-scan';

type SarifLevel = 'error' | 'warning' | 'note';

const LEVEL_BY_SEVERITY: Record<Severity, SarifLevel> = {
  critical: 'error',
  high: 'error',
  medium: 'warning',
  low: 'note',
  info: 'note',
  unknown: 'warning',
};

// GitHub code scanning ranks results by this property (a CVSS-like score as a string).
const SECURITY_SEVERITY: Record<Severity, string> = {
  critical: '9.5',
  high: '8.0',
  medium: '5.5',
  low: '3.0',
  info: '0.0',
  unknown: '5.0',
};

export function levelFromSeverity(severity: Severity): SarifLevel {
  return LEVEL_BY_SEVERITY[severity];
}

export interface SarifLog {
  $schema: string;
  version: '2.1.0';
  runs: Array<Record<string, unknown>>;
}

/** The SARIF log; `lazy`: its results made as they are written (sarifText), never all at once. */
export function toSarif(input: ResultsInput, lazy = false): SarifLog {
  const failed = input.findings.filter((finding) => resultKind(finding.result) === 'failed');
  const fixed = input.baselineFound ? (input.fixed ?? []) : [];
  const rules = uniqueRules(failed.concat(fixed));
  const ruleIndex = new Map(rules.map((rule, index) => [rule.id, index]));
  const failedResult = (finding: FindingView & FindingMarks) => ({
    ...resultOf(finding, ruleIndex, ageProperties(finding)),
    ...gateFieldsOf(finding, input.baselineFound),
    ...locationOf(input.sarifLocationUri),
  });
  const fixedResult = (finding: FindingView) => ({
    ...absentResultOf(finding, ruleIndex),
    ...locationOf(input.sarifLocationUri),
  });
  const results = lazy
    ? new JsonList(failed.length + fixed.length, function* () {
        for (const finding of failed) yield failedResult(finding);
        for (const finding of fixed) yield fixedResult(finding);
      })
    : [...failed.map(failedResult), ...fixed.map(fixedResult)];

  return {
    $schema: SARIF_SCHEMA_URI,
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'tenant-scan',
            informationUri: input.toolUri ?? DEFAULT_TOOL_URI,
            version: input.toolVersion ?? CLIENT_VERSION,
            rules,
          },
        },
        automationDetails: { id: `tenant-scan/${input.scan.scanType ?? 'scan'}/${input.scan.id}` },
        invocations: [{ executionSuccessful: true, ...timesOf(input) }],
        results,
        properties: runProperties(input),
      },
    ],
  };
}

/** The SARIF file's text (pretty JSON and a line feed), a result at a time. */
export function* sarifText(input: ResultsInput): Generator<string> {
  yield* prettyJsonPieces(toSarif(input, true));
  yield '\n';
}

interface SarifRule {
  id: string;
  name?: string;
  shortDescription: { text: string };
  fullDescription?: { text: string };
  help: { text: string; markdown: string };
  helpUri?: string;
  defaultConfiguration: { level: SarifLevel };
  properties: Record<string, unknown>;
}

function uniqueRules(findings: FindingView[]): SarifRule[] {
  const byId = new Map<string, SarifRule>();
  for (const finding of findings) {
    const id = finding.identity;
    if (!byId.has(id)) byId.set(id, ruleOf(id, finding));
  }
  return [...byId.values()];
}

function ruleOf(id: string, finding: FindingView): SarifRule {
  const reference = absoluteUri(finding.reference);
  return {
    id,
    shortDescription: { text: sentence(finding.title) },
    ...(finding.description ? { fullDescription: { text: sentence(finding.description) } } : {}),
    help: helpOf(finding, reference),
    ...(reference ? { helpUri: reference } : {}),
    defaultConfiguration: { level: levelFromSeverity(finding.severity) },
    properties: {
      severity: finding.severity,
      'security-severity': SECURITY_SEVERITY[finding.severity],
      tags: ['security', 'compliance', ...(finding.category ? [finding.category] : [])],
      ...(finding.category ? { category: finding.category } : {}),
    },
  };
}

function helpOf(finding: FindingView, reference: string | undefined): SarifRule['help'] {
  const remediation = finding.remediation ?? 'No remediation text was given for this check.';
  const text = reference
    ? `${sentence(remediation)}\nReference: ${reference}`
    : sentence(remediation);
  const link = markdownLink('Reference', reference);
  const markdown = `**Remediation:** ${markdownText(remediation, 4000)}${link ? `\n\n${link}` : ''}`;
  return { text, markdown };
}

function resultOf(
  finding: FindingView,
  ruleIndex: Map<string, number>,
  age: Record<string, unknown>,
): Record<string, unknown> {
  const ruleId = finding.identity;
  const description = finding.description ? ` ${sentence(finding.description)}` : '';
  return {
    ruleId,
    ruleIndex: ruleIndex.get(ruleId),
    level: levelFromSeverity(finding.severity),
    kind: 'fail',
    message: { text: `${sentence(finding.title)}${description}` },
    partialFingerprints: { 'tenantScanCheck/v1': ruleId },
    properties: {
      findingId: finding.id,
      result: finding.result,
      severity: finding.severity,
      ...(finding.category ? { category: finding.category } : {}),
      ...age,
    },
  };
}

/** The gate in SARIF's own words: baselineState on every result once a baseline was compared
 *  with (the spec wants it on all or none), a waiver as an accepted external suppression. */
function gateFieldsOf(
  marks: FindingMarks,
  baselineFound: boolean | undefined,
): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  if (baselineFound) fields.baselineState = marks.baselineState ?? 'new';
  if (marks.waiver) {
    const { reason, expires, owner } = marks.waiver;
    fields.suppressions = [
      {
        kind: 'external',
        status: 'accepted',
        justification: `${reason} (waived until ${expires}${owner ? `, owner ${owner}` : ''})`,
      },
    ];
  }
  return fields;
}

/** A check that failed in the baseline and does not now: kind pass, so it raises no alert. */
function absentResultOf(
  finding: FindingView,
  ruleIndex: Map<string, number>,
): Record<string, unknown> {
  const ruleId = finding.identity;
  return {
    ruleId,
    ruleIndex: ruleIndex.get(ruleId),
    kind: 'pass',
    level: 'none',
    baselineState: 'absent',
    message: { text: `Fixed since the baseline: ${sentence(finding.title)}` },
    partialFingerprints: { 'tenantScanCheck/v1': ruleId },
    properties: {
      severity: finding.severity,
      ...(finding.category ? { category: finding.category } : {}),
    },
  };
}

function locationOf(uri: string | undefined): Record<string, unknown> {
  if (!uri || uri.trim() === '') return {};
  return {
    locations: [
      { physicalLocation: { artifactLocation: { uri: uri.trim() }, region: { startLine: 1 } } },
    ],
  };
}

function timesOf(input: ResultsInput): Record<string, string> {
  const times: Record<string, string> = {};
  const start = isoOrUndefined(input.scan.createdAt);
  const end = isoOrUndefined(input.scan.completedAt);
  if (start) times.startTimeUtc = start;
  if (end) times.endTimeUtc = end;
  return times;
}

function runProperties(input: ResultsInput): Record<string, unknown> {
  return {
    scanId: input.scan.id,
    scanStatus: input.scan.status,
    ...(input.scan.scanType ? { scanType: input.scan.scanType } : {}),
    ...(input.tenantName ? { tenant: input.tenantName } : {}),
    ...(input.scan.summary ? { summary: input.scan.summary } : {}),
  };
}

/** SARIF wants messages as sentences: trimmed, ending with a period. */
function sentence(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') return 'No description.';
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

function absoluteUri(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

function isoOrUndefined(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const time = Date.parse(value);
  return Number.isNaN(time) ? undefined : new Date(time).toISOString();
}
