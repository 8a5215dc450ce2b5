// What one run left behind, collected right after its post step: plain data, so the invariant
// checkers are pure functions that can be tested on synthetic observations.
import type { FindingShape, LoggedRequest, ScanTruth } from '../emulator/types.js';

/** The slice of a step's result the checkers read. */
export interface StepView {
  exitCode: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  /** The state the step saved (GITHUB_STATE), e.g. `lost-trigger`: the outcome of a lookup after a
   *  lost trigger answer, which the checkers read as data. */
  state: Record<string, string>;
  summary: string;
  /** Error annotations, in log order (the failure line is the last). */
  errors: string[];
  /** Signals the harness sent (empty when not cancelled). */
  signalsSent: string[];
  timedOut: boolean;
  /** Wall time from spawn to exit, and the peak resident memory measured on the process. */
  durationMs?: number;
  peakRssBytes?: number;
}

export interface FileView {
  /** Path relative to the job root (e.g. work/repo/report.pdf). */
  path: string;
  bytes: number;
  sha256: string;
  /** The run's API key is in the file (plain, URL-encoded or base64). */
  containsKey: boolean;
}

/** A request seen by an origin that is not the API (download, artifact, GitHub), with where the
 *  key was found in it, if anywhere. */
export interface ForeignRequest {
  origin: string;
  method: string;
  path: string;
  keyFoundIn: string[];
}

export interface Observation {
  seed: number;
  apiKey: string;
  inputs: Record<string, string>;
  /** `cancel` of the scenario: none, sigint or kill. */
  cancelKind: 'none' | 'sigint' | 'kill';
  main: StepView;
  post?: StepView;
  /** Id of the run's key (from the emulator's log): scans it triggered carry it. Unknown when no
   *  request of the run was authenticated. */
  runKeyId?: string;
  /** Scans of the run's tenant before the run (a scan to follow, another job's) and right after
   *  the post step (including scans other jobs started meanwhile). */
  scansBefore: ScanTruth[];
  scansAfter: ScanTruth[];
  /** Ground truth of each scan's failed findings after the run (checkId, severity). */
  failedFindings: Record<string, Array<{ checkId: string; severity: string }>>;
  /** Ground truth of the checks each completed scan evaluated (its Passed and Failed results, the
   *  emulator's meaning), for coverage (issue 47). Absent: not known (hand-made observations). */
  evaluatedChecks?: Record<string, string[]>;
  /** The run's scan never moves again once its progress stops (a stuck plan, or a stall for
   *  ever): with stall-minutes it must be stopped, never passed. */
  stalledForGood?: boolean;
  /** The finding shape the service used ('sparse' findings carry no severity). */
  findingShape: FindingShape;
  /** Checks waived by a waiver in force (the scenario's waivers file). */
  waivedChecks: string[];
  /** Workspace-relative files the harness put there before the run (the waivers file). */
  givenFiles: string[];
  creditsBefore: number;
  creditsAfter: number;
  /** Expected sha256 of each scan's report (scans of the run's tenant). */
  reportDigests: Record<string, string>;
  /** Files under the job root after the run. Report files are under `workspacePrefix`. */
  files: FileView[];
  /** Job-root-relative path of the workspace (GITHUB_WORKSPACE, the action's cwd). */
  workspacePrefix: string;
  /** Job-root-relative path of the report file the inputs asked for. */
  reportFile: string;
  /** Requests to origins other than the API: download, artifact backend, GitHub REST. */
  foreignRequests: ForeignRequest[];
  /** API requests of this run, with the fault that hit each, if any, and how long each lasted. */
  apiRequests: Array<
    Pick<LoggedRequest, 'method' | 'path' | 'status' | 'fault' | 'durationMs'> & { query?: string }
  >;
  /** The service shows a scan's counts (variant countsShape is not 'none'). */
  countsShown?: boolean;
  /** Markdown the run sent to GitHub's REST API: PR comment bodies and check run summaries. */
  githubMarkdown?: string[];
  /** Titles of the issues and check runs the run wrote: plain text. */
  githubTitles?: string[];
  /** The tracking issues under the run's own label after the run (tracking-issue on). */
  trackingIssues?: Array<{ number: number; state: string; markers: string[] }>;
  /** Issues the run created or edited (issues/create, issues/update). */
  trackingWrites?: number;
  /** Issues and comments by someone else that carried our markers (foreign.ts): whether they
   *  changed during the run, and how many of the run's writes were aimed at them. */
  foreignItems?: Array<{ kind: 'issue' | 'comment'; id: number; changed: boolean; writes: number }>;
  /** Requests to the download origin: status, the fault that hit each, if any, and duration. */
  downloads?: Pick<LoggedRequest, 'status' | 'fault' | 'durationMs'>[];
  /** sha256 of report artifacts uploaded by this run. */
  uploadedReports: string[];
  /** The run's record (record-file) as a roll-up judges it from its own findings and gate: the
   *  row's verdict and why; `editedToPass`: the verdict of the same record edited to say passed
   *  (a failed run's only). */
  record?: { verdict: string; problem: string | null; editedToPass?: string };
}
