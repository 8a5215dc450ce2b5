// Uploads the downloaded report as an artifact, unzipped (skipArchive: a PDF opens in the browser).
// The artifact client is loaded only here, only when a report is uploaded: start-up time matters.
// Where artifacts are unavailable (GHES, no runtime token) it warns and the file stays on disk.
// A re-run of the job (GITHUB_RUN_ATTEMPT > 1) first deletes the artifact of the same name that an
// earlier attempt left on this workflow run: the backend allows one artifact per name and run.
// A first attempt never deletes: there, a taken name is another upload's of this run.

import { copyFile, link, mkdtemp, rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { ArtifactClient } from '@actions/artifact';
import * as log from './log.js';

type Env = Record<string, string | undefined>;

/** What deleting the earlier attempt's artifact came to (before this attempt's upload). */
type Replacement =
  { kind: 'none' } | { kind: 'deleted'; id: number } | { kind: 'failed'; reason: string };

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

/** By name as well as class: the toolkit's error classes may exist twice in a bundle. */
function isToolkitError(error: unknown, name: string): boolean {
  return (error as Error | undefined)?.name === name;
}

function isRerun(env: Env): boolean {
  return Number(env.GITHUB_RUN_ATTEMPT) > 1;
}

/** On a re-run, deletes the run's artifact of this name (an earlier attempt's), if there is one. */
async function deleteEarlierAttempt(
  client: ArtifactClient,
  name: string,
  env: Env,
): Promise<Replacement> {
  if (!isRerun(env)) return { kind: 'none' };
  try {
    const { id } = await client.deleteArtifact(name);
    return { kind: 'deleted', id };
  } catch (error) {
    if (isToolkitError(error, 'ArtifactNotFoundError')) return { kind: 'none' };
    if (isToolkitError(error, 'GHESNotSupportedError')) throw error;
    log.debug(`Could not delete an earlier attempt's artifact ${name}: ${errorText(error)}`);
    return { kind: 'failed', reason: errorText(error) };
  }
}

function uploadFailure(error: unknown, replacement: Replacement): string {
  const base = `the upload failed: ${errorText(error)}`;
  if (replacement.kind === 'deleted')
    return `${base} (the earlier attempt's artifact of this name was deleted)`;
  if (replacement.kind === 'failed')
    return `${base} (deleting the earlier attempt's artifact of this name failed: ${replacement.reason})`;
  return base;
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
  let replacement: Replacement = { kind: 'none' };
  try {
    const path = await fileNamed(request.file, request.name, env);
    const client = new artifact.DefaultArtifactClient();
    replacement = await deleteEarlierAttempt(client, request.name, env);
    const response = await client.uploadArtifact(request.name, [path], dirname(path), {
      skipArchive: true,
      ...(request.retentionDays !== undefined ? { retentionDays: request.retentionDays } : {}),
    });
    if (response.id === undefined)
      return { uploaded: false, reason: 'the artifact service returned no id' };
    if (replacement.kind === 'deleted') {
      log.info(
        `Replaced the artifact ${request.name} of an earlier attempt of this run (id ${replacement.id}) with this attempt's (id ${response.id})`,
      );
    }
    return { uploaded: true, id: response.id, url: artifactUrl(response.id, env) };
  } catch (error) {
    if (
      error instanceof artifact.GHESNotSupportedError ||
      isToolkitError(error, 'GHESNotSupportedError')
    ) {
      return {
        uploaded: false,
        reason: 'artifacts of this kind are not supported on GitHub Enterprise Server',
      };
    }
    return { uploaded: false, reason: uploadFailure(error, replacement) };
  }
}
