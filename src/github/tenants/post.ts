// The tenants sub-action's post step ("Post …", run at job end even when the job was cancelled):
// a chunk job killed outright (the runner's tree kill, a lost runner) cannot cancel its tenants'
// scans itself. The main step saved each tenant's trigger before sending it, and its scan as it was
// triggered and settled (state.ts); every scan not settled is cancelled here, and a trigger
// whose answer never came has its scan looked up by the single-tenant post step's strict rule
// (pipeline/job/lost-trigger.ts) and cancelled. The tenants go a few at a time within one budget,
// each with the key from the variable its list entry names (the step's env holds it again). One
// line per tenant; problems are warnings: the job already ended.

import * as core from '@actions/core';
import * as log from '../log.js';
import { createClient, type TenantClient } from '../../client/index.js';
import { redact } from '../../pipeline/common/errors.js';
import {
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
  parseApiKey,
  parseApiUrl,
} from '../../pipeline/settings/parse.js';
import { requestTimeoutOrEnv } from '../../pipeline/settings/request-timeout.js';
import { parseTenantList, type TenantEntry } from '../../pipeline/settings/tenants.js';
import { maskApiKey } from '../inputs.js';
import { Cleanup, message, POST_CANCEL_BUDGET_MS } from '../post-cleanup.js';
import { readTenantScanState, type TenantScanState } from './state.js';

type Env = Record<string, string | undefined>;

/** Tenants cleaned up at once: each has its own client and key; a cancel is a request or two. */
const POST_CONCURRENCY = 8;

interface LeftScan {
  entry: TenantEntry;
  /** A scan not settled, or a trigger whose answer was not saved. */
  left: TenantScanState;
}

/** The post step. Exported for the runner's entry (src/tenants-post.ts). */
export async function run(env: Env = process.env): Promise<void> {
  try {
    await cleanUp(env);
  } catch (error) {
    // No key reaches this far: each tenant's own failures are caught with its key redacted.
    log.warning(`Cleanup failed: ${message(error)}`);
  }
}

async function cleanUp(env: Env): Promise<void> {
  const left = leftScans();
  if (left.length === 0) {
    log.debug('No scan left running: nothing to clean up');
    return;
  }
  log.info(
    `The main step was stopped with ${left.length} tenant scan${left.length === 1 ? '' : 's'} not settled: cancelling what is still running`,
  );
  const deadline = Date.now() + POST_CANCEL_BUDGET_MS;
  const requestTimeoutMs = requestTimeoutOf(env);
  const keys = keysOf(env);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < left.length; index = next++) {
      await cleanUpTenant(left[index] as LeftScan, env, { deadline, requestTimeoutMs, keys });
    }
  };
  await Promise.all(Array.from({ length: Math.min(POST_CONCURRENCY, left.length) }, worker));
}

/** The tenants whose saved scan did not settle. The list is the main step's own input: one it
 *  refused (not a list) started no scan. */
function leftScans(): LeftScan[] {
  let entries: TenantEntry[];
  try {
    entries = parseTenantList("input 'tenants'", core.getInput('tenants'));
  } catch {
    log.debug('The tenants input is not a valid list: the main step started no scan');
    return [];
  }
  const left: LeftScan[] = [];
  for (const entry of entries) {
    try {
      const saved = readTenantScanState(entry.name);
      if (saved?.kind === 'pending' || (saved?.kind === 'scan' && !saved.settled)) {
        left.push({ entry, left: saved });
      }
    } catch (error) {
      log.warning(`${entry.name}: Cleanup failed: ${message(error)}`);
    }
  }
  return left;
}

/** Every tenant's key the step holds, its chunk's (one service host may echo any of them in any
 *  tenant's answers): each tenant's lines are redacted of all. */
function keysOf(env: Env): string[] {
  const keys: string[] = [];
  for (const entry of parseTenantList("input 'tenants'", core.getInput('tenants'))) {
    try {
      keys.push(parseApiKey(`env ${entry.secret}`, env[entry.secret]));
    } catch {
      // That tenant says why in its own line.
    }
  }
  return keys;
}

/** The request timeout as the main step's CLI used it: the input, else SERVICE_REQUEST_TIMEOUT. */
function requestTimeoutOf(env: Env): number {
  const input = core.getInput('request-timeout-seconds');
  try {
    return requestTimeoutOrEnv("input 'request-timeout-seconds'", input || undefined, env);
  } catch {
    return DEFAULT_REQUEST_TIMEOUT_SECONDS * 1000;
  }
}

async function cleanUpTenant(
  { entry, left }: LeftScan,
  env: Env,
  limits: { deadline: number; requestTimeoutMs: number; keys: readonly string[] },
): Promise<void> {
  const prefix = `${entry.name}: `;
  let apiKey = '';
  let client: TenantClient;
  try {
    apiKey = parseApiKey(`env ${entry.secret}`, env[entry.secret]);
    maskApiKey(apiKey);
    client = createClient({
      apiKey,
      secrets: limits.keys,
      baseUrl: entry.apiUrl ?? parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL),
      env,
      requestTimeoutMs: limits.requestTimeoutMs,
      userAgentSuffix: 'github-action-post',
    });
  } catch (error) {
    const reason = redact(message(error), [apiKey, ...limits.keys]);
    log.warning(`${prefix}Cleanup failed: cannot cancel ${leftWhat(left)}: ${reason}`);
    return;
  }
  try {
    const cleanup = new Cleanup(client, limits.keys, { deadline: limits.deadline, prefix });
    if (left.kind === 'scan') await cleanup.cancelLeftScan(left.scanId);
    else await cleanup.cancelPendingTriggerScan(left.pending);
  } catch (error) {
    log.warning(`${prefix}Cleanup failed: ${redact(message(error), limits.keys)}`);
  } finally {
    await client.close().catch(() => undefined);
  }
}

function leftWhat(left: LeftScan['left']): string {
  return left.kind === 'scan' ? `scan ${left.scanId}` : 'the scan its trigger may have started';
}
