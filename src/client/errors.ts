// Typed errors of the client: one base class, a class per failure a caller treats differently.
// No message ever contains the API key: messages are built from codes, statuses and route paths.

export interface ApiErrorDetails {
  code: string;
  status?: number;
  requestId?: string;
  method?: string;
  /** Route path relative to the base URL, without query. */
  path?: string;
  /** The address the request went to (origin and path, no query), when it reached one. */
  address?: string;
  /** The service's own message (one line, bounded, no secrets), when it sent one. */
  serverMessage?: string;
  /** The answer was an HTML page where JSON was expected: a website or a gateway, not the API. */
  htmlPage?: boolean;
}

export class TenantApiError extends Error {
  readonly code: string;
  readonly status?: number;
  readonly requestId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly address?: string;
  readonly serverMessage?: string;
  readonly htmlPage?: boolean;

  constructor(message: string, details: ApiErrorDetails) {
    super(message);
    this.name = new.target.name;
    this.code = details.code;
    this.status = details.status;
    this.requestId = details.requestId;
    this.method = details.method;
    this.path = details.path;
    this.address = details.address;
    this.serverMessage = details.serverMessage;
    this.htmlPage = details.htmlPage;
  }
}

/** Invalid client options (key, base URL): raised before any request is sent. */
export class ConfigError extends TenantApiError {
  constructor(message: string) {
    super(message, { code: 'CONFIG_ERROR' });
  }
}

/** 401: missing, unknown or revoked key. */
export class AuthenticationError extends TenantApiError {}
/** Any 403: insufficient scope, or a plan without API access. */
export class PermissionError extends TenantApiError {}
export class NotFoundError extends TenantApiError {}
/** 400 VALIDATION_ERROR and other 4xx the server rejects as malformed. */
export class ValidationError extends TenantApiError {}
/** SCAN_PLAN_LIMIT_REACHED, whatever the status. Never retried. */
export class PlanLimitError extends TenantApiError {}
/** 429 RATE_LIMITED after the retry budget ran out. */
export class RateLimitError extends TenantApiError {}
/** 503 (SERVICE_STARTING or a bare 503) after the retry budget ran out. */
export class ServiceUnavailableError extends TenantApiError {}
/** Other 5xx, or a body that could not be understood. */
export class ServerError extends TenantApiError {}

/** The connection failed or timed out. `mayHaveBeenProcessed` is true when a request that is not
 *  safe to repeat (a POST) may have reached the server: it was not re-sent. */
export class NetworkError extends TenantApiError {
  readonly mayHaveBeenProcessed: boolean;
  constructor(message: string, details: ApiErrorDetails & { mayHaveBeenProcessed: boolean }) {
    super(message, details);
    this.mayHaveBeenProcessed = details.mayHaveBeenProcessed;
  }
}

/** No (complete) answer in time. `bound`: the limit it ran into, the request timeout (which its
 *  setting moves) or the fixed silence limit (which no setting lengthens). */
export class TimeoutError extends NetworkError {
  readonly bound: 'request-timeout' | 'silence';
  constructor(
    message: string,
    details: ApiErrorDetails & {
      mayHaveBeenProcessed: boolean;
      bound: 'request-timeout' | 'silence';
    },
  ) {
    super(message, details);
    this.bound = details.bound;
  }
}

/** scans.wait gave up after its timeout; the scan itself is untouched. */
export class WaitTimeoutError extends TenantApiError {
  constructor(
    message: string,
    readonly scanId: string,
  ) {
    super(message, { code: 'WAIT_TIMEOUT' });
  }
}

/** A download failed its integrity checks (length, status). No file is left behind. */
export class DownloadError extends TenantApiError {}
