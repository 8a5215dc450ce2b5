// The CI-agnostic scan job: what it needs, whom it tells, and what it returns.
// The GitHub Action and the CLI are thin faces over this; nothing here knows of either.

import type {
  FindingView,
  Scan,
  ReportState,
  DownloadResult,
  RetryEvent,
  TenantClient,
} from '../../client/index.js';

import type { JobWording } from '../common/wording.js';
import type { ReadFinding } from '../common/findings.js';
import type { GateFiles } from '../gate/apply.js';
import type { GateOutcome, JudgedFinding } from '../gate/judge.js';
import type { ReportPolicy } from '../settings/types.js';
import type { ResultCounts } from '../common/result-kinds.js';

/** Everything the job takes besides settings and reporter. */
export interface RunJobOptions {
  /** Abort = the user cancelled: a scan this job triggered is cancelled remotely, then the job throws. */
  signal?: AbortSignal;
  /** A ready client (tests, the CLI); otherwise one is created from the settings and closed at the end. */
  client?: TenantClient;
  /** Environment read for SERVICE_API_URL and proxies. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Appended to the client's User-Agent ("github-action", "cli"). */
  userAgentSuffix?: string;
  /** Time allowed for the remote cancel (repeated until it is done) once aborted or timed out.
   *  Default 7_000: with the trigger's 2 s answer grace it ends before the runner's kill, 10 s after
   *  SIGINT (SIGTERM comes at 7.5 s; the handler keeps the cancel going). */
  cancelGraceMs?: number;
  /** Poll intervals of the scan wait and the report wait (defaults: the client's, 1 s–30 s). */
  pollIntervalMs?: { min?: number; max?: number };
  /** A repository file every SARIF result points at (GitHub code scanning needs a location). */
  sarifLocationUri?: string;
  /** How this face names the settings its messages point at (defaults: neutral words). */
  wording?: Partial<JobWording>;
  /** The gate's files when the face read them before (to say a bad one first): not read again. */
  gateFiles?: GateFiles;
}

/** Whom the job tells what happens. Each face implements it (log lines, progress bar, state). */
export interface JobReporter {
  info(message: string): void;
  warning(message: string): void;
  debug(message: string): void;
  /** A scan we triggered exists remotely: persist its id (the post step cancels it if we die). */
  scanTriggered(scanId: string): void;
  /** Called just before the trigger is sent (`pending`), and with undefined once its answer was
   *  saved (scanTriggered) or the job knows no scan was started. A face that can be killed saves it:
   *  its clean-up then looks for the scan a trigger without an answer may have started. */
  triggerPending?(pending: PendingTrigger | undefined): void;
  /** The trigger's answer was lost and the scan it may have started was looked up
   *  (lost-trigger.ts): the outcome as data, for a face to keep (the Action saves it as state). */
  lostTriggerLookup?(report: LostTriggerReport): void;
  /** A progress snapshot changed (status or progress); called only on change, not per poll. */
  progress(scan: Scan): void;
  /** The scan we triggered ended or was cancelled: nothing left to clean up. */
  scanSettled(scanId: string): void;
  /** The client is about to retry (rate limit, warm-up, …). */
  retrying(event: RetryEvent): void;
}

/** A trigger sent whose answer is not known yet: enough to find the scan it may have started. */
export interface PendingTrigger {
  scanType: string;
  /** Start of the window the scan's createdAt must fall in (epoch ms, clock skew allowance
   *  included), on the service's clock (its Date header) or, when it sent none, on this machine's. */
  windowStartMs: number;
  clock: 'server' | 'local';
  /** The scans of this type listed right before the trigger was sent: none of them is its own.
   *  Undefined when that list could not be read (the window alone then decides). */
  existing?: ExistingScans;
}

/** Scans that existed before a trigger was sent, kept small enough for a face's saved state. */
export interface ExistingScans {
  /** Ids of the listed scans of this type (or untyped) with a readable createdAt, newest first. */
  ids: string[];
  /** Every such listed scan created at or after this instant (epoch ms, on the clock of the
   *  service's createdAt stamps) is in `ids`; an older one was set aside by time. Undefined: all
   *  listed ones are in `ids`. */
  sinceMs?: number;
}

/** What the lookup after a lost trigger answer concluded: the one scan not listed before the
 *  trigger and created in its window (found), no such scan (none), two or more (several: refused,
 *  nothing taken, nothing cancelled), or the list could not be read (unreadable). */
export type LostTriggerOutcome = 'found' | 'none' | 'several' | 'unreadable';

export interface LostTriggerReport {
  outcome: LostTriggerOutcome;
  /** The scan taken as the trigger's own (found). */
  scanId?: string;
  /** How many scans could have been the trigger's (several). */
  candidates?: number;
  /** Whether scans listed before the trigger were set aside (false: the list before could not be
   *  read, the window alone decided). */
  existingKnown: boolean;
}

export type Verdict = 'passed' | 'failed';

export interface ReportOutcome {
  policy: ReportPolicy;
  /** The report's state when we looked (undefined when policy is 'none'). */
  state?: ReportState;
  /** Set when the report was downloaded. */
  download?: DownloadResult;
  /** Why there is no report, in words a user can act on. */
  note?: string;
}

export interface JobResult {
  scanId: string;
  /** The scan's final status word as the server sent it (or the last seen when not waiting). */
  status: string;
  scan: Scan;
  tenantName?: string;
  /** Undefined when the job did not wait for the end. */
  verdict?: Verdict;
  total?: number;
  failed: number;
  /** Failed findings as the gate judged them: new, then unchanged, then waived; worst first in each. */
  findings: JudgedFinding[];
  /** The gate's judgement (undefined when the scan did not complete or was not waited for). */
  gate?: GateOutcome;
  /** The checks by what became of them: passed, failed, not evaluated by kind (undefined when
   *  the scan did not complete, or its counts do not say). */
  results?: ResultCounts;
  /** Failed in the baseline, not failed now. */
  fixed: FindingView[];
  resultsPath?: string;
  report: ReportOutcome;
  /** Why the verdict is failed, one line, when it is. */
  failureReason?: string;
  /** Why the verdict is what it is, one line (the gate's reason, or the scan's end). */
  verdictReason?: string;
  /** Whether the step/command should fail: the scan did not complete, or findings with failOnFindings. */
  failStep: boolean;
  /** Whether this job triggered the scan (false when it followed scan-id). */
  triggered: boolean;
  /** Paths of the JUnit, SARIF, CSV and OCSF files written, if asked for. */
  junitPath?: string;
  sarifPath?: string;
  csvPath?: string;
  ocsfPath?: string;
  /** The record written (settings.record), absolute. */
  recordPath?: string;
}

/** Writes the result files of a completed scan (the composition gives the job its writer, so the
 *  job knows no file format). */
export type ResultFileWriter = (judged: {
  scan: Scan;
  gate: GateOutcome;
  all: ReadFinding[] | undefined;
  tenantName: string | undefined;
  results?: ResultCounts;
}) => Promise<{ junitPath?: string; sarifPath?: string; csvPath?: string; ocsfPath?: string }>;
