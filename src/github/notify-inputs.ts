// The Action's notification inputs: notify-webhook (a secret, masked with the others the moment
// inputs are read), notify-format, notify-on.

import * as core from '@actions/core';
import type { SettingsProblems } from '../pipeline/common/settings-problems.js';
import type { GateSettings } from '../pipeline/gate/judge.js';
import {
  gateForNotify,
  parseNotifyFormat,
  parseNotifyOn,
  parseNotifyWebhook,
  type NotifySettings,
} from '../pipeline/notify/settings.js';

/** notify-webhook, notify-format, notify-on; undefined when there is no webhook. A format or a
 *  notify-on without a webhook is still checked (a typo shows before the day it matters). With a
 *  webhook, the job must wait, and change or new set the baseline to previous when it is none
 *  (with fail-on any or overdue a baseline adds counts, never changes the verdict). */
/** The inputs this file reads (the settings table's test counts them). */
export const NOTIFY_INPUTS = ['notify-webhook', 'notify-format', 'notify-on'];

export function notifyInputs(
  problems: SettingsProblems,
  inputName: (name: string) => string,
  job?: { wait: boolean; gate: GateSettings },
): NotifySettings | undefined {
  const raw = (name: string) => core.getInput(name);
  const webhook = problems.check(
    () => parseNotifyWebhook(inputName('notify-webhook'), raw('notify-webhook')),
    undefined,
  );
  const format = problems.check(
    () => parseNotifyFormat(inputName('notify-format'), raw('notify-format'), webhook),
    undefined,
  );
  const on = problems.check(
    () => parseNotifyOn(inputName('notify-on'), raw('notify-on')),
    'change',
  );
  if (webhook === undefined || format === undefined) return undefined;
  if (job && !job.wait)
    problems.add(`${inputName('notify-webhook')} needs wait: true (a message tells results)`);
  if (job?.wait) job.gate = gateForNotify(job.gate, on);
  return { webhook, format, on };
}
