// What the Action needs from the workflow run's context: repository, commit, pull request.
// Read from the runner's env and event file directly (no toolkit load just for this).

import { readFileSync } from 'node:fs';

type Env = Record<string, string | undefined>;

export interface RunContext {
  owner?: string;
  repo?: string;
  eventName?: string;
  /** Head commit of the pull request, else GITHUB_SHA. */
  sha?: string;
  pullNumber?: number;
  /** The pull request's base commit and branch (the waivers it adds are compared with them). */
  baseSha?: string;
  baseRef?: string;
  /** Path of the workflow file (for check-run annotations), e.g. .github/workflows/scan.yml. */
  workflowPath: string;
  /** Marker that identifies this job's PR comment. */
  commentKey: string;
}

/** Why the runner's event file cannot be used, in one line; undefined when it can (or when
 *  GITHUB_EVENT_PATH is not set at all: not on a runner, no pull request to report to). */
export function eventFileProblem(env: Env = process.env): string | undefined {
  const path = env.GITHUB_EVENT_PATH;
  if (path === undefined || path === '') return undefined;
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    return code === 'ENOENT'
      ? `env GITHUB_EVENT_PATH names an event file that does not exist (${path}): the runner writes it before the step; outside a runner leave GITHUB_EVENT_PATH unset`
      : `env GITHUB_EVENT_PATH names an event file that cannot be read (${path}${typeof code === 'string' ? `, ${code}` : ''}): it must be the runner's JSON event payload`;
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return undefined;
  } catch {
    // reported below
  }
  return `env GITHUB_EVENT_PATH names an event file that is not a JSON object (${path}): it must be the runner's JSON event payload`;
}

function readEvent(path: string | undefined): Record<string, unknown> {
  if (!path) return {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return parsed !== null && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function field(value: unknown, ...keys: string[]): unknown {
  let current = value;
  for (const key of keys) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

export function workflowPath(env: Env, fallback = '.github'): string {
  const ref = env.GITHUB_WORKFLOW_REF ?? '';
  const match = /^[^/]+\/[^/]+\/(.+?)@/.exec(ref);
  return match?.[1] ?? fallback;
}

/** The file GitHub code scanning shows SARIF results on (it rejects results without a location):
 *  the workflow that ran the scan. */
export function sarifLocationUri(env: Env): string {
  return workflowPath(env, '.github/workflows');
}

export function readRunContext(env: Env = process.env): RunContext {
  const [owner, repo] = (env.GITHUB_REPOSITORY ?? '').split('/');
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pr = field(event, 'pull_request');
  const pullNumber = field(pr, 'number');
  const headSha = field(pr, 'head', 'sha');
  const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);
  return {
    owner: owner || undefined,
    repo: repo || undefined,
    eventName: env.GITHUB_EVENT_NAME,
    sha: typeof headSha === 'string' && headSha !== '' ? headSha : env.GITHUB_SHA || undefined,
    pullNumber: typeof pullNumber === 'number' ? pullNumber : undefined,
    baseSha: text(field(pr, 'base', 'sha')),
    baseRef: text(field(pr, 'base', 'ref')),
    workflowPath: workflowPath(env),
    commentKey: `${env.GITHUB_WORKFLOW ?? 'workflow'}/${env.GITHUB_JOB ?? 'job'}`.replace(
      /--/g,
      '-',
    ),
  };
}
