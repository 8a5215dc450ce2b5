// Errors of the scan job. Every message is one line, prefixed by the phase ("Trigger failed: …"),
// and tells a user error (bad input, 401, 403, quota: something the user must fix) from a failure.

import {
  AuthenticationError,
  ConfigError,
  DownloadError,
  NetworkError,
  NotFoundError,
  PermissionError,
  PlanLimitError,
  RateLimitError,
  ServerError,
  ServiceUnavailableError,
  TenantApiError,
  ValidationError,
  WaitTimeoutError,
} from '../../client/errors.js';
import { withoutSecret } from '../../client/redact.js';
import { jobLabels } from './wording.js';
import type { JobLabels, JobPhase } from './wording.js';

export type JobErrorKind = 'user' | 'failure' | 'cancelled' | 'timeout';

export class JobError extends Error {
  readonly phase: JobPhase;
  readonly kind: JobErrorKind;
  /** The scan the job was working on when it stopped, if one exists. */
  scanId?: string;
  /** Set when the job cancelled the scan it triggered before rethrowing. */
  remoteCancel?: 'cancelled' | 'ended' | 'failed';

  constructor(phase: JobPhase, kind: JobErrorKind, detail: string, options?: { cause?: unknown }) {
    super(`${phase} failed: ${oneLine(detail).replace(/\.$/, '')}`, options);
    this.name = new.target.name;
    this.phase = phase;
    this.kind = kind;
  }
}

/** Something the user must fix: an input, the key, its permissions, the plan's quota. */
export class JobUserError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: { cause?: unknown }) {
    super(phase, 'user', detail, options);
  }
}

/** The service or the network failed us; retrying later may help. */
export class JobFailure extends JobError {
  constructor(phase: JobPhase, detail: string, options?: { cause?: unknown }) {
    super(phase, 'failure', detail, options);
  }
}

/** The job was cancelled (SIGINT/SIGTERM in CI, Ctrl-C in a terminal). */
export class JobCancelledError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: { cause?: unknown }) {
    super(phase, 'cancelled', detail, options);
  }
}

/** The scan did not finish within scan-timeout-minutes. */
export class JobTimeoutError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: { cause?: unknown }) {
    super(phase, 'timeout', detail, options);
  }
}

/** Collapses whitespace runs (newlines included) so a message is always one log line. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? 'no details were given' : flat;
}

/** A client error's own message, with its HTTP status when the message does not already say it.
 *  (Codes of errors without a status, CONFIG_ERROR or REQUEST_TIMEOUT, say nothing the message does
 *  not.) */
function describeApiError(error: TenantApiError): string {
  if (error.status === undefined || error.message.includes(`HTTP ${error.status}`)) {
    return error.message;
  }
  return `${error.message} (HTTP ${error.status}${error.code ? ` ${error.code}` : ''})`;
}

/** What the service said, briefly, beside a hint that already says what it means: the status, the
 *  code, its own message and the request id. */
function briefApiError(error: TenantApiError): string {
  const said = [`HTTP ${error.status ?? '?'} ${error.code}`];
  if (error.serverMessage) said.push(`: ${error.serverMessage}`);
  if (error.requestId) said.push(`, request id ${error.requestId}`);
  return said.join('');
}

/** What the user should do about an error the service refused for a reason on their side. */
function userHint(error: TenantApiError, labels: JobLabels): string | undefined {
  if (error instanceof AuthenticationError) {
    return `the API key was refused: check ${labels.apiKey}, it may be mistyped or revoked`;
  }
  if (error instanceof PermissionError) {
    return error.code === 'PLAN_API_ACCESS_REQUIRED'
      ? "the tenant's plan does not include API access: upgrade the plan or use another tenant's key"
      : 'the API key may not do this: use a key of an account with the needed rights, on a plan with API access';
  }
  if (error instanceof PlanLimitError) {
    return `the plan's scan quota is used up: wait for it to renew, upgrade the plan, or follow an existing scan with ${labels.followScan} instead of triggering one`;
  }
  return undefined;
}

function isAbortLike(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR')
  );
}

/** A route without an id (GET /tenants/me, the first call of every run) answered 404: the
 *  address most likely lacks the API's base path (…/v1 where the API lives under …/api/v1). */
export function basePathHint(error: unknown, apiUrlLabel: string): string | undefined {
  if (!(error instanceof NotFoundError) || !/^\/tenants\/me(\/[a-z-]+)*$/.test(error.path ?? '')) {
    return undefined;
  }
  const tried = error.address ?? error.path ?? '';
  return `the service has no such route at ${tried}: the API address may lack its base path (for example …/api/v1); check ${apiUrlLabel}`;
}

/** Maps anything thrown in a phase to a JobError with a message a user can act on. */
export function toJobError(
  phase: JobPhase,
  error: unknown,
  context?: { scanId?: string; labels?: Partial<JobLabels> },
): JobError {
  if (error instanceof JobError) return error;
  const labels = jobLabels(context?.labels);
  if (isAbortLike(error)) {
    return new JobCancelledError(phase, 'the job was cancelled', { cause: error });
  }
  if (error instanceof WaitTimeoutError) {
    return new JobTimeoutError(phase, error.message, { cause: error });
  }
  if (error instanceof NotFoundError && context?.scanId) {
    return new JobUserError(
      phase,
      `scan ${context.scanId} was not found (404): check ${labels.scanId} and that the key belongs to the scan's tenant`,
      { cause: error },
    );
  }
  if (error instanceof ConfigError) {
    return new JobUserError('Sanity checks', error.message, { cause: error });
  }
  const basePath = basePathHint(error, labels.apiUrl);
  if (basePath && error instanceof TenantApiError) {
    return new JobUserError(phase, `${basePath} (${briefApiError(error)})`, { cause: error });
  }
  if (error instanceof TenantApiError) {
    const hint = userHint(error, labels);
    if (hint) return new JobUserError(phase, `${hint} (${briefApiError(error)})`, { cause: error });
    if (error instanceof ValidationError) {
      return new JobUserError(
        phase,
        `the service rejected the request: ${describeApiError(error)}`,
        {
          cause: error,
        },
      );
    }
    if (error instanceof RateLimitError) {
      return new JobFailure(
        phase,
        `still rate limited after retrying (${describeApiError(error)}); too many jobs may share this account's limit`,
        { cause: error },
      );
    }
    if (error instanceof ServiceUnavailableError) {
      return new JobFailure(
        phase,
        `the service was unavailable (${describeApiError(error)}); try again later`,
        { cause: error },
      );
    }
    if (error instanceof NetworkError) {
      // The client's message already says whether the request may have reached the service.
      return new JobFailure(phase, describeApiError(error), { cause: error });
    }
    if (error instanceof ServerError || error instanceof DownloadError) {
      return new JobFailure(phase, describeApiError(error), { cause: error });
    }
    return new JobFailure(phase, describeApiError(error), { cause: error });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new JobFailure(phase, message, { cause: error });
}

/** Replaces each secret, in any form it may be echoed in (the client's secretPattern), by ***; a
 *  last guard, the client never puts keys in messages. */
export function redact(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => withoutSecret(out, secret, '***'), text);
}

/** The one line a run that ended in `error` says (the step's failure, the record's `error`):
 *  a JobError's phase-prefixed message, anything else as unexpected; one line, secrets redacted. */
export function jobErrorLine(error: unknown, secrets: readonly string[]): string {
  const message =
    error instanceof JobError
      ? error.message
      : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return redact(oneLine(message), secrets);
}
