// keys list | create <name> | delete <id> (revoke <id> is an alias) | rotate (keys-rotate.ts).

import type { ApiKey } from '../../client/index.js';
import type { CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { record, table } from '../render.js';
import { apiKeyJson, createdKeyJson } from '../views.js';
import { KEYS_ROTATE } from './keys-rotate.js';
import { done, oneCall } from './one-call.js';

function keysTable(keys: ApiKey[]): string {
  return table<ApiKey>(keys, [
    { header: 'id', value: (k) => k.id },
    { header: 'name', value: (k) => k.name, max: 40 },
    { header: 'prefix', value: (k) => k.keyPrefix },
    { header: 'tenant', value: (k) => k.msTenantId },
    { header: 'last used', value: (k) => k.lastUsedAt },
    { header: 'created', value: (k) => k.createdAt },
  ]);
}

const create: CommandSpec = {
  path: ['keys', 'create'],
  summary: 'Create an API key; the full key is printed once, store it now',
  args: ['name'],
  options: ['ms-tenant-id'],
  details: 'At most 10 keys per tenant; a name has at most 255 characters.',
  async run(ctx, input) {
    const name = input.args.name ?? '';
    if (name.trim() === '' || name.length > 255) {
      throw new UsageError('the key name must have 1 to 255 characters', 'keys create');
    }
    const msTenantId = input.values['ms-tenant-id'];
    const created = await ctx
      .client()
      .apiKeys.create(typeof msTenantId === 'string' ? { name, msTenantId } : { name }, {
        signal: ctx.signal,
      });
    ctx.note('The full key is shown once and cannot be retrieved again: store it in a secret now.');
    return {
      json: createdKeyJson(created),
      text: record([
        ['id', created.id],
        ['name', created.name],
        ['keyPrefix', created.keyPrefix],
        ['msTenantId', created.msTenantId],
        ['createdAt', created.createdAt],
        ['key', created.key],
      ]),
    };
  },
};

export const KEY_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['keys', 'list'],
    summary: 'List the active API keys (never the full key)',
    call: (client, o) => client.apiKeys.list(o),
    show: (keys) => ({ json: keys.map(apiKeyJson), text: keysTable(keys) }),
  }),
  create,
  oneCall({
    path: ['keys', 'delete'],
    summary: 'Delete (revoke) an API key; every later request with it gets 401',
    arg: 'id',
    call: (client, o, id) => client.apiKeys.delete(id, o),
    show: done('deleted', true, (id) => `Deleted key ${id}`),
  }),
  oneCall({
    path: ['keys', 'revoke'],
    summary: 'Same as keys delete (kept for scripts that use it)',
    arg: 'id',
    call: (client, o, id) => client.apiKeys.delete(id, o),
    show: done('revoked', true, (id) => `Revoked key ${id}`),
  }),
  KEYS_ROTATE,
];
