// The Action's chat notification: the run's links (the run, its pull request, the report
// artifact), the pipeline's decision and delivery, the renderer of src/render. Whatever happens,
// one log line: the verdict and the exit code are never the notification's.

import * as log from '../log.js';
import { notifyRun, redactingLog, type JobResult, type NotifyLinks } from '../../pipeline/index.js';
import { renderNotification } from '../../render/notify.js';
import { readRunContext } from '../event.js';
import type { ActionInputs } from '../inputs.js';

type Env = Record<string, string | undefined>;

/** Our own addresses for the message: this run, its pull request, the report artifact. */
export function runLinks(env: Env, reportUrl?: string): NotifyLinks {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  const repository = env.GITHUB_REPOSITORY;
  if (!repository || !/^[\w.-]+\/[\w.-]+$/.test(repository)) return { report: reportUrl };
  const runId =
    env.GITHUB_RUN_ID && /^\d+$/.test(env.GITHUB_RUN_ID) ? env.GITHUB_RUN_ID : undefined;
  const pull = readRunContext(env).pullNumber;
  return {
    run: runId ? `${server}/${repository}/actions/runs/${runId}` : undefined,
    pullRequest: pull !== undefined ? `${server}/${repository}/pull/${pull}` : undefined,
    report: reportUrl,
  };
}

/** Notifies about the run (or the error it ended in) when notify-webhook is set. */
export async function notifyFromAction(
  inputs: ActionInputs,
  outcome: { result: JobResult } | { error: string },
  context: { env: Env; secrets: string[]; signal?: AbortSignal; reportUrl?: string },
): Promise<void> {
  const settings = inputs.notify;
  if (!settings) return;
  await notifyRun(settings, outcome, {
    links: runLinks(context.env, context.reportUrl),
    render: renderNotification,
    log: redactingLog(log, [...context.secrets, settings.webhook]),
    delivery: { env: context.env, signal: context.signal },
  });
}
