// The rotate-key sub-action's inputs (rotate-key/action.yml), typed and checked at once: one line
// per bad input, nothing sent before they are all good. Secret inputs are masked first.

import * as core from '@actions/core';
import {
  SettingProblem,
  SettingsProblems,
  parseApiKey,
  parseApiUrl,
  parseBoolean,
} from '../../pipeline/index.js';
import { parseGraceMs } from '../../pipeline/rotation/settings.js';
import type { SecretScope } from './secret-store.js';

type Env = Record<string, string | undefined>;

export interface RotateKeyInputs {
  apiKey: string;
  apiUrl: string;
  githubToken: string;
  secretName: string;
  scope: SecretScope;
  graceMs: number;
  revokeReplaced: boolean;
}

/** GitHub's rules for a secret's name. */
const SECRET_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,199}$/;
const SLUG = /^[A-Za-z0-9](?:[A-Za-z0-9._-]{0,99})$/;

const label = (name: string) => `input '${name}'`;

function parseSecretName(raw: string): string {
  const value = raw.trim();
  if (!SECRET_NAME.test(value) || /^GITHUB_/i.test(value)) {
    throw new SettingProblem(
      `${label('secret-name')} must be a secret name (letters, digits and _, not starting with a digit or GITHUB_), e.g. TENANT_SCAN_API_KEY`,
    );
  }
  return value;
}

function parseScope(env: Env): SecretScope {
  const environment = core.getInput('environment');
  const organization = core.getInput('organization');
  if (environment !== '' && organization !== '') {
    throw new SettingProblem(
      `${label('environment')} and ${label('organization')} exclude each other: an environment secret belongs to a repository`,
    );
  }
  if (organization !== '') {
    if (!SLUG.test(organization))
      throw new SettingProblem(`${label('organization')} must be an organization's login`);
    return { kind: 'organization', org: organization };
  }
  const [owner = '', repo = '', ...rest] = (env.GITHUB_REPOSITORY ?? '').split('/');
  if (!SLUG.test(owner) || !SLUG.test(repo) || rest.length > 0) {
    throw new SettingProblem('GITHUB_REPOSITORY is not owner/repo: run the step in a workflow');
  }
  if (environment === '') return { kind: 'repository', owner, repo };
  if (environment.length > 255 || /[\p{Cc}]/u.test(environment))
    throw new SettingProblem(`${label('environment')} must be an environment's name`);
  return { kind: 'environment', owner, repo, environment };
}

export function getRotateKeyInputs(env: Env = process.env): RotateKeyInputs {
  const problems = new SettingsProblems();
  const raw = (name: string) => core.getInput(name);
  const apiUrl = problems.check(
    () =>
      parseApiUrl(label('api-url'), raw('api-url')) ??
      parseApiUrl('env SERVICE_API_URL', env.SERVICE_API_URL),
    undefined,
  );
  if (!apiUrl) problems.add('no API address — set the api-url input or SERVICE_API_URL');
  const githubToken = raw('github-token');
  if (githubToken === '') {
    problems.add(
      `${label('github-token')} is required: a GitHub App token (actions/create-github-app-token) or a fine-grained PAT that may write secrets; GITHUB_TOKEN cannot`,
    );
  }
  const inputs: RotateKeyInputs = {
    apiKey: problems.check(() => parseApiKey(label('api-key'), raw('api-key')), ''),
    apiUrl: apiUrl ?? '',
    githubToken,
    secretName: problems.check(() => parseSecretName(raw('secret-name')), ''),
    scope: problems.check(() => parseScope(env), { kind: 'repository', owner: '', repo: '' }),
    graceMs: problems.check(() => parseGraceMs(label('grace-hours'), raw('grace-hours')), 0),
    revokeReplaced: problems.check(
      () => parseBoolean(label('revoke-replaced'), raw('revoke-replaced'), false),
      false,
    ),
  };
  problems.throwIfAny();
  return inputs;
}
