// Commands that are one client call: at most one positional argument in, the answer printed. Each
// is one row: its words, summary, argument, the call, and how the answer is shown.

import type { JsonObject, RequestOptions, TenantClient } from '../../client/index.js';
import type { CommandOutput, CommandSpec } from '../command.js';
import { anyRecord, anyTable } from '../render.js';

export interface OneCall<T> {
  path: string[];
  summary: string;
  /** The one positional argument, by its name in the help (e.g. 'id'); handed to `call`. */
  arg?: string;
  details?: string;
  call(client: TenantClient, options: RequestOptions, arg: string): Promise<T>;
  show(answer: T, arg: string): CommandOutput;
}

export function oneCall<T>(row: OneCall<T>): CommandSpec {
  const { path, summary, arg, details } = row;
  return {
    path,
    summary,
    ...(arg === undefined ? {} : { args: [arg] }),
    ...(details === undefined ? {} : { details }),
    async run(ctx, input) {
      const value = arg === undefined ? '' : (input.args[arg] ?? '');
      const answer = await row.call(ctx.client(), { signal: ctx.signal }, value);
      return row.show(answer, value);
    },
  };
}

/** A record of a shape the seed does not give: printed as sent. */
export function asRecord(answer: JsonObject): CommandOutput {
  return { json: answer, text: anyRecord(answer) };
}

/** A list of records of a shape the seed does not give: printed as sent. */
export function asList(answer: JsonObject[]): CommandOutput {
  return { json: answer, text: () => anyTable(answer) };
}

/** A call that answers nothing worth showing: the id, what became of it, and one sentence. */
export function done(
  field: string,
  value: boolean,
  sentence: (id: string) => string,
): (answer: unknown, id: string) => CommandOutput {
  return (_answer, id) => ({ json: { id, [field]: value }, text: `${sentence(id)}\n` });
}
