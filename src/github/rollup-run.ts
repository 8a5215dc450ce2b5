// The rollup sub-action's step (rollup/action.yml): run records of many tenants' jobs → the
// roll-up in the job summary, its JSON in a file, outputs, and one verdict (exit 1 when it fails
// and fail-on-findings). Pipeline logic (rollUpFiles) and the Markdown (formats/) are
// shared with `tenant-scan rollup`.

import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as core from '@actions/core';
import { rollupMarkdown } from '../formats/rollup-markdown.js';
import { oneLine } from '../pipeline/errors.js';
import { writeFileAtomic } from '../pipeline/files.js';
import { rollUpFiles, type Rollup } from '../pipeline/rollup.js';
import { SettingsError } from '../pipeline/settings.js';
import * as log from './log.js';
import { getRollupInputs, type RollupInputs } from './rollup-inputs.js';

type Env = Record<string, string | undefined>;

export async function run(): Promise<void> {
  try {
    await runStep(process.env);
  } catch (error) {
    if (error instanceof SettingsError) {
      const lines = error.lines();
      for (const line of lines.slice(0, -1)) log.error(line);
      log.setFailed(lines.at(-1) ?? error.message);
      return;
    }
    log.setFailed(
      `Roll-up failed: ${oneLine(error instanceof Error ? error.message : String(error))}`,
    );
  }
}

async function runStep(env: Env): Promise<void> {
  const inputs = await getRollupInputs(env);
  const rollup = await rollUpFiles(inputs.records, env.GITHUB_WORKSPACE || process.cwd(), {
    expect: inputs.expect,
    maxFailedTenants: inputs.maxFailedTenants,
  });
  logTenants(rollup);
  const markdown = rollupMarkdown(rollup);
  const rollupFile = await writeFileAtomic(
    join(env.RUNNER_TEMP || tmpdir(), 'tenant-scan', `rollup-${stepName(env)}.json`),
    `${JSON.stringify({ version: 1, ...rollup }, null, 2)}\n`,
  );
  if (inputs.markdownFile) await writeFileAtomic(inputs.markdownFile, markdown);
  await writeSummary(markdown, inputs, env);
  core.setOutput('verdict', rollup.verdict);
  core.setOutput('tenants', String(rollup.totalTenants));
  core.setOutput('failed-tenants', String(rollup.failedTenants));
  core.setOutput('rollup-file', rollupFile);
  core.setOutput('markdown-file', inputs.markdownFile ?? '');
  if (rollup.verdict === 'failed' && inputs.failOnFindings) {
    log.setFailed(`Verdict failed: ${rollup.reason}`);
  } else {
    log.info(`Verdict: ${rollup.verdict} (${rollup.reason})`);
  }
}

function stepName(env: Env): string {
  return (env.GITHUB_ACTION ?? 'step').replace(/[^A-Za-z0-9_.-]/g, '_') || 'step';
}

/** One line per tenant that did not pass: what a reader of the log needs first. */
function logTenants(rollup: Rollup): void {
  log.info(`${rollup.totalTenants} tenants: ${rollup.failedTenants} failed or without a verdict`);
  for (const row of rollup.tenants) {
    if (row.verdict === 'passed') continue;
    const detail =
      row.problem ??
      `${row.gating ?? 0} findings fail the gate${row.worst ? `, the worst ${row.worst}` : ''}`;
    log.info(`${row.tenant}: ${row.verdict} — ${detail}`);
  }
}

async function writeSummary(markdown: string, inputs: RollupInputs, env: Env): Promise<void> {
  if (!inputs.jobSummary) return;
  if (!env.GITHUB_STEP_SUMMARY) {
    log.debug('No GITHUB_STEP_SUMMARY: job summary skipped');
    return;
  }
  try {
    await core.summary.addRaw(markdown).write();
  } catch (error) {
    log.warning(
      `Job summary skipped: ${oneLine(error instanceof Error ? error.message : String(error))}`,
    );
  }
}
