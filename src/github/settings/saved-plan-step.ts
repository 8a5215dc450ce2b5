// The settings sub-action's saved plans: on a pull request the plan is saved and uploaded as an
// artifact (the file's own name, unzipped); on the default branch the plan reviewed in the merged
// pull request is found (reviewed-plan.ts) and applied only if still current.

import * as core from '@actions/core';
import { writeFileAtomic } from '../../pipeline/common/files.js';
import { savedPlanText, type SavedPlan } from '../../pipeline/tenant-settings/saved-plan.js';
import { uploadReport } from '../artifact.js';
import { workflowPath, type RunContext } from '../event.js';
import * as log from '../log.js';
import { stepFile } from '../runner-paths.js';
import type { SettingsInputs } from './inputs.js';
import { fetchReviewedPlan, NoReviewedPlan, type ReviewedPlan } from './reviewed-plan.js';

type Env = Record<string, string | undefined>;

/** Saves the plan and uploads it; the line the summary and the comment say about it. */
export async function savePlanArtifact(
  saved: SavedPlan,
  inputs: SettingsInputs,
  env: Env,
): Promise<string> {
  const file = await writeFileAtomic(stepFile('tenant-saved-plan', env), savedPlanText(saved));
  core.setOutput('saved-plan-file', file);
  const name = inputs.planArtifact;
  const outcome = await uploadReport({ file, name }, env);
  if (!outcome.uploaded) {
    log.warning(
      `The plan could not be saved as the artifact ${name} (${outcome.reason}): an apply of the reviewed plan after the merge will find none`,
    );
    return `The plan could not be saved as an artifact: the merge will not find it.`;
  }
  log.info(`Plan saved as the artifact ${name} (id ${outcome.id})`);
  return `The merge applies exactly this plan (artifact \`${name}\`), or nothing if the tenant changes before it: plan again then.`;
}

/** The plan reviewed in the pull request this push merged; one line when there is none. */
export async function reviewedPlanOf(
  inputs: SettingsInputs,
  context: RunContext,
  env: Env,
): Promise<ReviewedPlan> {
  const workflow = workflowPath(env, '');
  const sha = env.GITHUB_SHA ?? '';
  if (!context.owner || !context.repo || !workflow || !/^[0-9a-f]{40}$/.test(sha)) {
    throw new NoReviewedPlan(
      'the reviewed plan is found through GITHUB_REPOSITORY, GITHUB_SHA and GITHUB_WORKFLOW_REF, which the runner sets; outside a runner set apply: latest',
    );
  }
  const found = await fetchReviewedPlan(
    {
      token: inputs.token,
      owner: context.owner,
      repo: context.repo,
      sha,
      workflowPath: workflow,
      artifactName: inputs.planArtifact,
    },
    log,
  );
  log.info(
    `Applying the plan reviewed in pull request #${found.pullNumber} (run ${found.runId}, the tenant read at ${found.plan.createdAt}) if the tenant has not changed since`,
  );
  return found;
}
