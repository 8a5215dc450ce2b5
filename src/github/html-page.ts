// The run's report page (html-file, docs/reports.md): written from the job's result, uploaded as
// an artifact of its own named after the file (unzipped: it opens in the browser), and linked from
// the job summary. Neither the page nor its upload is ever the verdict: a failure is a warning.
// The renderer loads only when a page is asked for.

import { basename } from 'node:path';
import { oneLine, type JobResult } from '../pipeline/index.js';
import { uploadReport } from './artifact.js';
import { unlessAborted } from './abortable.js';
import type { ActionInputs } from './inputs.js';
import * as log from './log.js';
import type { ReportLink } from './summary.js';

type Env = Record<string, string | undefined>;

export interface PublishedPage {
  /** Where the page was written (absolute). */
  path: string;
  /** What the summary says of it: its artifact, or why it stays on disk. */
  link: ReportLink;
  /** The upload was given up: the job was cancelled. */
  stopped?: true;
}

function message(error: unknown): string {
  return oneLine(error instanceof Error ? error.message : String(error));
}

/** Writes and uploads the page when html-file asks for one. */
export async function publishHtmlPage(
  result: JobResult,
  inputs: Pick<ActionInputs, 'htmlFile' | 'tenantLabel' | 'retentionDays'>,
  context: { env: Env; secrets: readonly string[]; signal: AbortSignal },
): Promise<PublishedPage | undefined> {
  if (inputs.htmlFile === undefined || result.verdict === undefined) return undefined;
  let path: string;
  try {
    const { runInputOf, writeRunPage } = await import('../render/html/write.js');
    path = await writeRunPage(inputs.htmlFile, runInputOf(result, inputs.tenantLabel), {
      secrets: context.secrets,
    });
  } catch (error) {
    log.warning(`Report page not written: ${message(error)}`);
    return undefined;
  }
  log.info(`Report page written to ${path}`);
  const name = basename(path);
  const outcome = await unlessAborted(
    () => uploadReport({ file: path, name, retentionDays: inputs.retentionDays }, context.env),
    context.signal,
  );
  if (!outcome) {
    const note = 'the upload was stopped: the job was cancelled';
    return { path, link: { name, path, note }, stopped: true };
  }
  if (!outcome.uploaded) {
    log.warning(`Report page upload skipped: ${outcome.reason}; the page stays at ${path}`);
    return { path, link: { name, path, note: outcome.reason } };
  }
  log.info(`Report page uploaded as artifact ${name}${outcome.url ? `: ${outcome.url}` : ''}`);
  return { path, link: { name, path, url: outcome.url } };
}
