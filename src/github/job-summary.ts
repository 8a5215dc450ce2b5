// Writing the job summary (GITHUB_STEP_SUMMARY) through the toolkit: skipped with a debug line
// outside a runner, a warning (never a failure) when it cannot be written.

import * as core from '@actions/core';
import { oneLine } from '../pipeline/common/errors.js';
import * as log from './log.js';

export async function writeJobSummary(
  markdown: string,
  env: Record<string, string | undefined>,
): Promise<void> {
  if (!env.GITHUB_STEP_SUMMARY) {
    log.debug('No GITHUB_STEP_SUMMARY: job summary skipped');
    return;
  }
  try {
    await core.summary.addRaw(markdown).write();
  } catch (error) {
    log.warning(
      `Job summary skipped: ${oneLine(error instanceof Error ? error.message : String(error))}`,
    );
  }
}
