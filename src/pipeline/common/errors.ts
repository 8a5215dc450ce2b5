// Errors of the scan job. Every message is one line, prefixed by the phase ("Trigger failed: …") or
// by the cause when it names the fix better ("Connection failed: …", error-causes.ts), and tells a
// user error (bad input, 401, 403, quota, a wrong address: something the user must fix) from a
// failure.

import { ConfigError, NotFoundError, WaitTimeoutError, redactSecrets } from '../../client/index.js';
import type { Scan } from '../../client/index.js';
import { causeOf } from './error-causes.js';
import { jobWording } from './wording.js';
import type { JobHeading, JobWording, JobPhase } from './wording.js';

export type JobErrorKind = 'user' | 'failure' | 'cancelled' | 'timeout';

export interface JobErrorOptions {
  cause?: unknown;
  /** The line's heading when the cause names the fix better than the phase (error-causes.ts). */
  heading?: JobHeading;
  /** What befell the heading: `failed` (the default), or `timed out` for a request that got no
   *  (complete) answer in time: a hang is never called a refusal. */
  verb?: 'failed' | 'timed out';
}

/** What a run knew when it ended in an error: the faces' report page of that end says it. */
export interface RunFacts {
  tenantName?: string;
  /** The scan as the job last read it. */
  scan?: Scan;
  /** When the run started and when the error ended it (ISO 8601). */
  startedAt: string;
  stoppedAt: string;
}

export class JobError extends Error {
  readonly phase: JobPhase;
  readonly kind: JobErrorKind;
  /** The scan the job was working on when it stopped, if one exists. */
  scanId?: string;
  /** Set by runScanJob when the job itself ended in this error (not its settings or gate files). */
  known?: RunFacts;
  /** Set when the job cancelled the scan it triggered before rethrowing. */
  remoteCancel?: 'cancelled' | 'ended' | 'failed';

  /** What the line starts with: the phase, or the cause when it names the fix better. */
  readonly heading: JobHeading;
  /** The line without its heading: what happened and what to do. */
  detail: string;

  constructor(phase: JobPhase, kind: JobErrorKind, detail: string, options?: JobErrorOptions) {
    const heading = options?.heading ?? phase;
    const text = oneLine(detail).replace(/\.$/, '');
    super(`${heading} ${options?.verb ?? 'failed'}: ${text}`, options);
    this.name = new.target.name;
    this.phase = phase;
    this.kind = kind;
    this.heading = heading;
    this.detail = text;
  }

  /** Adds what became of the scan to the end of the line. */
  withNote(note: string): this {
    this.detail = `${this.detail}; ${note}`;
    this.message = `${this.message}; ${note}`;
    return this;
  }
}

/** Something the user must fix: an input, the key, its permissions, the plan's quota. */
export class JobUserError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: JobErrorOptions) {
    super(phase, 'user', detail, options);
  }
}

/** The service or the network failed us; retrying later may help. */
export class JobFailure extends JobError {
  constructor(phase: JobPhase, detail: string, options?: JobErrorOptions) {
    super(phase, 'failure', detail, options);
  }
}

/** The job was cancelled (SIGINT/SIGTERM in CI, Ctrl-C in a terminal). */
export class JobCancelledError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: JobErrorOptions) {
    super(phase, 'cancelled', detail, options);
  }
}

/** The scan did not finish within scan-timeout-minutes. */
export class JobTimeoutError extends JobError {
  constructor(phase: JobPhase, detail: string, options?: JobErrorOptions) {
    super(phase, 'timeout', detail, options);
  }
}

/** Collapses whitespace runs (newlines included) so a message is always one log line. */
export function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? 'no details were given' : flat;
}

function isAbortLike(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.name === 'AbortError' || (error as { code?: unknown }).code === 'ABORT_ERR')
  );
}

/** Maps anything thrown in a phase to a JobError with a message a user can act on. */
export function toJobError(
  phase: JobPhase,
  error: unknown,
  context?: { scanId?: string; wording?: Partial<JobWording> },
): JobError {
  if (error instanceof JobError) return error;
  const wording = jobWording(context?.wording);
  if (isAbortLike(error)) {
    return new JobCancelledError(phase, 'the job was cancelled', { cause: error });
  }
  if (error instanceof WaitTimeoutError) {
    return new JobTimeoutError(phase, error.message, { cause: error });
  }
  if (error instanceof NotFoundError && context?.scanId) {
    return new JobUserError(
      phase,
      `scan ${context.scanId} was not found (404): check ${wording.scanId} and that the key belongs to the scan's tenant`,
      { cause: error },
    );
  }
  if (error instanceof ConfigError) {
    return new JobUserError('Sanity checks', error.message, { cause: error });
  }
  const cause = causeOf(error, wording);
  if (cause) {
    const Kind = cause.kind === 'user' ? JobUserError : JobFailure;
    return new Kind(phase, cause.detail, {
      cause: error,
      heading: cause.heading,
      verb: cause.verb,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new JobFailure(phase, message, { cause: error });
}

/** Replaces each secret, in any form a reader would find it in (the client's redactSecrets), by
 *  [redacted], as the client does; a last guard, the client never puts keys in messages. */
export function redact(text: string, secrets: readonly string[]): string {
  return redactSecrets(text, secrets);
}

/** Every secret a job holds: its key and the run's other secrets (JobSettings.otherSecrets). The
 *  run's own list when it holds the key already: one list for every tenant is compiled once. */
export function secretsOf(settings: {
  apiKey: string;
  otherSecrets?: readonly string[];
}): readonly string[] {
  const others = settings.otherSecrets;
  if (others?.includes(settings.apiKey)) return others;
  return others ? [settings.apiKey, ...others] : [settings.apiKey];
}

/** The one line a run that ended in `error` says (the step's failure, the record's `error`):
 *  a JobError's phase-prefixed message, anything else as unexpected; one line, secrets redacted. */
export function jobErrorLine(error: unknown, secrets: readonly string[]): string {
  const message =
    error instanceof JobError
      ? error.message
      : `Unexpected error: ${error instanceof Error ? error.message : String(error)}`;
  return oneLine(redact(message, secrets));
}
