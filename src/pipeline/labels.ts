// The words a job message uses for the settings it points at. Each face passes its own (the Action's
// input names, the CLI's flags); these defaults name no face.

import type { JobLabels } from './types.js';

export const DEFAULT_JOB_LABELS: JobLabels = {
  noWait: 'as asked',
  reportGenerate: 'the generate report policy',
  followScan: 'by its id',
  scanId: 'the scan id',
  scanTimeout: 'the scan timeout',
  apiKey: 'the API key',
  apiUrl: 'the API address',
};

export function jobLabels(labels: Partial<JobLabels> = {}): JobLabels {
  return { ...DEFAULT_JOB_LABELS, ...labels };
}
