// The CLI's chat notification: the webhook address from TENANT_SCAN_NOTIFY_WEBHOOK (a secret:
// never a command-line argument, which every process can read), --notify-format, --notify-on;
// the pipeline's decision and delivery with the renderer of src/render. One stderr line whatever
// happens; the exit code is never the notification's.

import {
  JobCancelledError,
  JobError,
  jobErrorLine,
  notifyRun,
  readNotifySettings,
  redactingLog,
  type JobResult,
  type NotifySettings,
  type SettingsProblems,
} from '../pipeline/index.js';
import { renderNotification } from '../render/notify.js';
import { type CommandContext, type ParsedInput } from './command.js';
import { flagSource } from './flag-table.js';
import { lineLog } from './line-log.js';
import type { ProgressDisplay } from './progress.js';

export const NOTIFY_WEBHOOK_ENV = 'TENANT_SCAN_NOTIFY_WEBHOOK';

/** The notification's settings; undefined without a webhook (a flag is still checked). */
export function notifySettingsOf(
  ctx: CommandContext,
  input: ParsedInput,
  problems: SettingsProblems,
): NotifySettings | undefined {
  const webhook = { name: NOTIFY_WEBHOOK_ENV, raw: ctx.io.env[NOTIFY_WEBHOOK_ENV] };
  return readNotifySettings(flagSource(input, problems), webhook, problems);
}

/** Runs the job, then notifies about its result, or about the error it ended in (not a cancel). */
export async function notifying(
  ctx: CommandContext,
  display: ProgressDisplay,
  notify: NotifySettings | undefined,
  run: () => Promise<JobResult>,
): Promise<JobResult> {
  if (!notify) return run();
  const secrets = [ctx.settings.apiKey, notify.webhook];
  const context = {
    links: {},
    render: renderNotification,
    log: redactingLog(
      lineLog((line) => display.line(line)),
      secrets,
    ),
    delivery: { env: ctx.io.env, signal: ctx.signal },
  };
  let result: JobResult;
  try {
    result = await run();
  } catch (error) {
    if (error instanceof JobError && !(error instanceof JobCancelledError))
      await notifyRun(notify, { error: jobErrorLine(error, secrets) }, context);
    throw error;
  }
  await notifyRun(notify, { result }, context);
  return result;
}
