// tenant me | connections | notifications | notifications set | scheduled-scans

import type { NotificationSettings } from '../../client/index.js';
import { parseBoolean, SettingProblem, SettingsError } from '../../pipeline/index.js';
import { webhookFromEnv } from '../../pipeline/tenant-settings/file.js';
import type { CommandOutput, CommandSpec, ParsedInput } from '../command.js';
import { UsageError } from '../errors.js';
import type { OptionName } from '../options.js';
import { record } from '../render.js';
import { notificationsJson } from '../views.js';
import { asList, asRecord, oneCall } from './one-call.js';

function showNotifications(settings: NotificationSettings): CommandOutput {
  const shown = notificationsJson(settings);
  return {
    json: shown,
    text: record([
      ['emailOnComplete', shown.emailOnComplete],
      ['emailOnFail', shown.emailOnFail],
      ['teamsWebhookUrl', shown.teamsWebhookUrl],
      ['teamsOnComplete', shown.teamsOnComplete],
      ['teamsOnFail', shown.teamsOnFail],
    ]),
  };
}

const BOOLEAN_SETTINGS: Array<[OptionName, keyof NotificationSettings]> = [
  ['email-on-complete', 'emailOnComplete'],
  ['email-on-fail', 'emailOnFail'],
  ['teams-on-complete', 'teamsOnComplete'],
  ['teams-on-fail', 'teamsOnFail'],
];

/** The webhook address from --teams-webhook-url-env's variable, null for --teams-webhook-url
 *  none, undefined when neither is given. An address on the command line is refused unechoed: it
 *  carries a signature, and argv reaches shell history and process listings. */
function webhookOf(
  input: ParsedInput,
  env: Record<string, string | undefined>,
): string | null | undefined {
  const given = input.values['teams-webhook-url'];
  const envName = input.values['teams-webhook-url-env'];
  if (typeof given === 'string' && typeof envName === 'string') {
    throw new UsageError(
      'give --teams-webhook-url none (to remove the webhook) or --teams-webhook-url-env NAME, not both',
      'tenant notifications set',
    );
  }
  if (typeof envName === 'string') return webhookFromEnv(envName, env, '--teams-webhook-url-env');
  if (typeof given !== 'string') return undefined;
  if (['none', 'null', ''].includes(given.trim().toLowerCase())) return null;
  throw new UsageError(
    '--teams-webhook-url takes only none (to remove the webhook): an address carries a signature, so put it in an environment variable and pass --teams-webhook-url-env NAME',
    'tenant notifications set',
    true,
  );
}

function notificationPatch(
  input: ParsedInput,
  env: Record<string, string | undefined>,
): Partial<NotificationSettings> {
  const patch: Record<string, boolean | string | null> = {};
  for (const [option, field] of BOOLEAN_SETTINGS) {
    const raw = input.values[option];
    if (typeof raw !== 'string') continue;
    try {
      patch[field] = parseBoolean(`--${option}`, raw, false);
    } catch (error) {
      if (error instanceof SettingProblem) throw new SettingsError([error.message]);
      throw error;
    }
  }
  const webhook = webhookOf(input, env);
  if (webhook !== undefined) patch.teamsWebhookUrl = webhook;
  if (Object.keys(patch).length === 0) {
    throw new UsageError('give at least one setting to change', 'tenant notifications set');
  }
  return patch as Partial<NotificationSettings>;
}

const notificationsSet: CommandSpec = {
  path: ['tenant', 'notifications', 'set'],
  summary: 'Change notification settings; only the options given change',
  options: [
    'email-on-complete',
    'email-on-fail',
    'teams-on-complete',
    'teams-on-fail',
    'teams-webhook-url-env',
    'teams-webhook-url',
  ],
  details: [
    'Booleans take true|false (also yes|no, on|off, 1|0).',
    'The webhook address carries a signature: it is read from the environment variable',
    '--teams-webhook-url-env names, never from the command line; --teams-webhook-url none removes it.',
    'Example: TEAMS_WEBHOOK="$(read-your-secret)" tenant-scan tenant notifications set \\',
    '           --email-on-fail true --teams-webhook-url-env TEAMS_WEBHOOK --teams-on-fail true',
  ].join('\n'),
  async run(ctx, input) {
    const patch = notificationPatch(input, ctx.io.env);
    const settings = await ctx.client().notifications.update(patch, { signal: ctx.signal });
    return showNotifications(settings);
  },
};

export const TENANT_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['tenant', 'me'],
    summary: 'Show the tenant profile of the API key',
    call: (client, o) => client.tenants.me(o),
    show: asRecord,
  }),
  oneCall({
    path: ['tenant', 'connections'],
    summary: 'List the connected directory tenants',
    call: (client, o) => client.connections.list(o),
    show: asList,
  }),
  oneCall({
    path: ['tenant', 'notifications'],
    summary: 'Show the notification settings (email and team-chat webhook)',
    details: "Change them with 'tenant-scan tenant notifications set'.",
    call: (client, o) => client.notifications.get(o),
    show: showNotifications,
  }),
  notificationsSet,
  oneCall({
    path: ['tenant', 'scheduled-scans'],
    summary: 'List the scheduled scans',
    call: (client, o) => client.scheduledScans.list(o),
    show: asList,
  }),
];
