// The Action's post step ("Post tenant-scan", run at job end even when the job was cancelled):
// when the main step was killed before it could cancel the scan it triggered, the saved state
// still names that scan, and it is cancelled here. When it was killed after sending the trigger but
// before saving the answer, the state holds the pending trigger instead: the scan it may have
// started is looked up by the same strict rule as a lost answer (pipeline/lost-trigger.ts: the
// scans listed before the trigger, saved with it, are set aside) and cancelled; the lookup's
// outcome is saved as state too (`lost-trigger`). The cancel is repeated until done within the
// step's budget. A report download killed mid-way leaves its temp file beside report-path: it is
// removed here. Problems are warnings: the job already ended.

import * as core from '@actions/core';
import * as log from './log.js';
import { createClient, removePartialDownloads } from '../client/index.js';
import { redact } from '../pipeline/common/errors.js';
import { decodePendingTrigger } from '../pipeline/job/lost-trigger.js';
import {
  DEFAULT_REPORT_PATH,
  parseApiKey,
  parseApiUrl,
  parsePath,
} from '../pipeline/settings/parse.js';
import type { PendingTrigger } from '../pipeline/job/types.js';
import { maskSecrets, requestTimeoutInput } from './inputs.js';
import { Cleanup, message, POST_CANCEL_BUDGET_MS } from './post-cleanup.js';
import {
  LOST_TRIGGER_STATE,
  PENDING_TRIGGER_STATE,
  SETTLED_SCAN_STATE,
  TRIGGERED_SCAN_STATE,
} from './post-step-state.js';

type Env = Record<string, string | undefined>;

type Leftover = { kind: 'scan'; scanId: string } | { kind: 'pending'; pending: PendingTrigger };

/** The post step. Exported for the runner's entry (src/post.ts) and for @github/local-action. */
export async function run(): Promise<void> {
  try {
    await cleanUp(process.env);
  } catch (error) {
    log.warning(`Cleanup failed: ${redact(message(error), [core.getInput('api-key')])}`);
  }
}

/** What the main step may have left running, from its saved state. */
function leftoverOf(): Leftover | undefined {
  const triggered = core.getState(TRIGGERED_SCAN_STATE);
  if (triggered) {
    return triggered === core.getState(SETTLED_SCAN_STATE)
      ? undefined
      : { kind: 'scan', scanId: triggered };
  }
  const pending = decodePendingTrigger(core.getState(PENDING_TRIGGER_STATE));
  return pending ? { kind: 'pending', pending } : undefined;
}

/** A download the main step could not finish (killed mid-way) leaves its temp file: remove it. */
async function removePartialReport(): Promise<void> {
  if ((core.getInput('report').trim() || 'none') === 'none') return;
  const reportPath = parsePath(
    "input 'report-path'",
    core.getInput('report-path'),
    DEFAULT_REPORT_PATH,
  );
  const removed = await removePartialDownloads(reportPath);
  if (removed > 0) log.info(`Removed ${removed} partial report download(s) of ${reportPath}`);
}

async function cleanUp(env: Env): Promise<void> {
  await removePartialReport().catch((error: unknown) =>
    log.warning(`Cleanup of a partial report download failed: ${message(error)}`),
  );
  const leftover = leftoverOf();
  if (!leftover) {
    log.debug('No scan left running: nothing to clean up');
    return;
  }
  maskSecrets();
  let apiKey: string;
  let apiUrl: string | undefined;
  let requestTimeoutMs: number;
  try {
    apiKey = parseApiKey("input 'api-key'", core.getInput('api-key'));
    apiUrl =
      parseApiUrl("input 'api-url'", core.getInput('api-url')) ??
      parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL);
    requestTimeoutMs = requestTimeoutInput();
  } catch (error) {
    const what = leftover.kind === 'scan' ? `scan ${leftover.scanId}` : 'the triggered scan';
    log.warning(`Cleanup failed: cannot cancel ${what}: ${message(error)}`);
    return;
  }
  const client = createClient({
    apiKey,
    baseUrl: apiUrl,
    env,
    requestTimeoutMs,
    userAgentSuffix: 'github-action-post',
  });
  const cleanup = new Cleanup(client, [apiKey], {
    deadline: Date.now() + POST_CANCEL_BUDGET_MS,
    leftBy: 'The main step',
  });
  try {
    if (leftover.kind === 'scan') await cleanup.cancelLeftScan(leftover.scanId);
    else
      core.saveState(LOST_TRIGGER_STATE, await cleanup.cancelPendingTriggerScan(leftover.pending));
  } finally {
    await client.close().catch(() => undefined);
  }
}
