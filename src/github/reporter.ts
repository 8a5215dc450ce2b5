// The pipeline's reporter for the Action: log lines, warnings, and the state the post step reads.

import * as core from '@actions/core';
import * as log from './log.js';
import type { RetryEvent, Scan } from '../client/index.js';
import { encodePendingTrigger } from '../pipeline/job/lost-trigger.js';
import type { JobReporter, LostTriggerReport, PendingTrigger } from '../pipeline/job/types.js';
import {
  LOST_TRIGGER_STATE,
  PENDING_TRIGGER_STATE,
  SETTLED_SCAN_STATE,
  TRIGGERED_SCAN_STATE,
} from './post-step-state.js';

const RETRY_REASON: Record<RetryEvent['reason'], string> = {
  'rate-limited': 'Rate limited',
  'service-starting': 'Service starting',
  'server-error': 'Server error',
  network: 'Network error',
  timeout: 'Timed out',
};

export function progressLine(scan: Scan): string {
  const progress = typeof scan.progress === 'number' ? ` ${Math.round(scan.progress)}%` : '';
  return `Scan ${scan.id}: ${scan.status}${progress}`;
}

export function retryLine(event: RetryEvent): string {
  const status = event.status !== undefined ? ` (${event.status})` : '';
  const seconds = (event.delayMs / 1000).toFixed(1);
  const source = event.fromRetryAfter ? ', as the server asked' : '';
  return `${RETRY_REASON[event.reason]}${status} on ${event.method} ${event.path}; retrying in ${seconds} s${source} (attempt ${event.attempt})`;
}

export class ActionReporter implements JobReporter {
  info(message: string): void {
    log.info(message);
  }
  warning(message: string): void {
    log.warning(message);
  }
  debug(message: string): void {
    log.debug(message);
  }
  triggerPending(pending: PendingTrigger | undefined): void {
    core.saveState(PENDING_TRIGGER_STATE, pending ? encodePendingTrigger(pending) : '');
  }
  lostTriggerLookup(report: LostTriggerReport): void {
    core.saveState(LOST_TRIGGER_STATE, report.outcome);
  }
  scanTriggered(scanId: string): void {
    core.saveState(TRIGGERED_SCAN_STATE, scanId);
  }
  progress(scan: Scan): void {
    log.info(progressLine(scan));
  }
  scanSettled(scanId: string): void {
    core.saveState(SETTLED_SCAN_STATE, scanId);
  }
  retrying(event: RetryEvent): void {
    log.info(retryLine(event));
  }
}
