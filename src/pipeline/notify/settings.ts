// The notification's settings and their parsers, shared by both faces: the webhook address (a
// secret: never echoed), its format (guessed from the host) and when to speak. Nothing here sends.

import { isLoopbackHost } from '../../client/index.js';
import { chatServiceOfHost } from '../common/chat-hosts.js';
import { SettingProblem } from '../common/settings-problems.js';
import { parseWord } from '../settings/parse.js';
import { readSettings, setting, type SettingSource } from '../settings/table.js';
import type { SettingsProblems } from '../common/settings-problems.js';
import type { GateSettings } from '../gate/judge.js';

export type NotifyFormat = 'teams' | 'slack';
export const NOTIFY_FORMATS: readonly NotifyFormat[] = ['teams', 'slack'];

/** change: new failing findings, fixed ones, a waiver that expired, a finding that fell due, the
 *  verdict flipping; new: new failing findings only; failure: every failed run; always: every run. */
export type NotifyOn = 'change' | 'new' | 'failure' | 'always';
export const NOTIFY_ON_WORDS: readonly NotifyOn[] = ['change', 'new', 'failure', 'always'];

export interface NotifySettings {
  /** The webhook address: a secret (its path and query sign it). */
  webhook: string;
  format: NotifyFormat;
  on: NotifyOn;
}

/** The address, checked without ever showing it: https (http only to a loopback host), no user
 *  name or password. The problems name the input, never the value. */
export function parseNotifyWebhook(label: string, raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new SettingProblem(`${label} is not a URL: pass the webhook address from a secret`);
  }
  const loopback = url.protocol === 'http:' && isLoopbackHost(url.hostname);
  if (url.protocol !== 'https:' && !loopback) {
    throw new SettingProblem(
      `${label} must be an https:// address (http:// only for localhost); the value is not shown`,
    );
  }
  if (url.username !== '' || url.password !== '') {
    throw new SettingProblem(`${label} must not carry a user name or password`);
  }
  return url.href;
}

/** The format asked for, else the one its host tells; a problem when neither says. */
export function parseNotifyFormat(
  label: string,
  raw: string | undefined,
  webhook: string | undefined,
): NotifyFormat | undefined {
  if ((raw ?? '').trim() !== '') return parseWord(label, raw, NOTIFY_FORMATS, 'teams');
  if (webhook === undefined) return undefined;
  const guessed = formatOfHost(new URL(webhook).hostname.toLowerCase());
  if (!guessed) {
    throw new SettingProblem(
      `${label} is needed: the webhook's host is neither Slack's nor a Teams Workflows host; set teams or slack`,
    );
  }
  return guessed;
}

/** The format a host tells: Slack's incoming webhooks, Teams Workflows (common/chat-hosts.ts). */
export function formatOfHost(host: string): NotifyFormat | undefined {
  return chatServiceOfHost(host);
}

export function parseNotifyOn(label: string, raw: string | undefined): NotifyOn {
  return parseWord(label, raw, NOTIFY_ON_WORDS, 'change');
}

/** The notification's rows of the settings table. The webhook is not one: a secret, each face reads
 *  it from where a secret belongs (the Action's input, the CLI's environment, never a flag). */
export const NOTIFY_SETTINGS = {
  format: setting({
    input: 'notify-format',
    flag: 'notify-format',
    parse: (name, raw) => parseNotifyFormat(name, raw, undefined),
    fallback: undefined as NotifyFormat | undefined,
  }),
  on: setting({
    input: 'notify-on',
    flag: 'notify-on',
    parse: parseNotifyOn,
    fallback: 'change' as NotifyOn,
  }),
};

/** The notification's settings from a face: the webhook it read (`name` names it), the rows, and
 *  the format its host tells when none is given. Undefined without a webhook; a format or a
 *  notify-on is still checked then (a typo shows before the day it matters). */
export function readNotifySettings(
  source: SettingSource,
  webhook: { name: string; raw: string | undefined },
  problems: SettingsProblems,
): NotifySettings | undefined {
  const address = problems.check(() => parseNotifyWebhook(webhook.name, webhook.raw), undefined);
  const { format, on } = readSettings(NOTIFY_SETTINGS, source, problems);
  const formatName = source(NOTIFY_SETTINGS.format).name;
  const told = problems.check(
    () => format ?? parseNotifyFormat(formatName, '', address),
    undefined,
  );
  return address && told ? { webhook: address, format: told, on } : undefined;
}

/** Whether telling what changed needs the previous scan: change and new compare with it. */
export function notifyNeedsBaseline(on: NotifyOn): boolean {
  return on === 'change' || on === 'new';
}

/** The gate a notifying job runs: with change or new and no baseline, the previous scan is read
 *  as one (with fail-on any or overdue a baseline only adds counts: the verdict stays the same). */
export function gateForNotify(gate: GateSettings, on: NotifyOn): GateSettings {
  return notifyNeedsBaseline(on) && gate.baseline.kind === 'none'
    ? { ...gate, baseline: { kind: 'previous' } }
    : gate;
}
