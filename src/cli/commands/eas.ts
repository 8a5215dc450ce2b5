// eas summary | history | targets list|add|update|remove|verify | scan (external attack surface)

import type { CommandSpec } from '../command.js';
import { UsageError } from '../errors.js';
import { anyRecord } from '../render.js';
import { readList, readRecord } from './read.js';

const add: CommandSpec = {
  path: ['eas', 'targets', 'add'],
  summary: 'Add an attack-surface target (a host name)',
  args: ['host'],
  async run(ctx, input) {
    const target = await ctx
      .client()
      .attackSurface.addTarget(input.args.host ?? '', { signal: ctx.signal });
    return { json: target, text: anyRecord(target) };
  },
};

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

const remove: CommandSpec = {
  path: ['eas', 'targets', 'remove'],
  summary: 'Remove an attack-surface target',
  args: ['id'],
  async run(ctx, input) {
    const id = input.args.id ?? '';
    await ctx.client().attackSurface.removeTarget(id, { signal: ctx.signal });
    return { json: { id, removed: true }, text: `Target ${id} removed\n` };
  },
};

const verify: CommandSpec = {
  path: ['eas', 'targets', 'verify'],
  summary: 'Verify the ownership of an attack-surface target',
  args: ['id'],
  async run(ctx, input) {
    const result = await ctx
      .client()
      .attackSurface.verifyTarget(input.args.id ?? '', { signal: ctx.signal });
    return { json: result, text: anyRecord(result) };
  },
};

export const EAS_COMMANDS: CommandSpec[] = [
  readRecord(['eas', 'summary'], 'Show the attack-surface overview', (ctx) =>
    ctx.client().attackSurface.summary({ signal: ctx.signal }),
  ),
  readList(['eas', 'history'], 'Show the attack-surface history', (ctx) =>
    ctx.client().attackSurface.history({ signal: ctx.signal }),
  ),
  readList(['eas', 'targets', 'list'], 'List the attack-surface targets', (ctx) =>
    ctx.client().attackSurface.targets({ signal: ctx.signal }),
  ),
  add,
  update,
  remove,
  verify,
  readRecord(['eas', 'scan'], 'Run an attack-surface scan', (ctx) =>
    ctx.client().attackSurface.scan({ signal: ctx.signal }),
  ),
];
