// --junit and --sarif files of `scan results` (scan run has the pipeline write them), through the
// pipeline's one writer.

import { CLIENT_VERSION } from '../client/index.js';
import type { ResultsInput } from '../pipeline/output/checks.js';
import { writeResultFiles as writeFiles } from '../pipeline/output/result-files.js';
import type { CommandContext, ParsedInput } from './command.js';

export async function writeResultFiles(
  ctx: CommandContext,
  results: Omit<ResultsInput, 'toolVersion'>,
  input: ParsedInput,
): Promise<void> {
  const full: ResultsInput = { ...results, toolVersion: CLIENT_VERSION };
  const junitPath = typeof input.values.junit === 'string' ? input.values.junit : undefined;
  const sarifPath = typeof input.values.sarif === 'string' ? input.values.sarif : undefined;
  const written = await writeFiles(full, { junitPath });
  if (written.junitPath) ctx.note(`JUnit XML written to ${written.junitPath}`);
  const sarif = await writeFiles(full, { sarifPath });
  if (sarif.sarifPath) ctx.note(`SARIF written to ${sarif.sarifPath}`);
}
