// The rollup sub-action's step (rollup/action.yml): run records of many tenants' jobs → the
// roll-up in the job summary, its JSON in a file, outputs, and one verdict (exit 1 when it fails
// and fail-on-findings). Pipeline logic (rollUpFiles) and the Markdown (render/) are
// shared with `tenant-scan rollup`.

import * as core from '@actions/core';
import { rollupMarkdown } from '../../render/rollup-markdown.js';
import { writeFileAtomic } from '../../pipeline/common/files.js';
import type { Rollup } from '../../pipeline/rollup/rollup.js';
import { rollUpWithExports } from '../../pipeline/rollup/fleet-exports.js';
import * as log from '../log.js';
import { writeJobSummary } from '../job-summary.js';
import { getRollupInputs } from './inputs.js';
import { stepFile } from '../runner-paths.js';
import { notifyRollup, redactingLog, type NotifySettings } from '../../pipeline/index.js';
import { renderNotification } from '../../render/notify.js';
import { runLinks } from '../notify/notify.js';

type Env = Record<string, string | undefined>;

export async function run(): Promise<void> {
  try {
    await runStep(process.env);
  } catch (error) {
    log.failStep('Roll-up', error);
  }
}

async function runStep(env: Env): Promise<void> {
  const inputs = await getRollupInputs(env);
  const html = inputs.htmlFile ? await import('../../render/html/write.js') : undefined;
  const findings = html ? new html.FleetFindings() : undefined;
  const { rollup, written } = await rollUpWithExports(
    inputs.records,
    env.GITHUB_WORKSPACE || process.cwd(),
    {
      expect: inputs.expect,
      maxFailedTenants: inputs.maxFailedTenants,
      planFailOn: inputs.planFailOn,
      maxAgeMs: inputs.maxAgeMs,
    },
    { csvPath: inputs.csvFile, ocsfPath: inputs.ocsfFile },
    findings?.observe,
  );
  logTenants(rollup);
  const markdown = rollupMarkdown(rollup);
  const rollupFile = await writeFileAtomic(
    stepFile('rollup', env),
    `${JSON.stringify({ version: 1, ...rollup }, null, 2)}\n`,
  );
  if (inputs.markdownFile) await writeFileAtomic(inputs.markdownFile, markdown);
  const htmlFile =
    html && findings && inputs.htmlFile
      ? await html.writeFleetPage(inputs.htmlFile, rollup, findings)
      : '';
  if (htmlFile) log.info(`Report page written to ${htmlFile}`);
  if (inputs.jobSummary) await writeJobSummary(markdown, env);
  core.setOutput('verdict', rollup.verdict);
  core.setOutput('tenants', String(rollup.totalTenants));
  core.setOutput('failed-tenants', String(rollup.failedTenants));
  core.setOutput('rollup-file', rollupFile);
  core.setOutput('markdown-file', inputs.markdownFile ?? '');
  core.setOutput('html-file', htmlFile);
  core.setOutput('csv-file', written.csvPath ?? '');
  core.setOutput('ocsf-file', written.ocsfPath ?? '');
  if (inputs.notify) await notifyFleet(inputs.notify, rollup, env);
  if (rollup.verdict === 'failed' && inputs.failOnFindings) {
    log.setFailed(`Verdict failed: ${rollup.reason}`);
  } else {
    log.info(`Verdict: ${rollup.verdict} (${rollup.reason})`);
  }
}

/** One message for the fleet, when tenants changed (notify-on): one log line whatever happens. */
async function notifyFleet(settings: NotifySettings, rollup: Rollup, env: Env): Promise<void> {
  await notifyRollup(settings, rollup, {
    links: runLinks(env),
    render: renderNotification,
    log: redactingLog(log, [settings.webhook]),
    delivery: { env },
  });
}

/** One line per tenant that did not pass: what a reader of the log needs first. */
function logTenants(rollup: Rollup): void {
  log.info(`${rollup.totalTenants} tenants: ${rollup.failedTenants} failed or without a verdict`);
  for (const row of rollup.tenants) {
    if (row.verdict === 'passed') continue;
    const coverage = row.coverage?.fails
      ? `; coverage dropped: ${row.coverage.dropped} of ${row.coverage.baselineEvaluated} checks not evaluated now`
      : '';
    const detail =
      row.problem ??
      `${row.gating ?? 0} findings fail the gate${row.worst ? `, the worst ${row.worst}` : ''}${coverage}`;
    log.info(`${row.tenant}: ${row.verdict} — ${detail}`);
  }
}
