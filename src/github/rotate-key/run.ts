// The rotate-key sub-action's step (rotate-key/action.yml): rotates the Tenant API key held in a
// GitHub Actions secret (src/pipeline/rotation) and writes the new one there. The new key is masked
// the moment it exists and goes only to the service and, sealed, to GitHub's secrets API.

import * as core from '@actions/core';
import { createClient } from '../../client/index.js';
import { SettingsError, oneLine, redact, redactingLog } from '../../pipeline/index.js';
import { RotationError, rotateKey, type RotationResult } from '../../pipeline/rotation/rotate.js';
import * as log from '../log.js';
import { maskSecrets } from '../inputs.js';
import { getRotateKeyInputs, type RotateKeyInputs } from './inputs.js';
import { GitHubSecretStore, lineageOf } from './secret-store.js';
import { abortOnSignals } from '../signals.js';
import { createGitHubClient } from '../github-client.js';

/** Everything the step does on GitHub together (the public key, the secret's metadata, the
 *  write); each request also has a deadline of its own (secret-store.ts). */
export const ROTATION_GITHUB_BUDGET_MS = 3 * 60_000;

type Env = Record<string, string | undefined>;

export async function run(): Promise<void> {
  maskSecrets(); // api-key and github-token, as the main action's
  const secrets: string[] = [
    core.getInput('api-key').trim(),
    core.getInput('github-token').trim(),
  ].filter((s) => s !== '');
  try {
    await runStep(process.env, secrets);
  } catch (error) {
    if (error instanceof SettingsError) log.failWithLines(error.lines());
    else if (error instanceof RotationError) log.setFailed(redact(error.message, secrets));
    else {
      const said = error instanceof Error ? error.message : String(error);
      log.setFailed(`Rotation failed: ${oneLine(redact(said, secrets))}`);
    }
  }
}

async function runStep(env: Env, secrets: string[]): Promise<void> {
  const inputs = getRotateKeyInputs(env);
  const controller = new AbortController();
  const stopListening = abortOnSignals(controller);
  const logLine = redactingLog(log, secrets);
  const github = await createGitHubClient(inputs.githubToken, {
    log: logLine,
    budgetMs: ROTATION_GITHUB_BUDGET_MS,
    signal: controller.signal,
  });
  const store = new GitHubSecretStore(github.octokit, inputs.scope, inputs.secretName);
  const openClient = (apiKey: string) =>
    createClient({ apiKey, baseUrl: inputs.apiUrl, env, userAgentSuffix: 'github-action' });
  const client = openClient(inputs.apiKey);
  try {
    const result = await rotateKey(settingsOf(inputs), {
      client,
      openClient,
      store,
      mask: (secret) => {
        core.setSecret(secret);
        secrets.push(secret);
      },
      log: logLine.info,
      signal: controller.signal,
    });
    report(result, store.description);
  } finally {
    stopListening();
    await client.close().catch(() => undefined);
  }
}

function settingsOf(inputs: RotateKeyInputs) {
  return {
    apiKey: inputs.apiKey,
    lineage: lineageOf(inputs.scope, inputs.secretName),
    graceMs: inputs.graceMs,
    revokeReplaced: inputs.revokeReplaced,
    dryRun: false,
  };
}

function report(result: RotationResult, where: string): void {
  core.setOutput('key-id', result.keyId ?? '');
  core.setOutput('key-prefix', result.keyPrefix ?? '');
  core.setOutput('revoked', String(result.revoked.length));
  const kept = result.kept.map((k) => k.keyPrefix).join(', ');
  log.info(
    `Rotated: the ${where} holds the new key ${result.keyPrefix}; deleted ${result.revoked.length} replaced key(s)${kept ? `; kept ${kept} until their grace has passed` : ''}`,
  );
}
