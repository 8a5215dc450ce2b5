// The settings sub-action's step (settings/action.yml): tenant plan or apply (shared with the CLI,
// pipeline/tenant-settings/run.ts), the plan in the job summary, the pull request's comment and a
// tracking issue, outputs and the verdict. The API key and the webhook address are masked first.

import * as core from '@actions/core';
import { createClient } from '../../client/index.js';
import { planMarkdown } from '../../render/tenant-plan.js';
import { writeFileAtomic } from '../../pipeline/common/files.js';
import {
  parseApiKey,
  parseApiUrl,
  parseBoolean,
  parseList,
} from '../../pipeline/settings/parse.js';
import { SettingsProblems } from '../../pipeline/common/settings-problems.js';
import {
  PLAN_FAIL_ON,
  planFails,
  unfinished,
  type PlanDocument,
  type PlanFailOn,
} from '../../pipeline/tenant-settings/document.js';
import { applyBroken, prepareSettings, runSettings } from '../../pipeline/tenant-settings/run.js';
import { readRunContext } from '../event.js';
import { writeJobSummary } from '../job-summary.js';
import * as log from '../log.js';
import { stepFile } from '../runner-paths.js';
import { publishSettingsComment, trackSettings } from './publish.js';

type Env = Record<string, string | undefined>;

interface SettingsInputs {
  apply: boolean;
  apiKey: string;
  apiUrl?: string;
  file: string;
  failOn: PlanFailOn;
  tenantLabel?: string;
  prComment: boolean;
  tracking: boolean;
  labels: string[];
  token: string;
}

let secrets: string[] = [];

export async function run(): Promise<void> {
  try {
    await runStep(process.env);
  } catch (error) {
    log.failStep('Tenant settings', error, secrets);
  }
}

function readInputs(env: Env): SettingsInputs {
  const raw = (name: string) => core.getInput(name);
  for (const name of ['api-key', 'github-token']) if (raw(name)) core.setSecret(raw(name));
  const problems = new SettingsProblems();
  const mode = raw('mode').toLowerCase();
  if (mode !== 'plan' && mode !== 'apply') problems.add("input 'mode' must be plan or apply");
  const apply = mode === 'apply';
  const failOnRaw = raw('fail-on').toLowerCase() || (apply ? 'drift' : 'any');
  if (!(PLAN_FAIL_ON as readonly string[]).includes(failOnRaw)) {
    problems.add(`input 'fail-on' must be one of ${PLAN_FAIL_ON.join(', ')}`);
  }
  const apiUrl = problems.check(
    () =>
      parseApiUrl("input 'api-url'", raw('api-url')) ??
      parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL),
    undefined,
  );
  const inputs: SettingsInputs = {
    apply,
    apiKey: problems.check(() => parseApiKey("input 'api-key'", raw('api-key')), ''),
    ...(apiUrl ? { apiUrl } : {}),
    file: raw('file') || '.tenant-scan/tenant.yml',
    failOn: failOnRaw as PlanFailOn,
    ...(raw('tenant-label') ? { tenantLabel: raw('tenant-label') } : {}),
    prComment: problems.check(
      () => parseBoolean("input 'pr-comment'", raw('pr-comment'), true),
      true,
    ),
    tracking: problems.check(
      () => parseBoolean("input 'tracking-issue'", raw('tracking-issue'), false),
      false,
    ),
    labels: parseList(raw('tracking-labels')),
    token: raw('github-token'),
  };
  if (!apiUrl)
    problems.add("input 'api-url' (or env SERVICE_API_URL) is required: the API's base address");
  problems.throwIfAny();
  return inputs;
}

async function runStep(env: Env): Promise<void> {
  const inputs = readInputs(env);
  const workspace = env.GITHUB_WORKSPACE || process.cwd();
  const path = inputs.file.startsWith('/') ? inputs.file : `${workspace}/${inputs.file}`;
  const prepared = await prepareSettings(path, env);
  secrets = [inputs.apiKey, ...prepared.secrets];
  for (const secret of prepared.secrets) core.setSecret(secret);
  const client = createClient({
    apiKey: inputs.apiKey,
    ...(inputs.apiUrl ? { baseUrl: inputs.apiUrl } : {}),
    env,
    userAgentSuffix: 'github-action-settings',
  });
  try {
    const doc = await runSettings({
      client,
      prepared,
      apply: inputs.apply,
      ...(inputs.tenantLabel ? { tenantLabel: inputs.tenantLabel } : {}),
    });
    for (const a of unfinished(doc.applied ?? []))
      log.warning(`${a.outcome}: ${a.change}: ${a.detail ?? ''}`);
    const markdown = planMarkdown(
      doc,
      inputs.apply ? '### Tenant settings applied' : '### Tenant settings plan',
    );
    await writeJobSummary(markdown, env);
    const planFile = await writeFileAtomic(
      stepFile('tenant-plan', env),
      `${JSON.stringify(doc, null, 2)}\n`,
    );
    core.setOutput('drift', String(doc.drift.length));
    core.setOutput('problems', String(doc.problems.length));
    core.setOutput('codes', [...new Set(doc.problems.map((p) => p.code))].join(','));
    core.setOutput('plan-file', planFile);
    const context = readRunContext(env);
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
    verdict(doc, inputs);
  } finally {
    await client.close();
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
