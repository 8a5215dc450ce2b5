// The Action's post step ("Post tenant-scan", run at job end even when the job was cancelled):
// when the main step was killed before it could cancel the scan it triggered, the saved state
// still names that scan, and it is cancelled here. Problems are warnings: the job already ended.

import * as core from './toolkit.js';
import { createClient } from '../client/index.js';
import { oneLine, redact } from '../pipeline/errors.js';
import { parseApiKey, parseApiUrl } from '../pipeline/settings.js';
import { maskSecrets } from './inputs.js';
import { SETTLED_SCAN_STATE, TRIGGERED_SCAN_STATE } from './state.js';

type Env = Record<string, string | undefined>;

const POST_CANCEL_TIMEOUT_MS = 20_000;

function message(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

export async function runPost(env: Env = process.env): Promise<void> {
  try {
    await cancelLeftoverScan(env);
  } catch (error) {
    core.warning(`Cleanup failed: ${redact(message(error), [core.getInput('api-key', env)])}`);
  }
}

async function cancelLeftoverScan(env: Env): Promise<void> {
  const triggered = core.getState(TRIGGERED_SCAN_STATE, env);
  const settled = core.getState(SETTLED_SCAN_STATE, env);
  if (!triggered || triggered === settled) {
    core.debug('No scan left running: nothing to clean up');
    return;
  }
  maskSecrets(env);
  let apiKey: string;
  let apiUrl: string | undefined;
  try {
    apiKey = parseApiKey("input 'api-key'", core.getInput('api-key', env));
    apiUrl =
      parseApiUrl("input 'api-url'", core.getInput('api-url', env)) ??
      parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL);
  } catch (error) {
    core.warning(`Cleanup failed: cannot cancel scan ${triggered}: ${message(error)}`);
    return;
  }
  const client = createClient({
    apiKey,
    baseUrl: apiUrl,
    env,
    userAgentSuffix: 'github-action-post',
  });
  try {
    const signal = AbortSignal.timeout(POST_CANCEL_TIMEOUT_MS);
    const scan = await client.scans.get(triggered, { signal });
    if (scan.terminal) {
      core.info(`Scan ${triggered} already ended (${scan.status}); nothing to cancel`);
      return;
    }
    core.info(`The main step left scan ${triggered} running (${scan.status}): cancelling it`);
    await client.scans.cancel(triggered, { signal });
    core.info(`Cancelled scan ${triggered}`);
  } catch (error) {
    core.warning(
      redact(`Cleanup failed: could not cancel scan ${triggered}: ${message(error)}`, [apiKey]),
    );
  } finally {
    await client.close().catch(() => undefined);
  }
}
