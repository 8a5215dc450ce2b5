// --junit and --sarif files of `scan results` (scan run has the pipeline write them).

import { CLIENT_VERSION } from '../client/index.js';
import { toJunitXml } from '../formats/junit.js';
import { toSarif } from '../formats/sarif.js';
import type { ResultsInput } from '../formats/types.js';
import { writeFileAtomic } from '../pipeline/index.js';
import type { CommandContext, ParsedInput } from './command.js';

export async function writeResultFiles(
  ctx: CommandContext,
  results: Omit<ResultsInput, 'toolVersion'>,
  input: ParsedInput,
): Promise<void> {
  const full: ResultsInput = { ...results, toolVersion: CLIENT_VERSION };
  if (typeof input.values.junit === 'string') {
    const path = await writeFileAtomic(input.values.junit, toJunitXml(full));
    ctx.note(`JUnit XML written to ${path}`);
  }
  if (typeof input.values.sarif === 'string') {
    const path = await writeFileAtomic(
      input.values.sarif,
      `${JSON.stringify(toSarif(full), null, 2)}\n`,
    );
    ctx.note(`SARIF written to ${path}`);
  }
}
