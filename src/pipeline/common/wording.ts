// The words a job message uses for the settings it points at. Each face passes its own (the Action's
// input names, the CLI's flags); these defaults name no face.

import type { IdentifiedThing } from './api-routes.js';

export const DEFAULT_JOB_WORDING: JobWording = {
  noWait: 'as asked',
  reportGenerate: 'the generate report policy',
  scanId: 'the scan id',
  scanTimeout: 'the scan timeout',
  apiKey: 'the API key',
  apiUrl: 'the API address',
  resultsMax: 'the results read cap',
  requestTimeout: 'the request timeout',
};

export function jobWording(wording: Partial<JobWording> = {}): JobWording {
  return { ...DEFAULT_JOB_WORDING, ...wording };
}

/** The face's names for what a message tells the user to change ("report: generate" in the
 *  Action, "--report generate" in the CLI). The pipeline's own defaults name no face. */
export interface JobWording {
  /** Why the job did not wait, e.g. "wait is false" or "no --watch". */
  noWait: string;
  /** How to ask for report generation, e.g. "report: generate" or "--report generate". */
  reportGenerate: string;
  /** What a user may do with a scan that exists instead of triggering one, e.g. "follow an
   *  existing scan with scan-id"; none when the face offers nothing. */
  insteadOfTrigger?: string;
  /** The face's command that lists the things a route names by id, e.g. "tenant-scan keys list"
   *  (a 404 on such a route names it); none when the face has none. */
  listIds?: Partial<Record<IdentifiedThing, string>>;
  /** The setting that names a scan to follow, e.g. "scan-id" (checked on a 404). */
  scanId: string;
  /** The scan time limit's setting, e.g. "scan-timeout-minutes" or "--timeout". */
  scanTimeout: string;
  /** Where the API key comes from, e.g. "the api-key secret" or "SERVICE_API_KEY". */
  apiKey: string;
  /** Where the API address comes from, e.g. "api-url" or "SERVICE_API_URL". */
  apiUrl: string;
  /** The setting that bounds each exchange with the service, e.g. "request-timeout-seconds" or
   *  "--request-timeout or SERVICE_REQUEST_TIMEOUT". */
  requestTimeout: string;
  /** The setting that bounds how far ahead a waiver may expire, e.g. "--waivers-max-days". */
  waiversMaxDays?: string;
  /** The setting that stops a scan that stood still, e.g. "stall-minutes" or "--stall-minutes". */
  stallMinutes?: string;
  /** The setting that raises the bytes one results read may hold, e.g. "results-max-mib". */
  resultsMax: string;
}

/** Phases, used as message prefixes: "Trigger failed: …". */
export type JobPhase =
  | 'Sanity checks'
  | 'Authentication'
  | 'Trigger'
  | 'Wait'
  | 'Results'
  | 'Baseline'
  | 'Report'
  | 'Verdict'
  | 'Cancel';

/** What a message starts with: the job's phase, or the cause when it names the fix better
 *  ("Connection failed: nothing answers at …"; error-causes.ts). */
export type JobHeading = JobPhase | 'Connection' | 'TLS' | 'Address';
