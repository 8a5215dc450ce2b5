// The Action's outputs (names as in action.yml). Every output is always set ('' when unknown), so
// later steps never see a missing value.

import * as core from '@actions/core';
import { trendLine } from '../pipeline/gate/deadlines.js';
import type { JobResult } from '../pipeline/job/types.js';

export interface ActionOutputs {
  'scan-id': string;
  status: string;
  verdict: string;
  total: string;
  failed: string;
  new: string;
  fixed: string;
  waived: string;
  overdue: string;
  trend: string;
  'results-file': string;
  'junit-file': string;
  'sarif-file': string;
  'html-file': string;
  'csv-file': string;
  'ocsf-file': string;
  'record-file': string;
  'report-path': string;
  'report-status': string;
  'artifact-id': string;
  'artifact-url': string;
}

export function emptyOutputs(): ActionOutputs {
  return {
    'scan-id': '',
    status: '',
    verdict: '',
    total: '',
    failed: '',
    new: '',
    fixed: '',
    waived: '',
    overdue: '',
    trend: '',
    'results-file': '',
    'junit-file': '',
    'sarif-file': '',
    'html-file': '',
    'csv-file': '',
    'ocsf-file': '',
    'record-file': '',
    'report-path': '',
    'report-status': '',
    'artifact-id': '',
    'artifact-url': '',
  };
}

export function outputsOf(
  result: JobResult,
  artifact?: { id: number; url?: string },
): ActionOutputs {
  const completed = result.scan.phase === 'succeeded' && result.verdict !== undefined;
  const withHistory = result.gate !== undefined && result.gate.history.kind !== 'none';
  return {
    ...emptyOutputs(),
    'scan-id': result.scanId,
    status: result.status,
    verdict: result.verdict ?? '',
    total: result.total !== undefined ? String(result.total) : '',
    failed: completed ? String(result.failed) : '',
    new: completed && result.gate ? String(result.gate.counts.new) : '',
    fixed: completed && result.gate ? String(result.gate.counts.fixed) : '',
    waived: completed && result.gate ? String(result.gate.counts.waived) : '',
    overdue: completed && withHistory ? String(result.gate?.counts.overdue ?? 0) : '',
    trend: completed && withHistory ? trendLine(result.gate?.trend ?? []) : '',
    'results-file': result.resultsPath ?? '',
    'junit-file': result.junitPath ?? '',
    'sarif-file': result.sarifPath ?? '',
    'csv-file': result.csvPath ?? '',
    'ocsf-file': result.ocsfPath ?? '',
    'record-file': result.recordPath ?? '',
    'report-path': result.report.download?.path ?? '',
    'report-status': result.report.state ?? '',
    'artifact-id': artifact ? String(artifact.id) : '',
    'artifact-url': artifact?.url ?? '',
  };
}

export function setOutputs(outputs: ActionOutputs): void {
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, value);
}
