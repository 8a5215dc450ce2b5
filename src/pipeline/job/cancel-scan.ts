// Cancelling a scan until it is done or the time is up. The client never repeats a POST whose fate
// is unknown, but a cancel is safe to repeat in effect: after a failed attempt (a 5xx, a dropped
// connection, a rate limit the client gave up on) the scan is read, and if it is not terminal yet
// the cancel is sent again. A refusal (409 "not cancellable") on a scan that is terminal is done.
// Bounded by time, not by attempts: a long 429 storm is outlasted while the budget lasts.

import { setTimeout as sleep } from 'node:timers/promises';
import {
  AuthenticationError,
  ConfigError,
  NotFoundError,
  PermissionError,
} from '../../client/index.js';
import { TenantApiError } from '../../client/index.js';
import type { TenantClient } from '../../client/index.js';
import { redact, toJobError } from '../common/errors.js';
import type { JobWording } from '../common/wording.js';
import type { JobReporter } from './types.js';

export type CancelOutcome = 'cancelled' | 'ended' | 'failed';

export interface CancelScanOptions {
  /** Total time for every attempt, the waits and the reads between them. */
  budgetMs: number;
  /** Called after each failed attempt that will be repeated. */
  onRetry?: (error: unknown, attempt: number) => void;
}

const FIRST_PAUSE_MS = 200;
const MAX_PAUSE_MS = 2_000;

/** 'cancelled' (this call or an earlier one cancelled it), 'ended' (it ended by itself), or 'failed'
 *  with the last error. */
export async function cancelScanUntilDone(
  client: TenantClient,
  scanId: string,
  options: CancelScanOptions,
): Promise<{ outcome: CancelOutcome; error?: unknown }> {
  const signal = AbortSignal.timeout(options.budgetMs);
  let lastError: unknown;
  for (let attempt = 1; ; attempt++) {
    try {
      await client.scans.cancel(scanId, { signal });
      return { outcome: 'cancelled' };
    } catch (error) {
      // The budget's own abort says less than the failure before it.
      if (!signal.aborted || lastError === undefined) lastError = error;
    }
    if (signal.aborted) break;
    const scan = await client.scans.get(scanId, { signal }).catch(() => undefined);
    if (scan?.terminal) return { outcome: scan.phase === 'cancelled' ? 'cancelled' : 'ended' };
    if (signal.aborted || cannotSucceed(lastError)) break;
    options.onRetry?.(lastError, attempt);
    const pause = Math.min(MAX_PAUSE_MS, FIRST_PAUSE_MS * 2 ** (attempt - 1));
    const paused = await sleep(pause * (0.5 + Math.random() / 2), true, { signal }).catch(
      () => false,
    );
    if (!paused) break;
  }
  return { outcome: 'failed', error: lastError };
}

/** Errors a repeat cannot fix: the key, its rights, the scan's existence. */
function cannotSucceed(error: unknown): boolean {
  return (
    error instanceof AuthenticationError ||
    error instanceof PermissionError ||
    error instanceof NotFoundError ||
    error instanceof ConfigError
  );
}

/** What became of the scan, for the end of an error line: `scan` names it ("scan 3e70…"). */
export function cancelNote(outcome: CancelOutcome, scan: string): string {
  if (outcome === 'cancelled') return `${scan} was cancelled remotely`;
  if (outcome === 'ended') return `${scan} had already ended`;
  return `${scan} could not be cancelled; cancel it in the dashboard`;
}

export interface CancelReporting {
  budgetMs: number;
  reporter: Pick<JobReporter, 'info' | 'warning'>;
  /** One line, no secret, for a failed attempt. */
  reason(error: unknown): string;
}

/** Cancels a scan the job triggered, saying each retry, a give-up and a success. */
export async function cancelAndReport(
  client: TenantClient,
  scanId: string,
  { budgetMs, reporter, reason }: CancelReporting,
): Promise<CancelOutcome> {
  const { outcome, error } = await cancelScanUntilDone(client, scanId, {
    budgetMs,
    onRetry: (failure) =>
      reporter.info(`Cancel of scan ${scanId} failed (${reason(failure)}); retrying`),
  });
  if (outcome === 'failed') {
    reporter.warning(
      `Cancel failed: ${reason(error)}; gave up after ${budgetMs / 1000} s (scan ${scanId})`,
    );
  } else if (outcome === 'cancelled') {
    reporter.info(`Cancelled scan ${scanId} remotely`);
  }
  return outcome;
}

/** Why a cancel attempt failed, in one line without the key. */
export function cancelFailureReason(
  error: unknown,
  secrets: readonly string[],
  wording?: JobWording,
): string {
  const message =
    error instanceof TenantApiError
      ? toJobError('Cancel', error, { wording }).detail
      : 'no answer in time';
  return redact(message, secrets);
}
