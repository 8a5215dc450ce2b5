// tenant me | connections | notifications | notifications set | scheduled-scans

import type { NotificationSettings } from '../../client/types.js';
import { parseBoolean, SettingProblem } from '../../pipeline/index.js';
import type { CommandSpec, ParsedInput } from '../command.js';
import { UsageError } from '../errors.js';
import type { OptionName } from '../options.js';
import { anyRecord, anyTable, record } from '../render.js';
import { notificationsJson } from '../views.js';

const me: CommandSpec = {
  path: ['tenant', 'me'],
  summary: 'Show the tenant profile of the API key',
  async run(ctx) {
    const profile = await ctx.client().tenants.me({ signal: ctx.signal });
    return { json: profile, text: anyRecord(profile) };
  },
};

const connections: CommandSpec = {
  path: ['tenant', 'connections'],
  summary: 'List the connected directory tenants',
  async run(ctx) {
    const list = await ctx.client().connections.list({ signal: ctx.signal });
    return { json: list, text: anyTable(list) };
  },
};

function notificationsText(settings: NotificationSettings): string {
  return record([
    ['emailOnComplete', settings.emailOnComplete],
    ['emailOnFail', settings.emailOnFail],
    ['teamsWebhookUrl', settings.teamsWebhookUrl],
    ['teamsOnComplete', settings.teamsOnComplete],
    ['teamsOnFail', settings.teamsOnFail],
  ]);
}

const notifications: CommandSpec = {
  path: ['tenant', 'notifications'],
  summary: 'Show the notification settings (email and team-chat webhook)',
  details: "Change them with 'tenant-scan tenant notifications set'.",
  async run(ctx) {
    const settings = await ctx.client().notifications.get({ signal: ctx.signal });
    return { json: notificationsJson(settings), text: notificationsText(settings) };
  },
};

const BOOLEAN_SETTINGS: Array<[OptionName, keyof NotificationSettings]> = [
  ['email-on-complete', 'emailOnComplete'],
  ['email-on-fail', 'emailOnFail'],
  ['teams-on-complete', 'teamsOnComplete'],
  ['teams-on-fail', 'teamsOnFail'],
];

function notificationPatch(input: ParsedInput): Partial<NotificationSettings> {
  const patch: Record<string, boolean | string | null> = {};
  for (const [option, field] of BOOLEAN_SETTINGS) {
    const raw = input.values[option];
    if (typeof raw !== 'string') continue;
    try {
      patch[field] = parseBoolean(`--${option}`, raw, false);
    } catch (error) {
      if (error instanceof SettingProblem)
        throw new UsageError(error.message, 'tenant notifications set');
      throw error;
    }
  }
  const url = input.values['teams-webhook-url'];
  if (typeof url === 'string') {
    patch.teamsWebhookUrl = ['', 'none', 'null'].includes(url.trim().toLowerCase())
      ? null
      : url.trim();
  }
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
    'teams-webhook-url',
  ],
  details: [
    'Booleans take true|false (also yes|no, on|off, 1|0).',
    'Example: tenant-scan tenant notifications set --email-on-fail true \\',
    '           --teams-webhook-url https://example.webhook.office.com/... --teams-on-fail true',
  ].join('\n'),
  async run(ctx, input) {
    const patch = notificationPatch(input);
    const settings = await ctx.client().notifications.update(patch, { signal: ctx.signal });
    return { json: notificationsJson(settings), text: notificationsText(settings) };
  },
};

const scheduledScans: CommandSpec = {
  path: ['tenant', 'scheduled-scans'],
  summary: 'List the scheduled scans',
  async run(ctx) {
    const list = await ctx.client().scheduledScans.list({ signal: ctx.signal });
    return { json: list, text: anyTable(list) };
  },
};

export const TENANT_COMMANDS: CommandSpec[] = [
  me,
  connections,
  notifications,
  notificationsSet,
  scheduledScans,
];
