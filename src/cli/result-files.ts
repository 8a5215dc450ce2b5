// --junit and --sarif files of `scan results` (scan run has the pipeline write them), through the
// pipeline's one writer, and the repository file SARIF results point at, for both.

import { CLIENT_VERSION } from '../client/index.js';
import {
  SettingProblem,
  quoteValue,
  writeFailureWords,
  type ExportPaths,
} from '../pipeline/index.js';
import type { ResultsInput } from '../pipeline/output/checks.js';
import {
  writeResultFiles as writeFiles,
  type ResultFilePaths,
} from '../pipeline/output/result-files.js';
import { resolve } from 'node:path';
import { stringOption, type CommandContext, type ParsedInput } from './command.js';
import { UsageError } from './errors.js';

/** Where results point when nothing says better: the Action's own fallback. */
const DEFAULT_SARIF_LOCATION = '.github/workflows';

/**
 * The file every SARIF result points at. GitHub code scanning rejects a result without a location
 * and a tenant scan has no source line, so, as the Action does, results point at the workflow that
 * ran the scan (GITHUB_WORKFLOW_REF, when the CLI runs in GitHub Actions); --sarif-location names
 * another repository file (e.g. .gitlab-ci.yml). A path outside the repository is a setting problem.
 */
export function sarifLocationOf(
  input: ParsedInput,
  env: Record<string, string | undefined>,
): string {
  const given = stringOption(input, 'sarif-location');
  if (given !== undefined) {
    const path = given.trim();
    if (
      path === '' ||
      path.startsWith('/') ||
      /^[a-z]+:/i.test(path) ||
      /(^|\/)\.\.(\/|$)/.test(path)
    ) {
      throw new SettingProblem(
        `--sarif-location must be a path inside the repository, relative to its root (e.g. .gitlab-ci.yml), got ${quoteValue(given)}`,
      );
    }
    return path;
  }
  const workflow = /^[^/]+\/[^/]+\/(.+?)@/.exec(env.GITHUB_WORKFLOW_REF ?? '')?.[1];
  return workflow ?? DEFAULT_SARIF_LOCATION;
}

/** --sarif-location alone would be silently ignored: a usage error names what is missing. */
export function checkSarifLocationUse(input: ParsedInput, command: string): void {
  if (input.values['sarif-location'] !== undefined && input.values.sarif === undefined) {
    throw new UsageError(
      '--sarif-location is where SARIF results point: give --sarif <file> too',
      command,
    );
  }
}

/** One line per CSV or OCSF file written (stderr). */
export function noteExports(ctx: CommandContext, written: ExportPaths): void {
  if (written.csvPath) ctx.note(`CSV written to ${written.csvPath}`);
  if (written.ocsfPath) ctx.note(`OCSF written to ${written.ocsfPath}`);
}

export async function writeResultFiles(
  ctx: CommandContext,
  results: Omit<ResultsInput, 'toolVersion'>,
  input: ParsedInput,
): Promise<void> {
  const full: ResultsInput = { ...results, toolVersion: CLIENT_VERSION };
  const junitPath = typeof input.values.junit === 'string' ? input.values.junit : undefined;
  const sarifPath = typeof input.values.sarif === 'string' ? input.values.sarif : undefined;
  const write = async (what: string, paths: ResultFilePaths, path: string | undefined) => {
    if (path === undefined) return;
    try {
      await writeFiles(full, paths);
      ctx.note(`${what} written to ${resolve(path)}`);
    } catch (error) {
      ctx.note(`warning: ${what} ${path} could not be written: ${writeFailureWords(error)}`);
    }
  };
  await write('JUnit XML', { junitPath }, junitPath);
  await write('SARIF', { sarifPath }, sarifPath);
}
