// The emulator's public surface: what tests, benchmarks, the demo and `npm run emulator` use.
// Everything here is *emulator choice* where the seed says "not shown" (the team's API contract).
import type { ProgressShape } from './progress.js';

export type RateLimitModel =
  | { kind: 'none' }
  /** Seed model 1: account-wide token bucket, 429 RATE_LIMITED without Retry-After. */
  | { kind: 'account'; ratePerSecond?: number; burst?: number }
  /** Seed model 2: per key, N requests per minute (sliding window), 429 with Retry-After (seconds). */
  | { kind: 'per-key'; perMinute?: number };

/** How a scan started from now on behaves. Durations are in emulator-clock milliseconds. */
export interface ScanPlan {
  /** Time from creation to the terminal state. Default 10_000. */
  durationMs?: number;
  /** Time spent `queued` before `running`. Default 1_000. */
  queuedMs?: number;
  /** Shape of progress over the running phase (progress.ts): linear, back-loaded (t³),
   *  front-loaded, stalled (10 % until the end), none (no progress field at all), or
   *  stall-then-jump. Default 'linear'. */
  progressCurve?: ProgressShape;
  /** The scan's progress stops `afterMs` into its running phase (emulator ms) and stands still
   *  for `forMs` (Infinity: for ever, the scan never ends), then goes on: the end comes that much
   *  later. Its status stays running meanwhile. */
  stall?: { afterMs: number; forMs: number };
  /** Terminal outcome. Default { kind: 'completed', total: 40, failed: 5 }. */
  outcome?:
    | {
        kind: 'completed';
        total: number;
        failed: number;
        skipped?: number;
        /** Exactly these checks fail (catalogue ids of findings-catalog.ts, `#n` for the n-th
         *  resource of a check, see checkIdAt); `failed` and `skipped` are then ignored. Lets a
         *  tenant hold several completed scans of one type whose failed checks differ as a test
         *  wants. Ids beyond `total` results are ignored. */
        failedChecks?: string[];
        /** These checks answer with this result word instead (any word, in any case: `Skipped`,
         *  `NotApplicable`, `not_licensed`, `N/A`, `Error`, `NotRun`, `Deferred`, `passed`…).
         *  The emulator means only Passed and Failed (in any case) as evaluated; every other word
         *  is a check it did not evaluate (ScanTruth, Emulator.results). Ids beyond `total` are
         *  ignored. */
        resultWords?: Record<string, string>;
      }
    | { kind: 'failed'; message?: string }
    /** Never finishes: stays `running` at some progress < 100 forever. */
    | { kind: 'stuck'; atProgress?: number };
}

/** Variants of the behaviours the seed leaves unknown, to prove the client's tolerance. */
/** Every form a ready report's address can take (UnknownsVariant.downloadAddress): a field of the
 *  status body, or a redirect of GET /scans/{id}/report straight to it. */
export const DOWNLOAD_ADDRESS_FORMS = [
  'downloadUrl',
  'url',
  'presignedUrl',
  'href',
  'redirect302',
  'redirect303',
] as const;

export interface UnknownsVariant {
  /** Scan status words. 'default': queued/running/completed/failed/cancelled;
   *  'upper': QUEUED/RUNNING/COMPLETED/FAILED/CANCELLED;
   *  'alt': pending/in_progress/succeeded/error/canceled. */
  statusVocabulary?: 'default' | 'upper' | 'alt';
  /** Finding fields. 'default': title/severity/category/remediation/reference;
   *  'alt': name/level/group/fix/url with severity words upper-cased and no `title`;
   *  'sparse': only id, checkId and result; 'maester': Maester's testId/name/result/severity
   *  (capitalised)/helpUrl/block, no id or checkId. */
  findingShape?: FindingShape;
  /** Error body. 'envelope': {success:false,error:{code,message}}; 'flat': {code,message};
   *  'string': {error:"CODE"}; 'empty': no body; 'html': an HTML page; 'text': text/plain. */
  errorShape?: 'envelope' | 'flat' | 'string' | 'empty' | 'html' | 'text';
  /** Where a ready report's address is: a field of the status body, or a redirect of
   *  GET /scans/{id}/report straight to it. */
  downloadAddress?: (typeof DOWNLOAD_ADDRESS_FORMS)[number];
  /** Page size of GET /scans/{id}/results (absent: no pagination, one page). Pages are
   *  followed with `?cursor=N` and announced by meta.nextCursor. */
  resultsPageSize?: number;
  /** The server ignores `?result=` and returns every result. */
  ignoreResultFilter?: boolean;
  /** HTTP status of SCAN_PLAN_LIMIT_REACHED. Default 429. */
  planLimitStatus?: 429 | 402 | 403;
  /** A compromised service: terminal escape sequences and control characters in every finding's
   *  title and category and in the tenant's name (window title, clear screen, a disguised
   *  hyperlink, a carriage return, a bidi override). See HOSTILE_TEXT. */
  hostileText?: boolean;
  /** Where a completed scan carries its counts. 'default': `summary {total,passed,failed,
   *  skipped}`; 'renamed': `results {totalChecks,passedChecks,failedChecks,skippedChecks}` with
   *  the numbers as strings; 'none': no counts at all. */
  countsShape?: 'default' | 'renamed' | 'none';
  /** Markup a careless or hostile service sends as text: @mentions of a user and a team, issue
   *  references, an image, HTML, a javascript: link, bare addresses, in every finding's text
   *  fields (title, category, description, remediation; the reference is a javascript: address)
   *  and the tenant's name. See HOSTILE_MARKDOWN. */
  hostileMarkdown?: boolean;
  /** The service echoes the API key each request presents in every finding's title and
   *  description and in the tenant's name, in each of its forms (findings.ts echoForms): as is,
   *  Markdown-escaped, percent-encoded, its secret part alone, case-folded, split by a zero-width
   *  space. */
  echoKey?: boolean;
  /** The service echoes every key it holds, whichever tenant's (one host serves them all), as
   *  echoKey does the presenting one. */
  echoEveryKey?: boolean;
  /** Texts the service writes where it echoes keys, as they are (a test's drawn forms). */
  echoTexts?: string[];
  /** A service that sends long text: each finding's title, description and remediation padded
   *  with words to about this many bytes of UTF-8 (findings.ts padText); `wide` pads with Cyrillic
   *  (two bytes a character, and two a character in memory too). Generated as each page is
   *  streamed, so 5,000 results of 100 KB cost the emulator no memory. */
  findingTextBytes?: { title?: number; description?: number; remediation?: number; wide?: boolean };
  /** Scan ids that are not plain identifiers: a shell command substitution before the uuid. */
  hostileScanIds?: boolean;
  /** Seed, Authentication rule 10: whether a key may PATCH the notification settings is not
   *  shown. 'allowed' (default), or 'dashboard-only': 403 AUTH_INSUFFICIENT_SCOPE. */
  notificationsPatch?: 'allowed' | 'dashboard-only';
}

export const FINDING_SHAPES = ['default', 'alt', 'sparse', 'maester'] as const;
export type FindingShape = (typeof FINDING_SHAPES)[number];

export type Fault =
  /** Answer with an error status instead of handling the request. The body follows errorShape
   *  unless `html` is set. `retryAfter`: a number of seconds, or 'http-date' (now + seconds). */
  | {
      kind: 'status';
      status: number;
      code?: string;
      retryAfter?: number | { httpDateSeconds: number };
      html?: boolean;
      /** The handler runs first (a POST *did* happen), then this status is answered instead. */
      afterHandler?: boolean;
    }
  /** Destroy the socket: before sending anything ('before'), or after the handler ran and part of
   *  the response was written ('mid-response' — for a POST the action *did* happen). */
  | { kind: 'reset'; when: 'before' | 'mid-response' }
  /** Delay the response by ms (wall clock), then handle normally. */
  | { kind: 'delay'; ms: number }
  /** Send headers and a prefix of the real body, then end the connection (Content-Length promises
   *  more). The prefix is half the body; on the download origin `atByte` sets its length (at most
   *  all but the last byte). */
  | { kind: 'truncate'; atByte?: number }
  /** Send the headers at once (the body's real Content-Length), then the whole real body in pieces
   *  of `bytesPerChunk` bytes with `intervalMs` (wall clock) between them: a body at
   *  bytesPerChunk / intervalMs. On the download origin it paces the report as it is streamed
   *  (never buffered): pick bytesPerChunk from the report size to bound the time. */
  | { kind: 'slow-body'; bytesPerChunk: number; intervalMs: number }
  /** Send the headers and the first `afterBytes` of the body (at most all but its last byte), then
   *  nothing for `ms` (wall clock), then the rest at once. `ms: Infinity`: nothing more, ever; the
   *  connection stays open until the client gives up (its body timeout) or the emulator closes.
   *  An empty body holds back the headers instead. */
  | { kind: 'stall'; afterBytes: number; ms: number }
  /** The handler runs, then instead of its answer: a 200 whose body never ends (a JSON envelope
   *  that keeps streaming; on the download origin, PDF bytes). Ends when the client goes away. */
  | { kind: 'endless-body' }
  /** The handler runs, then a 200 whose body is `bytes` long (JSON that is one huge string, or PDF
   *  bytes); chunked unless `declared`, which sends `Content-Length: bytes`. */
  | { kind: 'huge-body'; bytes: number; declared?: boolean }
  /** The handler runs, then a 200 whose body arrives one byte every `intervalMs` (default 1000,
   *  wall clock), forever: no silence ever lasts long enough to look stalled. */
  | { kind: 'trickle'; intervalMs?: number }
  /** The handler runs, then nothing at all is sent: not even the headers. */
  | { kind: 'no-answer' }
  /** A success envelope around this `data` instead of the real answer ("ok", null, an object):
   *  the answer of a broken gateway or a service that changed its shape. */
  | { kind: 'data'; data: unknown }
  /** A results page with no items whose meta.nextCursor is always one further: pages that never
   *  end. */
  | { kind: 'endless-cursor' }
  /** The real results page without its failed results: a read that disagrees with the scan's
   *  counts. */
  | { kind: 'drop-failed' };

export interface FaultRule {
  /** "METHOD /path" with :params, e.g. "GET /scans/:id" or "POST /tenants/me/scans"; "*" for any;
   *  the method may be "*". The download origin's route is "GET /download/:token". */
  route: string;
  fault: Fault;
  /** How many matching requests it hits (default 1; Infinity for always). */
  times?: number;
  /** Skip this many matching requests first (default 0). */
  after?: number;
  /** Only requests that present this API key (the Authorization header's bearer value, valid or
   *  not): one job's key in a fleet. Download requests present none, so such a rule never hits
   *  them. Default: any request. */
  key?: string;
}

export interface LoggedRequest {
  /** Emulator wall-clock ms. */
  at: number;
  origin: 'api' | 'download' | 'control';
  method: string;
  /** Path relative to the API base (e.g. "/scans/abc"), or the download path. */
  path: string;
  query: string;
  /** Header values as received (lower-case names). Includes `authorization` if sent. */
  headers: Record<string, string>;
  status: number;
  /** Which tenant and key authenticated it, if any. */
  tenantId?: string;
  keyId?: string;
  /** A fault rule that hit it, if any. */
  fault?: Fault['kind'];
  /** The JSON body, when a route read one. */
  body?: Record<string, unknown>;
  /** Wall ms from the request's arrival until its response ended or the connection closed
   *  (absent while it is still open). */
  durationMs?: number;
}

export interface TenantSeed {
  id?: string;
  /** Organisation name; null gives report status `orgNameRequired`. Default "Contoso Ltd". */
  name?: string | null;
  plan?: {
    apiAccess?: boolean; // default true
    scanQuota?: number; // scans that may be triggered; default Infinity
    reportAllowance?: number; // reports free of credit; default 0 (every generate costs a credit)
    reportCredits?: number; // credits available; default 10
  };
  connections?: Array<{ msTenantId: string; displayName?: string }>;
  scanPlan?: ScanPlan;
  /** Notification fields to set (the rest keep the defaults). */
  notifications?: Partial<{
    emailOnComplete: boolean;
    emailOnFail: boolean;
    teamsWebhookUrl: string | null;
    teamsOnComplete: boolean;
    teamsOnFail: boolean;
  }>;
  /** Attack-surface targets, replacing the current ones. */
  targets?: Array<{ host: string; label?: string | null; verified?: boolean }>;
}

/** A key of the past (Emulator.addKey): how old it is and when it was last used. */
export interface KeyAge {
  /** How long before now it was created (emulator clock). */
  ageMs?: number;
  /** How long before now it was last used; null: never used. Default: never used. */
  lastUsedAgoMs?: number | null;
}

export interface EmulatorOptions {
  /** Seed of all generated data and of random choices. Default 1. */
  seed?: number;
  /** Emulator clock speed: 10 means 10 emulator seconds per wall second. Default 1. */
  clockSpeed?: number;
  rateLimit?: RateLimitModel;
  /** While the emulator is younger than this (wall ms), every API request gets 503 SERVICE_STARTING. */
  warmupMs?: number;
  /** Presigned download address lifetime (wall ms). Default 60_000. */
  downloadTtlMs?: number;
  /** Size of a generated report in bytes. Default 200_000. Bytes are generated deterministically, streamed. */
  reportSizeBytes?: number;
  /** Time a report spends `rendering` after generate (emulator-clock ms). Default 3_000. */
  reportRenderMs?: number;
  /** Path prefix of the API base. Default "/api/v1". */
  basePath?: string;
  variant?: UnknownsVariant;
  /** The default tenant (created with one ready key). */
  tenant?: TenantSeed;
  host?: string; // default 127.0.0.1
  port?: number; // default 0
  /** Port of the download origin. Default 0 (any free port). */
  downloadPort?: number;
  /** Port of the control origin. Default 0 (any free port). */
  controlPort?: number;
  /** Emulator clock start, epoch ms. Default: the wall clock at start. Fix it for byte-identical data. */
  epochMs?: number;
  /** Most requests kept in the request log (oldest dropped first). Default 50_000. */
  requestLogLimit?: number;
  /** Which checks a completed scan fails (under a plan of counts, not of failedChecks).
   *  'stable' (default): a tenant's scans of one type fail the same checks, scan after scan, as
   *  a real tenant's do until someone changes it, so a baseline shows no churn; drift() changes
   *  them for the scans that follow. 'every-scan': each scan draws its own (tests that want new
   *  and fixed findings without naming them, the fault campaign). */
  results?: 'stable' | 'every-scan';
}

/** A completed scan of the past (Emulator.seedHistory): its age and the checks that failed in it. */
export interface PastScan {
  /** How long before now it was created (emulator clock), e.g. 3 days. */
  ageMs: number;
  /** Catalogue ids of the checks that failed (see ScanPlan failedChecks). */
  failedChecks: string[];
  /** Results in all. Default 60. */
  total?: number;
  /** Default compliance. */
  scanType?: string;
  hidden?: boolean;
  /** Its dates as a clock this far ahead (ms; negative: behind) stamped them: clock skew. */
  clockSkewMs?: number;
}

export interface ScanTruth {
  id: string;
  tenantId: string;
  scanType: string;
  /** Canonical status (default vocabulary) right now on the emulator clock. */
  status: 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';
  progress: number;
  hidden: boolean;
  deleted: boolean;
  total: number;
  failed: number;
  /** Key that triggered it. */
  keyId?: string;
  createdAt: string;
  /** When it completed or failed (absent while queued or running, and when cancelled). */
  completedAt?: string;
  cancelledAt?: string;
  /** When its progress last stopped moving (its plan's stall, or a stuck scan's progress), once
   *  that moment has come: emulator time. */
  stalledSince?: string;
}

export interface Emulator {
  /** API base URL including basePath, e.g. http://127.0.0.1:40123/api/v1 (no trailing slash). */
  readonly url: string;
  /** Origin of the presigned download server (another port), e.g. http://127.0.0.1:40124. */
  readonly downloadOrigin: string;
  /** Origin of the HTTP control surface (a third port; no API key is accepted there). */
  readonly controlOrigin: string;
  /** The default tenant's ready key (ak_live_...). */
  readonly apiKey: string;
  readonly tenantId: string;

  /** Create another tenant with one key; returns its id and key. */
  addTenant(seed?: TenantSeed): { tenantId: string; apiKey: string };
  /** Add a key to a tenant directly (no limit check); returns the full key. */
  addKey(tenantId: string, name?: string, age?: KeyAge): string;
  /** Ground truth: a tenant's active keys (the default tenant's unless tenantId is given), with
   *  their full values. */
  apiKeys(tenantId?: string): Array<{
    id: string;
    name: string;
    key: string;
    createdAt: string;
    lastUsedAt: string | null;
  }>;
  setTenant(tenantId: string, patch: Partial<TenantSeed>): void;
  /** Plan for scans triggered from now on (for the default tenant unless tenantId is given). */
  setScanPlan(plan: ScanPlan, tenantId?: string): void;
  /** Completed scans of the past, oldest first in the list, as if another job had run them (by the
   *  tenant's default key): a history to read. Returns their ids. */
  seedHistory(scans: PastScan[], tenantId?: string): string[];
  /** The tenant changes (a setting fixed, another broken): its scans from now on fail other
   *  checks than the scans before, then agree again. */
  drift(tenantId?: string): void;
  setVariant(variant: UnknownsVariant): void;
  setRateLimit(model: RateLimitModel): void;
  addFault(rule: FaultRule): void;
  clearFaults(): void;

  /** Ground truth, for assertions. */
  scans(tenantId?: string): ScanTruth[];
  /** Ground truth of a scan's failed findings (checkId and catalogue severity, in result order);
   *  [] unless it completed. */
  failedFindings(scanId: string): Array<{ checkId: string; severity: string }>;
  /** Ground truth of every result of a completed scan, in result order: its checkId, the word the
   *  service sends, and whether the emulator means it as evaluated (Passed or Failed, any case).
   *  [] unless it completed. */
  results?(scanId: string): Array<{ checkId: string; result: string; evaluated: boolean }>;
  /** Report credits spent so far by a tenant. */
  creditsSpent(tenantId?: string): number;
  /** Emails the emulator would have sent, and webhook posts it made. */
  notifications(): Array<{
    at: number;
    channel: 'email' | 'teams';
    scanId: string;
    event: 'completed' | 'failed';
    to?: string;
    status?: number;
  }>;
  /** Every request seen by the API, download and control origins, oldest first. */
  requests(): LoggedRequest[];
  clearRequests(): void;
  /** Expected sha256 (hex) and size of a scan's report body. */
  reportDigest(scanId: string): { sha256: string; bytes: number };

  /** Advance the emulator clock by ms at once (in addition to clockSpeed). */
  advance(ms: number): void;
  /** Current emulator clock, epoch ms. */
  now?(): number;
  /** Resolves when every team-chat webhook post started so far has finished (and is in notifications()). */
  flushEvents?(): Promise<void>;
  /** Size in bytes of reports generated from now on. */
  setReportSize?(bytes: number): void;
  close(): Promise<void>;
}

export type StartEmulator = (options?: EmulatorOptions) => Promise<Emulator>;
