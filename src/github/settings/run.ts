// The settings sub-action's step (settings/action.yml): tenant plan or apply (shared with the CLI,
// pipeline/tenant-settings/run.ts), the plan in the job summary, the pull request's comment and a
// tracking issue, outputs and the verdict. On a pull request the plan is also saved as an artifact
// (saved-plan-step.ts); an apply (`apply: reviewed`, the default) applies the plan of the merged
// pull request when it is still current, and else fails with what changed (reviewed-plan.ts). The
// API key and the webhook address are masked first.

import * as core from '@actions/core';
import { createClient } from '../../client/index.js';
import { planMarkdown } from '../../render/tenant-plan.js';
import { writeFileAtomic } from '../../pipeline/common/files.js';
import {
  planFails,
  unfinished,
  type PlanDocument,
} from '../../pipeline/tenant-settings/document.js';
import {
  applyBroken,
  prepareSettings,
  runSettings,
  type Prepared,
} from '../../pipeline/tenant-settings/run.js';
import { readRunContext, type RunContext } from '../event.js';
import { writeJobSummary } from '../job-summary.js';
import * as log from '../log.js';
import { stepFile } from '../runner-paths.js';
import { FILE_INPUT, readSettingsInputs, type SettingsInputs } from './inputs.js';
import { publishSettingsComment, trackSettings } from './publish.js';
import type { ReviewedPlan } from './reviewed-plan.js';
import { reviewedPlanOf, savePlanArtifact } from './saved-plan-step.js';

type Env = Record<string, string | undefined>;

let secrets: string[] = [];

export async function run(): Promise<void> {
  try {
    await runStep(process.env);
  } catch (error) {
    log.failStep('Tenant settings', error, secrets);
  }
}

async function runStep(env: Env): Promise<void> {
  const inputs = readSettingsInputs(env);
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const path = inputs.file.startsWith('/') ? inputs.file : `${workspace}/${inputs.file}`;
  const prepared = await prepareSettings(path, env, [inputs.apiKey, inputs.token], FILE_INPUT);
  secrets = [inputs.apiKey, ...prepared.secrets];
  for (const secret of prepared.secrets) core.setSecret(secret);
  const context = readRunContext(env);
  // Found before the tenant is asked anything: without a reviewed plan nothing is sent.
  const reviewed =
    inputs.apply && inputs.applyWhat === 'reviewed'
      ? await reviewedPlanOf(inputs, context, env)
      : undefined;
  await settingsStep(inputs, prepared, context, reviewed, env);
}

async function settingsStep(
  inputs: SettingsInputs,
  prepared: Prepared,
  context: RunContext,
  reviewed: ReviewedPlan | undefined,
  env: Env,
): Promise<void> {
  const client = createClient({
    apiKey: inputs.apiKey,
    ...(inputs.apiUrl ? { baseUrl: inputs.apiUrl } : {}),
    env,
    userAgentSuffix: 'github-action-settings',
  });
  try {
    const { doc, saved } = await runSettings({
      client,
      prepared,
      apply: inputs.apply,
      ...(reviewed ? { saved: reviewed.plan } : {}),
      ...(inputs.tenantLabel ? { tenantLabel: inputs.tenantLabel } : {}),
    });
    for (const a of unfinished(doc.applied ?? []))
      log.warning(`${a.outcome}: ${a.change}: ${a.detail ?? ''}`);
    const onPullRequest = !inputs.apply && context.pullNumber !== undefined;
    const notes = [
      ...(reviewed ? [`Applied the plan reviewed in pull request #${reviewed.pullNumber}.`] : []),
      ...(onPullRequest ? [await savePlanArtifact(saved, inputs, env)] : []),
    ];
    const markdown = [
      planMarkdown(doc, inputs.apply ? '### Tenant settings applied' : '### Tenant settings plan'),
      ...notes,
    ].join('\n');
    await writeJobSummary(markdown, env);
    await publish(doc, markdown, inputs, context, env);
    verdict(doc, inputs);
  } finally {
    await client.close();
  }
}

async function publish(
  doc: PlanDocument,
  markdown: string,
  inputs: SettingsInputs,
  context: RunContext,
  env: Env,
): Promise<void> {
  const planFile = await writeFileAtomic(
    stepFile('tenant-plan', env),
    `${JSON.stringify(doc, null, 2)}\n`,
  );
  core.setOutput('drift', String(doc.drift.length));
  core.setOutput('problems', String(doc.problems.length));
  core.setOutput('codes', [...new Set(doc.problems.map((p) => p.code))].join(','));
  core.setOutput('plan-file', planFile);
  if (inputs.prComment && context.pullNumber !== undefined) {
    await publishSettingsComment({ token: inputs.token, context, markdown }, log);
  }
  if (inputs.tracking) {
    await trackSettings(
      {
        token: inputs.token,
        context,
        doc,
        markdown,
        labels: inputs.labels,
        apiUrl: inputs.apiUrl ?? '',
      },
      log,
    );
  }
}

function verdict(doc: PlanDocument, inputs: SettingsInputs): void {
  const counts = `${doc.drift.length} drifting, ${doc.problems.length} hygiene problems`;
  if (applyBroken(doc)) {
    log.setFailed(`Apply did not finish: run it again (${counts})`);
  } else if (planFails(doc, inputs.failOn)) {
    log.setFailed(`Tenant settings: ${counts} (fail-on: ${inputs.failOn})`);
  } else {
    log.info(`Tenant settings: ${counts}`);
  }
}
