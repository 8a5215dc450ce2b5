// Uploads the downloaded report as an artifact, unzipped (skipArchive: a PDF opens in the browser).
// The artifact client is loaded only here, only when a report is uploaded: start-up time matters.
// Where artifacts are unavailable (GHES, no runtime token) it warns and the file stays on disk.

import { copyFile, link, mkdtemp, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';

type Env = Record<string, string | undefined>;

export interface UploadRequest {
  file: string;
  /** The artifact's name: with skipArchive it is the file's own name, so the file is named so. */
  name: string;
  retentionDays?: number;
}

export type UploadOutcome =
  { uploaded: true; id: number; url?: string } | { uploaded: false; reason: string };

export function artifactUrl(id: number, env: Env): string | undefined {
  const server = (env.GITHUB_SERVER_URL || 'https://github.com').replace(/\/+$/, '');
  if (!env.GITHUB_REPOSITORY || !env.GITHUB_RUN_ID) return undefined;
  return `${server}/${env.GITHUB_REPOSITORY}/actions/runs/${env.GITHUB_RUN_ID}/artifacts/${id}`;
}

/** The file to upload, under the artifact's name (a copy in a fresh temp dir when names differ). */
async function fileNamed(file: string, name: string, env: Env): Promise<string> {
  const source = resolve(file);
  if (basename(source) === name) return source;
  const dir = await mkdtemp(join(env.RUNNER_TEMP || tmpdir(), 'tenant-scan-artifact-'));
  const target = join(dir, name);
  // A hard link is instant and never half-written; across file systems, copy then rename.
  await link(source, target).catch(async () => {
    await copyFile(source, `${target}.part`);
    await rename(`${target}.part`, target);
  });
  return target;
}

function errorText(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/\s+/g, ' ').trim() || 'no details were given';
}

export async function uploadReport(
  request: UploadRequest,
  env: Env = process.env,
): Promise<UploadOutcome> {
  if (!env.ACTIONS_RUNTIME_TOKEN || !env.ACTIONS_RESULTS_URL) {
    return {
      uploaded: false,
      reason: 'artifacts are not available here (no ACTIONS_RUNTIME_TOKEN / ACTIONS_RESULTS_URL)',
    };
  }
  const artifact = await import('@actions/artifact');
  try {
    const path = await fileNamed(request.file, request.name, env);
    const client = new artifact.DefaultArtifactClient();
    const response = await client.uploadArtifact(request.name, [path], dirname(path), {
      skipArchive: true,
      ...(request.retentionDays !== undefined ? { retentionDays: request.retentionDays } : {}),
    });
    if (response.id === undefined)
      return { uploaded: false, reason: 'the artifact service returned no id' };
    return { uploaded: true, id: response.id, url: artifactUrl(response.id, env) };
  } catch (error) {
    if (
      error instanceof artifact.GHESNotSupportedError ||
      (error as Error)?.name === 'GHESNotSupportedError'
    ) {
      return {
        uploaded: false,
        reason: 'artifacts of this kind are not supported on GitHub Enterprise Server',
      };
    }
    return { uploaded: false, reason: `the upload failed: ${errorText(error)}` };
  }
}
