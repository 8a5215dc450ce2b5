// The Action's notification inputs: notify-webhook (a secret, masked with the others the moment
// inputs are read), notify-format, notify-on.

import * as core from '@actions/core';
import type { SettingsProblems } from '../../pipeline/common/settings-problems.js';
import type { GateSettings } from '../../pipeline/gate/judge.js';
import {
  NOTIFY_SETTINGS,
  gateForNotify,
  readNotifySettings,
  type NotifySettings,
} from '../../pipeline/notify/settings.js';
import type { SettingSource } from '../../pipeline/settings/table.js';

/** notify-webhook, notify-format, notify-on; undefined when there is no webhook. A format or a
 *  notify-on without a webhook is still checked (a typo shows before the day it matters). With a
 *  webhook, the job must wait, and change or new set the baseline to previous when it is none
 *  (with fail-on any or overdue a baseline adds counts, never changes the verdict). */
/** The webhook's input, not a row of the table (a secret: see NOTIFY_SETTINGS). */
export const NOTIFY_WEBHOOK_INPUT = 'notify-webhook';
/** The inputs this file reads (the settings table's test counts them). */
export const NOTIFY_INPUTS = [
  NOTIFY_WEBHOOK_INPUT,
  ...Object.values(NOTIFY_SETTINGS).map((row) => row.input ?? ''),
];

export function notifyInputs(
  problems: SettingsProblems,
  inputName: (name: string) => string,
  job?: { wait: boolean; gate: GateSettings },
): NotifySettings | undefined {
  const source: SettingSource = (row) => ({
    name: inputName(row.input ?? ''),
    raw: core.getInput(row.input ?? ''),
  });
  const webhook = {
    name: inputName(NOTIFY_WEBHOOK_INPUT),
    raw: core.getInput(NOTIFY_WEBHOOK_INPUT),
  };
  const notify = readNotifySettings(source, webhook, problems);
  if (!notify) return undefined;
  if (job && !job.wait) problems.add(`${webhook.name} needs wait: true (a message tells results)`);
  if (job?.wait) job.gate = gateForNotify(job.gate, notify.on);
  return notify;
}
