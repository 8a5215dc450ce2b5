// Commands that read one record or one list of a shape the seed does not give: printed as sent.

import type { JsonObject } from '../../client/types.js';
import type { CommandContext, CommandSpec } from '../command.js';
import { anyRecord, anyTable } from '../render.js';

export function readRecord(
  path: string[],
  summary: string,
  fetch: (ctx: CommandContext) => Promise<JsonObject>,
): CommandSpec {
  return {
    path,
    summary,
    async run(ctx) {
      const data = await fetch(ctx);
      return { json: data, text: anyRecord(data) };
    },
  };
}

export function readList(
  path: string[],
  summary: string,
  fetch: (ctx: CommandContext) => Promise<JsonObject[]>,
): CommandSpec {
  return {
    path,
    summary,
    async run(ctx) {
      const data = await fetch(ctx);
      return { json: data, text: anyTable(data) };
    },
  };
}
