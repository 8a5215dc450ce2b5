// Shapes of the Tenant API as this client sees them. Only what the seed names is typed as
// certain; everything else is optional and `raw` keeps the server's object untouched.

export type JsonObject = Record<string, unknown>;

export interface RetryPolicy {
  /** Attempts in all, the first included, for network failures and bare 5xx. Default 6. */
  maxAttempts?: number;
  /**
   * Safety cap on attempts when the server did not act (429 RATE_LIMITED, 503 SERVICE_STARTING):
   * these are retried until maxElapsedMs runs out. Default 1000.
   */
  maxBusyAttempts?: number;
  /** Give up retrying once this much time has passed since the first attempt. Default 120_000. */
  maxElapsedMs?: number;
  /** First backoff step (full jitter: a random delay in [0, min(max, base * 2^n)]). Default 500. */
  baseDelayMs?: number;
  maxDelayMs?: number; // default 30_000
  /** A server's Retry-After is honoured up to this. Default 60_000. */
  retryAfterCapMs?: number;
}

export interface RetryEvent {
  method: string;
  /** Route path relative to the base, without the query (never the key, never a presigned URL's query). */
  path: string;
  /** The attempt that failed (1-based). */
  attempt: number;
  delayMs: number;
  /** 'timeout': no complete answer within the request timeout, or silence past the silence timeout. */
  reason: 'rate-limited' | 'service-starting' | 'server-error' | 'network' | 'timeout';
  status?: number;
  /** Whether the delay came from the server's Retry-After. */
  fromRetryAfter: boolean;
}

export interface ClientOptions {
  /** Required; must start with `ak_live_` and contain no whitespace. */
  apiKey: string;
  /** Other secrets the run holds (in a many-tenants run, every tenant's key: one service host may
   *  echo another tenant's key): kept out of every answer and message, in any form, like the key. */
  secrets?: readonly string[];
  /** API base URL (may carry a path). Else env SERVICE_API_URL; one of them is required. */
  baseUrl?: string;
  /** Environment read for SERVICE_API_URL and proxies. Default process.env. */
  env?: Record<string, string | undefined>;
  /** Per-request timeout on silence: the wait for the headers and each gap in the body, not the
   *  whole exchange. Default 30_000 (never more than requestTimeoutMs). */
  timeoutMs?: number;
  /** Per-request deadline on the whole exchange (each attempt), so an answer that trickles forever
   *  still ends. A read that passes it is retried once; a write is not re-sent. Default 120_000. */
  requestTimeoutMs?: number;
  retry?: RetryPolicy;
  /** Called before each retry wait: the hook the faces use to log "rate limited, retrying in 2.3 s". */
  onRetry?: (event: RetryEvent) => void;
  /** Appended to the User-Agent, e.g. "github-action" or "cli". */
  userAgentSuffix?: string;
}

/** Normalised scan phase; `status` keeps the server's own word. */
export type ScanPhase = 'pending' | 'running' | 'succeeded' | 'failed' | 'cancelled' | 'timed_out';

/** A scan's own counts of its results, found by their shape (scan-status.ts). */
export interface ScanSummary {
  total?: number;
  passed?: number;
  failed?: number;
  skipped?: number;
  errors?: number;
}

export interface Scan {
  id: string;
  /** The server's status word, as sent. */
  status: string;
  /** `status` mapped case-insensitively; 'running' for words we do not know (see `knownStatus`). */
  phase: ScanPhase;
  knownStatus: boolean;
  terminal: boolean;
  progress?: number;
  scanType?: string;
  createdAt?: string;
  startedAt?: string;
  completedAt?: string;
  summary?: ScanSummary;
  /** This machine's Date.now() when the answer carrying this snapshot arrived (get and create). */
  receivedAt?: number;
  raw: JsonObject;
}

export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info' | 'unknown';

/** A scan result as the server sent it. Only `result` is named by the seed. */
export type Finding = JsonObject & { result?: unknown };

/** A finding read with the contract's fallbacks: never throws on a missing or odd field. */
export interface FindingView {
  /** The finding's own id; its identity when the service gives none. */
  id: string;
  /** The check's stable identity, decided once (findings.ts): the first of IDENTITY_FIELDS the
   *  service gives, else derived from the check's title and category. Never ''. Every output
   *  names the check by it: SARIF rules, JUnit cases, JSON and records, tracking, waivers. */
  identity: string;
  title: string;
  severity: Severity;
  category?: string;
  description?: string;
  remediation?: string;
  reference?: string;
  result: string;
}

export type ReportState = 'ready' | 'rendering' | 'orgNameRequired' | 'locked' | 'unknown';

export interface ReportStatus {
  /** The server's status word, as sent ('' when absent). */
  status: string;
  state: ReportState;
  /** Presigned address when ready: from downloadUrl | url | presignedUrl | href, or a redirect. */
  downloadUrl?: string;
  expiresAt?: string;
  raw: JsonObject;
}

export interface ReportListItem extends JsonObject {
  scanId?: string;
  status?: string;
  generatedAt?: string;
}

export interface ReportListPage {
  items: ReportListItem[];
  nextCursor: number | null;
}

export interface DownloadResult {
  path: string;
  bytes: number;
  sha256: string;
  contentType: string;
}

export interface ApiKey {
  id: string;
  name: string;
  keyPrefix: string;
  msTenantId: string | null;
  lastUsedAt?: string | null;
  createdAt: string;
  raw: JsonObject;
}

export interface CreatedApiKey extends ApiKey {
  /** Full key; returned once. */
  key: string;
}

export interface NotificationSettings {
  emailOnComplete: boolean;
  emailOnFail: boolean;
  teamsWebhookUrl: string | null;
  teamsOnComplete: boolean;
  teamsOnFail: boolean;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (the scan is NOT cancelled by the client; the caller decides). */
  timeoutMs?: number;
  minIntervalMs?: number; // default 1_000
  maxIntervalMs?: number; // default 30_000
  /** Called once per status word the client does not know; polling goes on. */
  onUnknownStatus?: (status: string) => void;
  /** A snapshot the caller already has (e.g. the answer of scans.create): yielded first instead of
   *  an immediate poll, which saves one request per freshly triggered scan. */
  initial?: Scan;
}

/** The service's clock as its last response's Date header gave it (whole seconds). */
export interface ServerTime {
  /** The Date header, epoch milliseconds of the service's clock. */
  serverMs: number;
  /** This machine's Date.now() when that response arrived. */
  observedAtLocalMs: number;
}

/** How a scan's results are read: the result word to ask for, the most bytes all pages may hold
 *  together (lists.ts MAX_LIST_BYTES by default), and what is kept of each result. */
export interface ResultsReadOptions<T> extends RequestOptions {
  result?: string;
  maxBytes?: number;
  /** What stays of a result once its page is read (undefined: nothing); the result itself when
   *  absent. */
  keep?: (finding: Finding) => T | undefined;
  /** Which results `result` asks for, judged locally when the service ignores the filter (default:
   *  the word itself, in any case). */
  matches?: (finding: Finding) => boolean;
  /** A page's answer is about to stream in again (a retry): what `keep` was given of its earlier
   *  attempt does not count. */
  attemptStarted?: () => void;
  /** A page was accepted whole: what `keep` was given of it counts. */
  pageAccepted?: () => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/** One method per route of the seed's table, named like the official SDK. */
export interface TenantClient {
  readonly baseUrl: string;
  tenants: { me(o?: RequestOptions): Promise<JsonObject & { name?: string }> };
  connections: { list(o?: RequestOptions): Promise<JsonObject[]> };
  notifications: {
    get(o?: RequestOptions): Promise<NotificationSettings>;
    update(patch: Partial<NotificationSettings>, o?: RequestOptions): Promise<NotificationSettings>;
  };
  apiKeys: {
    list(o?: RequestOptions): Promise<ApiKey[]>;
    create(
      input: { name: string; msTenantId?: string },
      o?: RequestOptions,
    ): Promise<CreatedApiKey>;
    delete(keyId: string, o?: RequestOptions): Promise<void>;
  };
  scheduledScans: { list(o?: RequestOptions): Promise<JsonObject[]> };
  scans: {
    list(o?: RequestOptions): Promise<Scan[]>;
    /** Never retried once the request may have reached the server (a second scan costs quota). */
    create(scanType: string, o?: RequestOptions): Promise<Scan>;
    get(id: string, o?: RequestOptions): Promise<Scan>;
    /** Follows meta.nextCursor; filters locally too when the server ignored `result`. Each
     *  page streams in, and only what `keep` keeps of each result stays. */
    results<T = Finding>(id: string, o?: ResultsReadOptions<T>): Promise<T[]>;
    cancel(id: string, o?: RequestOptions): Promise<Scan | null>;
    hide(id: string, o?: RequestOptions): Promise<JsonObject | null>;
    unhide(id: string, o?: RequestOptions): Promise<JsonObject | null>;
    delete(id: string, o?: RequestOptions): Promise<void>;
    /** Progress snapshots until the scan is terminal (the last one yielded is terminal). Throws
     *  WaitTimeoutError on timeoutMs, AbortError-like on the signal. */
    wait(id: string, o?: WaitOptions): AsyncIterable<Scan>;
  };
  reports: {
    status(scanId: string, o?: RequestOptions): Promise<ReportStatus>;
    /** May spend a report credit: call only when the user asked for generation. */
    generate(scanId: string, o?: RequestOptions): Promise<JsonObject>;
    listPage(cursor?: number, o?: RequestOptions): Promise<ReportListPage>;
    /** Every item of every page, through the cursor. */
    list(o?: RequestOptions): AsyncIterable<ReportListItem>;
    /** Streams to a temp file beside `path`, checks length, renames atomically; no file on failure. */
    download(scanId: string, path: string, o?: RequestOptions): Promise<DownloadResult>;
  };
  attackSurface: {
    summary(o?: RequestOptions): Promise<JsonObject>;
    history(o?: RequestOptions): Promise<JsonObject[]>;
    targets(o?: RequestOptions): Promise<JsonObject[]>;
    addTarget(host: string, o?: RequestOptions): Promise<JsonObject>;
    updateTarget(id: string, patch: { label?: string }, o?: RequestOptions): Promise<JsonObject>;
    removeTarget(id: string, o?: RequestOptions): Promise<void>;
    verifyTarget(id: string, o?: RequestOptions): Promise<JsonObject>;
    scan(o?: RequestOptions): Promise<JsonObject>;
  };
  threats: { list(o?: RequestOptions): Promise<JsonObject[]> };
  policies: { list(o?: RequestOptions): Promise<JsonObject[]> };
  remediation: {
    capabilities(o?: RequestOptions): Promise<JsonObject>;
    plans(o?: RequestOptions): Promise<JsonObject[]>;
    plan(id: string, o?: RequestOptions): Promise<JsonObject>;
  };
  aiPilot: {
    remediable(o?: RequestOptions): Promise<JsonObject[]>;
    breakGlass(o?: RequestOptions): Promise<JsonObject[]>;
    conditionalAccess(o?: RequestOptions): Promise<JsonObject[]>;
  };
  /** The Date header of the last API response (any status), undefined before one carried it.
   *  Optional: clients built elsewhere (test doubles) may not track it. */
  serverTime?(): ServerTime | undefined;
  /** Closes the keep-alive agent. */
  close(): Promise<void>;
}
