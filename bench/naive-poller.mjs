// The naive baseline of the fleet benchmark: what a hand-written CI step typically does. Plain
// fetch, a fixed poll interval with no jitter, a plain retry (fixed delay, a few attempts, no
// Retry-After), no coordination. Same work as the action: tenant, trigger, poll, failed results.
// Env: NAIVE_API_URL, NAIVE_API_KEY, NAIVE_RESULTS_FILE; NAIVE_INTERVAL_MS (2000),
// NAIVE_RETRIES (5), NAIVE_RETRY_DELAY_MS (1000). Prints one JSON line; exit 0 passed, 1 findings
// or error.
/* global fetch */
import { writeFile } from 'node:fs/promises';

const base = (process.env.NAIVE_API_URL ?? '').replace(/\/+$/, '');
const key = process.env.NAIVE_API_KEY ?? '';
const intervalMs = Number(process.env.NAIVE_INTERVAL_MS ?? 2000);
const retries = Number(process.env.NAIVE_RETRIES ?? 5);
const retryDelayMs = Number(process.env.NAIVE_RETRY_DELAY_MS ?? 1000);
const TERMINAL = new Set(['completed', 'failed', 'cancelled']);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(method, path, body) {
  for (let attempt = 0; ; attempt++) {
    let response;
    try {
      response = await fetch(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch (error) {
      if (attempt >= retries) throw error;
      await sleep(retryDelayMs);
      continue;
    }
    const json = await response.json().catch(() => null);
    if ((response.status === 429 || response.status >= 500) && attempt < retries) {
      await sleep(retryDelayMs);
      continue;
    }
    if (!response.ok) {
      throw new Error(
        `${method} ${path}: HTTP ${response.status} ${json?.error?.code ?? ''}`.trim(),
      );
    }
    return json.data;
  }
}

async function main() {
  const tenant = await call('GET', '/tenants/me');
  const created = await call('POST', '/tenants/me/scans', { scanType: 'compliance' });
  let scan = created;
  for (;;) {
    scan = await call('GET', `/scans/${created.id}`);
    if (TERMINAL.has(scan.status)) break;
    await sleep(intervalMs);
  }
  const failed =
    scan.status === 'completed'
      ? await call('GET', `/scans/${created.id}/results?result=Failed`)
      : [];
  await writeFile(process.env.NAIVE_RESULTS_FILE ?? 'failed-results.json', JSON.stringify(failed));
  const verdict = scan.status === 'completed' && failed.length === 0 ? 'passed' : 'failed';
  console.log(
    JSON.stringify({
      tenant: tenant.name,
      scanId: created.id,
      status: scan.status,
      verdict,
      failed: failed.length,
    }),
  );
  return verdict === 'passed' ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    console.log(JSON.stringify({ error: String(error?.message ?? error) }));
    process.exit(1);
  },
);
