// The findings files a run wrote for people and tools (the CSV, the OCSF file) uploaded each as an
// artifact of its own, named after the file and unzipped (like the report: it opens from the run's
// page). Where artifacts are unavailable, or the job is cancelled, the file stays on disk and the
// summary says where.

import { basename } from 'node:path';
import type { JobResult } from '../pipeline/job/types.js';
import { uploadReport } from './artifact.js';
import * as log from './log.js';
import { unlessAborted } from './abortable.js';
import type { FileLink } from './summary.js';

type Env = Record<string, string | undefined>;

/** Each file written, uploaded in turn; what became of it, in the order CSV, OCSF. */
export async function uploadFindingsFiles(
  result: JobResult,
  retentionDays: number | undefined,
  env: Env,
  signal: AbortSignal,
): Promise<FileLink[]> {
  const files: Array<[FileLink['kind'], string | undefined]> = [
    ['CSV', result.csvPath],
    ['OCSF', result.ocsfPath],
  ];
  const links: FileLink[] = [];
  for (const [kind, path] of files) {
    if (path === undefined) continue;
    const name = basename(path);
    const outcome = await unlessAborted(
      () => uploadReport({ file: path, name, retentionDays }, env),
      signal,
    );
    if (!outcome) {
      links.push({ kind, name, path, note: 'the upload was stopped: the job was cancelled' });
    } else if (outcome.uploaded) {
      log.info(`${kind} file uploaded as artifact ${name}${outcome.url ? `: ${outcome.url}` : ''}`);
      links.push({ kind, name, path, url: outcome.url });
    } else {
      log.warning(`${kind} artifact upload skipped: ${outcome.reason}; the file stays at ${path}`);
      links.push({ kind, name, path, note: outcome.reason });
    }
  }
  return links;
}
