// The settings sub-action's inputs (settings/action.yml), read and checked at once: every problem
// one line, all reported together, before any request. The key and the token are masked first.

import * as core from '@actions/core';
import {
  parseApiKey,
  parseApiUrl,
  parseBoolean,
  parseList,
} from '../../pipeline/settings/parse.js';
import { SettingsProblems } from '../../pipeline/common/settings-problems.js';
import { PLAN_FAIL_ON, type PlanFailOn } from '../../pipeline/tenant-settings/document.js';

type Env = Record<string, string | undefined>;

/** What an apply on the default branch applies: the plan reviewed in the merged pull request,
 *  or a plan made now. */
export type ApplyWhat = 'reviewed' | 'latest';

export interface SettingsInputs {
  apply: boolean;
  applyWhat: ApplyWhat;
  /** The saved plan's artifact name (a file name). */
  planArtifact: string;
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

/** How the step's lines name the setting that names another tenant settings file. */
export const FILE_INPUT = "input 'file'";

const ARTIFACT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

function word<T extends string>(
  problems: SettingsProblems,
  name: string,
  raw: string,
  words: readonly T[],
  fallback: T,
): T {
  const value = raw.trim().toLowerCase() || fallback;
  if ((words as readonly string[]).includes(value)) return value as T;
  problems.add(`input '${name}' must be one of ${words.join(', ')}`);
  return fallback;
}

export function readSettingsInputs(env: Env): SettingsInputs {
  const raw = (name: string) => core.getInput(name);
  for (const name of ['api-key', 'github-token']) if (raw(name)) core.setSecret(raw(name));
  const problems = new SettingsProblems();
  const mode = raw('mode').toLowerCase();
  if (mode !== 'plan' && mode !== 'apply') problems.add("input 'mode' must be plan or apply");
  const apply = mode === 'apply';
  const failOn = word(problems, 'fail-on', raw('fail-on'), PLAN_FAIL_ON, apply ? 'drift' : 'any');
  const apiUrl = problems.check(
    () =>
      parseApiUrl("input 'api-url'", raw('api-url')) ??
      parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL),
    undefined,
  );
  const applyWhat = word(
    problems,
    'apply',
    raw('apply'),
    ['reviewed', 'latest'] as const,
    'reviewed',
  );
  const planArtifact = raw('plan-artifact').trim() || 'tenant-plan.json';
  if (!ARTIFACT_NAME.test(planArtifact)) {
    problems.add("input 'plan-artifact' must be a file name: letters, digits, '.', '_', '-'");
  }
  const inputs: SettingsInputs = {
    apply,
    applyWhat,
    planArtifact,
    apiKey: problems.check(() => parseApiKey("input 'api-key'", raw('api-key')), ''),
    ...(apiUrl ? { apiUrl } : {}),
    file: raw('file') || '.tenant-scan/tenant.yml',
    failOn,
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
