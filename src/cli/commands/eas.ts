// eas summary | history | targets list|add|update|remove|verify | scan (external attack surface)

import type { CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { anyRecord } from '../render.js';
import { asList, asRecord, done, oneCall } from './one-call.js';

const update: CommandSpec = {
  path: ['eas', 'targets', 'update'],
  summary: 'Change the label of an attack-surface target',
  args: ['id'],
  options: ['label'],
  required: ['label'],
  async run(ctx, input) {
    const label = input.values.label;
    if (typeof label !== 'string')
      throw new UsageError('--label <label> is required', 'eas targets update');
    const target = await ctx
      .client()
      .attackSurface.updateTarget(input.args.id ?? '', { label }, { signal: ctx.signal });
    return { json: target, text: anyRecord(target) };
  },
};

export const EAS_COMMANDS: CommandSpec[] = [
  oneCall({
    path: ['eas', 'summary'],
    summary: 'Show the attack-surface overview',
    call: (client, o) => client.attackSurface.summary(o),
    show: asRecord,
  }),
  oneCall({
    path: ['eas', 'history'],
    summary: 'Show the attack-surface history',
    call: (client, o) => client.attackSurface.history(o),
    show: asList,
  }),
  oneCall({
    path: ['eas', 'targets', 'list'],
    summary: 'List the attack-surface targets',
    call: (client, o) => client.attackSurface.targets(o),
    show: asList,
  }),
  oneCall({
    path: ['eas', 'targets', 'add'],
    summary: 'Add an attack-surface target (a host name)',
    arg: 'host',
    call: (client, o, host) => client.attackSurface.addTarget(host, o),
    show: asRecord,
  }),
  update,
  oneCall({
    path: ['eas', 'targets', 'remove'],
    summary: 'Remove an attack-surface target',
    arg: 'id',
    call: (client, o, id) => client.attackSurface.removeTarget(id, o),
    show: done('removed', true, (id) => `Target ${id} removed`),
  }),
  oneCall({
    path: ['eas', 'targets', 'verify'],
    summary: 'Verify the ownership of an attack-surface target',
    arg: 'id',
    call: (client, o, id) => client.attackSurface.verifyTarget(id, o),
    show: asRecord,
  }),
  oneCall({
    path: ['eas', 'scan'],
    summary: 'Run an attack-surface scan',
    call: (client, o) => client.attackSurface.scan(o),
    show: asRecord,
  }),
];
