// The run's report page (html-file, docs/reports.md): written from the job's result, or from the
// error that ended the job (no verdict, the cause, what was known), uploaded as an artifact of its
// own named after the file (unzipped: it opens in the browser), and linked from the job summary.
// Neither the page nor its upload is ever the verdict: a failure is a warning.
// The renderer loads only when a page is asked for.

import { basename } from 'node:path';
import { JobError, oneLine, writeFailureWords, type JobResult } from '../pipeline/index.js';
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

type PageInputs = Pick<ActionInputs, 'htmlFile' | 'tenantLabel' | 'retentionDays'>;
type PageContext = { env: Env; secrets: readonly string[]; signal: AbortSignal };

/** Writes and uploads the page when html-file asks for one. */
export async function publishHtmlPage(
  result: JobResult,
  inputs: PageInputs,
  context: PageContext,
): Promise<PublishedPage | undefined> {
  if (result.verdict === undefined) return undefined;
  return publishPage(inputs, context, async (path) => {
    const { runInputOf, writeRunPage } = await import('../render/html/write.js');
    return writeRunPage(path, runInputOf(result, inputs.tenantLabel), {
      secrets: context.secrets,
    });
  });
}

/** The page of a run that ended in an error (`line`, as the log gives it), when html-file asks for
 *  one: no verdict, the cause, what was known. An error before the job (bad settings) has none. */
export async function publishErrorPage(
  line: string,
  error: unknown,
  inputs: PageInputs,
  context: PageContext,
): Promise<PublishedPage | undefined> {
  const known = error instanceof JobError ? error.known : undefined;
  if (known === undefined) return undefined;
  return publishPage(inputs, context, async (path) => {
    const { errorInputOf, writeRunPage } = await import('../render/html/write.js');
    return writeRunPage(path, errorInputOf(line, known, inputs.tenantLabel), {
      secrets: context.secrets,
    });
  });
}

async function publishPage(
  inputs: PageInputs,
  context: PageContext,
  write: (path: string) => Promise<string>,
): Promise<PublishedPage | undefined> {
  if (inputs.htmlFile === undefined) return undefined;
  let path: string;
  try {
    path = await write(inputs.htmlFile);
  } catch (error) {
    // in words, not the raw error (it names the temporary file beside the page)
    log.warning(
      `The report page ${inputs.htmlFile} could not be written: ${oneLine(writeFailureWords(error))}`,
    );
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
