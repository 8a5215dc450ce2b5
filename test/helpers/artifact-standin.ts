// A stand-in of GitHub's artifact backend, enough for @actions/artifact 6.2.1 `uploadArtifact` and
// `deleteArtifact(name)`: Twirp JSON CreateArtifact / FinalizeArtifact / ListArtifacts /
// DeleteArtifact, and an Azure block-blob endpoint (stage block, commit block list) behind the
// signed upload URL it hands out; and the signed download address GitHub's REST download of an
// artifact redirects to (github-actions-runs-standin.ts), which answers with the stored bytes
// only to its signature, never asking for a token. It stores the uploaded bytes and
// records every request (with headers) so tests can assert what was uploaded and who was sent what.
import { createHash, randomBytes } from 'node:crypto';
import {
  json,
  jsonBody,
  startRecordingServer,
  type HandlerResult,
  type RecordedRequest,
} from './http-server.js';

export type { RecordedRequest } from './http-server.js';

const TWIRP_PREFIX = '/twirp/github.actions.results.api.v1.ArtifactService/';
const BLOB_PREFIX = '/artifactstandin/actions-results/';
const DOWNLOAD_PREFIX = '/artifactstandin/download/';
const FIRST_ARTIFACT_ID = 1001;

const TWIRP_METHODS = [
  'CreateArtifact',
  'FinalizeArtifact',
  'ListArtifacts',
  'DeleteArtifact',
] as const;
type TwirpMethod = (typeof TWIRP_METHODS)[number];

export type ArtifactOperation = TwirpMethod | 'StageBlock' | 'CommitBlockList' | 'Download';

/**
 * A failure to answer instead of the normal response. Twirp operations answer JSON
 * `{code, msg}` (the toolkit retries 5xx and 429 for ~30 s, so prefer 4xx in fast tests; a `msg`
 * containing "insufficient usage" makes it throw its quota error). Blob operations answer an
 * Azure-style XML error (the Azure SDK retries 5xx too).
 */
export interface InjectedFailure {
  status: number;
  /** Twirp error code; default derived from the status (400 → invalid_argument, …). */
  code?: string;
  msg?: string;
  /** How many consecutive calls fail (default 1). */
  times?: number;
}

export interface StoredArtifact {
  /** Set at finalize; 0 before. */
  id: number;
  /** The artifact name as sent in CreateArtifact (with skipArchive: the file's base name). */
  name: string;
  workflowRunBackendId: string;
  workflowJobRunBackendId: string;
  /** `mime_type` sent in CreateArtifact (e.g. `application/pdf`, `application/zip`). */
  mimeType: string | undefined;
  /** `x-ms-blob-content-type` sent with the block list commit. */
  blobContentType: string | undefined;
  /** `expires_at` sent in CreateArtifact (present when retentionDays was given). */
  expiresAt: string | undefined;
  version: number | undefined;
  /** When CreateArtifact was received (ISO 8601): ListArtifacts' `created_at`. */
  createdAt: string;
  /** The committed bytes. */
  content: Buffer;
  /** sha256 hex of `content`. */
  sha256: string;
  /** `size` and `hash` as declared by FinalizeArtifact. */
  declaredSize: number | undefined;
  declaredHash: string | undefined;
  /** `deleted` by DeleteArtifact: no longer listed, its name free again on the run. */
  state: 'created' | 'committed' | 'finalized' | 'deleted';
}

export interface ArtifactStandin {
  /** Origin to use as `ACTIONS_RESULTS_URL`. */
  url: string;
  /** Every request received, in order, with headers and body. */
  requests: RecordedRequest[];
  /** Every artifact created (see `state`), in creation order. */
  artifacts: StoredArtifact[];
  /** Finalized artifacts only (not deleted ones). */
  finalized(): StoredArtifact[];
  /** Makes the next call(s) of `operation` fail with `failure`. */
  failNext(operation: ArtifactOperation, failure: InjectedFailure): void;
  /** A signed address that serves a finalized artifact's bytes (for an hour), as the storage
   *  GitHub's REST download redirects to; undefined when there is no such artifact. */
  downloadUrl(artifactId: number): string | undefined;
  /** Env for the toolkit: `ACTIONS_RUNTIME_TOKEN` (unsigned JWT) and `ACTIONS_RESULTS_URL`. */
  runtimeEnv(ids?: Partial<BackendIds>): Record<string, string>;
  close(): Promise<void>;
}

export interface ArtifactStandinOptions {
  /** Id given to the first finalized artifact (default 1001), then +1. */
  firstArtifactId?: number;
}

export interface BackendIds {
  workflowRunBackendId: string;
  workflowJobRunBackendId: string;
}

export const DEFAULT_BACKEND_IDS: BackendIds = {
  workflowRunBackendId: 'c0ffee00-0000-4000-8000-000000000001',
  workflowJobRunBackendId: 'c0ffee00-0000-4000-8000-000000000002',
};

/** An unsigned JWT (`alg: none`) whose `scp` claim names the results-service backend ids. */
export function unsignedRuntimeToken(ids: BackendIds = DEFAULT_BACKEND_IDS): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const scp = `Actions.ExampleScope Actions.Results:${ids.workflowRunBackendId}:${ids.workflowJobRunBackendId}`;
  const now = Math.floor(Date.now() / 1000);
  return `${encode({ alg: 'none', typ: 'JWT' })}.${encode({ scp, iat: now, exp: now + 3600 })}.`;
}

/** The env @actions/artifact needs to talk to the backend at `resultsUrl`. */
export function artifactRuntimeEnv(
  resultsUrl: string,
  ids: Partial<BackendIds> = {},
): Record<string, string> {
  return {
    ACTIONS_RUNTIME_TOKEN: unsignedRuntimeToken({ ...DEFAULT_BACKEND_IDS, ...ids }),
    ACTIONS_RESULTS_URL: `${resultsUrl}/`,
  };
}

const TWIRP_CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_argument',
  401: 'unauthenticated',
  403: 'permission_denied',
  404: 'not_found',
  409: 'already_exists',
  412: 'failed_precondition',
  429: 'resource_exhausted',
  500: 'internal',
  503: 'unavailable',
};

function twirpError(status: number, msg: string, code?: string): HandlerResult {
  return json(status, { code: code ?? TWIRP_CODE_BY_STATUS[status] ?? 'unknown', msg });
}

function azureError(status: number, code: string, message: string): HandlerResult {
  return {
    status,
    headers: { 'content-type': 'application/xml', 'x-ms-error-code': code },
    body: `<?xml version="1.0" encoding="utf-8"?><Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  };
}

interface Upload {
  artifact: StoredArtifact;
  signature: string;
  stagedBlocks: Map<string, Buffer>;
}

/** Decodes the `scp` claim of a `Bearer <jwt>` header; undefined when absent or malformed. */
function scopeFromAuthorization(header: string | undefined): string | undefined {
  const token = /^Bearer (\S+)$/.exec(header ?? '')?.[1];
  const payload = token?.split('.')[1];
  if (!payload) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
      scp?: unknown;
    };
    return typeof claims.scp === 'string' ? claims.scp : undefined;
  } catch {
    return undefined;
  }
}

function readString(body: Record<string, unknown>, key: string): string | undefined {
  const value = body[key];
  return typeof value === 'string' ? value : undefined;
}

export async function startArtifactStandin(
  options: ArtifactStandinOptions = {},
): Promise<ArtifactStandin> {
  const requests: RecordedRequest[] = [];
  const artifacts: StoredArtifact[] = [];
  const uploads = new Map<string, Upload>();
  const failures = new Map<ArtifactOperation, InjectedFailure[]>();
  const downloads = new Map<
    string,
    { artifact: StoredArtifact; signature: string; until: number }
  >();
  let nextId = options.firstArtifactId ?? FIRST_ARTIFACT_ID;

  function takeFailure(operation: ArtifactOperation): InjectedFailure | undefined {
    const queue = failures.get(operation);
    const failure = queue?.[0];
    if (!queue || !failure) return undefined;
    failure.times = (failure.times ?? 1) - 1;
    if (failure.times <= 0) queue.shift();
    return failure;
  }

  /**
   * The token must cover the run and job named in the body. DeleteArtifact names the job that
   * uploaded the artifact (an earlier attempt's, on a re-run), so there the run is enough: GitHub
   * lets a re-run delete the artifacts of its run (upload-artifact's `overwrite` relies on it).
   */
  function authorize(
    method: TwirpMethod,
    request: RecordedRequest,
    body: Record<string, unknown>,
  ): string | undefined {
    const scope = scopeFromAuthorization(request.headers.authorization);
    if (!scope) return 'missing or malformed bearer runtime token';
    const run = `Actions.Results:${readString(body, 'workflow_run_backend_id')}:`;
    const expected = `${run}${readString(body, 'workflow_job_run_backend_id')}`;
    const scopes = scope.split(' ');
    const covered =
      method === 'DeleteArtifact'
        ? scopes.some((s) => s.startsWith(run))
        : scopes.includes(expected);
    return covered ? undefined : `token scope does not cover ${expected}`;
  }

  function findArtifact(body: Record<string, unknown>): StoredArtifact | undefined {
    return artifacts.find(
      (a) =>
        a.state !== 'deleted' &&
        a.name === body.name &&
        a.workflowRunBackendId === body.workflow_run_backend_id &&
        a.workflowJobRunBackendId === body.workflow_job_run_backend_id,
    );
  }

  function createArtifact(body: Record<string, unknown>): HandlerResult {
    const name = readString(body, 'name');
    if (!name) return twirpError(400, 'name is required');
    const existing = artifacts.find(
      (a) =>
        a.state !== 'deleted' &&
        a.name === name &&
        a.workflowRunBackendId === body.workflow_run_backend_id,
    );
    if (existing) {
      return twirpError(
        409,
        'Conflict: an artifact with this name already exists on the workflow run',
      );
    }
    const artifact: StoredArtifact = {
      id: 0,
      name,
      workflowRunBackendId: readString(body, 'workflow_run_backend_id') ?? '',
      workflowJobRunBackendId: readString(body, 'workflow_job_run_backend_id') ?? '',
      mimeType: readString(body, 'mime_type'),
      blobContentType: undefined,
      expiresAt: readString(body, 'expires_at'),
      version: typeof body.version === 'number' ? body.version : undefined,
      createdAt: new Date().toISOString(),
      content: Buffer.alloc(0),
      sha256: createHash('sha256').digest('hex'),
      declaredSize: undefined,
      declaredHash: undefined,
      state: 'created',
    };
    artifacts.push(artifact);
    const key = randomBytes(8).toString('hex');
    const signature = randomBytes(16).toString('base64url');
    uploads.set(key, { artifact, signature, stagedBlocks: new Map() });
    const expiry = new Date(Date.now() + 3600_000).toISOString();
    const signedUploadUrl = `${server.url}${BLOB_PREFIX}${key}/${encodeURIComponent(name)}?sv=2023-01-03&se=${encodeURIComponent(expiry)}&sr=b&sp=cw&sig=${encodeURIComponent(signature)}`;
    return json(200, { ok: true, signed_upload_url: signedUploadUrl });
  }

  function finalizeArtifact(body: Record<string, unknown>): HandlerResult {
    const artifact = findArtifact(body);
    if (!artifact) return twirpError(404, 'artifact not found');
    if (artifact.state !== 'committed') {
      return twirpError(412, `artifact is ${artifact.state}, not committed`);
    }
    const size = Number(body.size ?? '0');
    const hash = readString(body, 'hash');
    if (size !== artifact.content.length) {
      return twirpError(
        400,
        `size ${size} does not match uploaded ${artifact.content.length} bytes`,
      );
    }
    if (hash !== undefined && hash !== `sha256:${artifact.sha256}`) {
      return twirpError(400, `hash ${hash} does not match uploaded content`);
    }
    artifact.declaredSize = size;
    artifact.declaredHash = hash;
    artifact.id = nextId++;
    artifact.state = 'finalized';
    return json(200, { ok: true, artifact_id: String(artifact.id) });
  }

  /** The run's finalized artifacts (every job's), filtered by `name_filter` / `id_filter`. */
  function listArtifacts(body: Record<string, unknown>): HandlerResult {
    const name = readString(body, 'name_filter');
    const id = readString(body, 'id_filter');
    const listed = artifacts.filter(
      (a) =>
        a.state === 'finalized' &&
        a.workflowRunBackendId === body.workflow_run_backend_id &&
        (name === undefined || a.name === name) &&
        (id === undefined || String(a.id) === id),
    );
    return json(200, {
      artifacts: listed.map((a) => ({
        workflow_run_backend_id: a.workflowRunBackendId,
        workflow_job_run_backend_id: a.workflowJobRunBackendId,
        database_id: String(a.id),
        name: a.name,
        size: String(a.content.length),
        created_at: a.createdAt,
        digest: `sha256:${a.sha256}`,
      })),
    });
  }

  function deleteArtifact(body: Record<string, unknown>): HandlerResult {
    const artifact = findArtifact(body);
    if (!artifact || artifact.state !== 'finalized') return twirpError(404, 'artifact not found');
    artifact.state = 'deleted';
    return json(200, { ok: true, artifact_id: String(artifact.id) });
  }

  const handlers: Record<TwirpMethod, (body: Record<string, unknown>) => HandlerResult> = {
    CreateArtifact: createArtifact,
    FinalizeArtifact: finalizeArtifact,
    ListArtifacts: listArtifacts,
    DeleteArtifact: deleteArtifact,
  };

  function handleTwirp(request: RecordedRequest): HandlerResult {
    const path = request.path.slice(TWIRP_PREFIX.length);
    if (request.method !== 'POST') return twirpError(404, 'Twirp methods are POST', 'bad_route');
    const method = TWIRP_METHODS.find((m) => m === path);
    if (!method) return twirpError(404, `no handler for ${path}`, 'bad_route');
    let body: Record<string, unknown>;
    try {
      body = (jsonBody(request) ?? {}) as Record<string, unknown>;
    } catch {
      return twirpError(400, 'body is not JSON', 'malformed');
    }
    const denied = authorize(method, request, body);
    if (denied) return twirpError(401, denied);
    const failure = takeFailure(method);
    if (failure) return twirpError(failure.status, failure.msg ?? 'injected failure', failure.code);
    return handlers[method](body);
  }

  function stageBlock(upload: Upload, query: URLSearchParams, request: RecordedRequest) {
    const blockId = query.get('blockid');
    if (!blockId) return azureError(400, 'InvalidQueryParameterValue', 'blockid is required');
    upload.stagedBlocks.set(blockId, request.body);
    return {
      status: 201,
      headers: { 'x-ms-request-complete': 'true', 'x-ms-version': '2023-01-03' },
    };
  }

  function commitBlockList(upload: Upload, request: RecordedRequest) {
    const xml = request.body.toString('utf8');
    const ids = [...xml.matchAll(/<(Latest|Committed|Uncommitted)>([^<]*)<\/\1>/g)].map(
      (m) => m[2] ?? '',
    );
    const missing = ids.find((id) => !upload.stagedBlocks.has(id));
    if (missing !== undefined)
      return azureError(400, 'InvalidBlockList', `block ${missing} not staged`);
    const content = Buffer.concat(ids.map((id) => upload.stagedBlocks.get(id) as Buffer));
    const artifact = upload.artifact;
    artifact.content = content;
    artifact.sha256 = createHash('sha256').update(content).digest('hex');
    const contentType = request.headers['x-ms-blob-content-type'];
    artifact.blobContentType = typeof contentType === 'string' ? contentType : undefined;
    artifact.state = 'committed';
    return {
      status: 201,
      headers: {
        etag: `"0x${randomBytes(8).toString('hex').toUpperCase()}"`,
        'last-modified': new Date().toUTCString(),
        'x-ms-request-server-encrypted': 'true',
        'x-ms-version': '2023-01-03',
      },
    };
  }

  function handleBlob(request: RecordedRequest): HandlerResult {
    const query = new URL(request.url, server.url).searchParams;
    const key = request.path.slice(BLOB_PREFIX.length).split('/')[0] ?? '';
    const upload = uploads.get(key);
    if (!upload || query.get('sig') !== upload.signature) {
      return azureError(403, 'AuthenticationFailed', 'signature did not match');
    }
    if (request.method !== 'PUT') return azureError(405, 'UnsupportedHttpVerb', 'only PUT');
    const comp = query.get('comp');
    const operation: ArtifactOperation | undefined =
      comp === 'block' ? 'StageBlock' : comp === 'blocklist' ? 'CommitBlockList' : undefined;
    if (!operation) return azureError(400, 'UnsupportedQueryParameter', `comp=${comp}`);
    const failure = takeFailure(operation);
    if (failure) {
      return azureError(
        failure.status,
        failure.code ?? 'InjectedFailure',
        failure.msg ?? 'injected',
      );
    }
    return operation === 'StageBlock'
      ? stageBlock(upload, query, request)
      : commitBlockList(upload, request);
  }

  function downloadUrl(artifactId: number): string | undefined {
    const artifact = artifacts.find((a) => a.state === 'finalized' && a.id === artifactId);
    if (!artifact) return undefined;
    const key = randomBytes(8).toString('hex');
    const signature = randomBytes(16).toString('base64url');
    downloads.set(key, { artifact, signature, until: Date.now() + 3600_000 });
    return `${server.url}${DOWNLOAD_PREFIX}${key}/${encodeURIComponent(artifact.name)}?sv=2023-01-03&sr=b&sp=r&sig=${encodeURIComponent(signature)}`;
  }

  /** GET of a signed download address: the bytes, typed as uploaded, only to the signature. */
  function handleDownload(request: RecordedRequest): HandlerResult {
    const query = new URL(request.url, server.url).searchParams;
    const key = request.path.slice(DOWNLOAD_PREFIX.length).split('/')[0] ?? '';
    const download = downloads.get(key);
    if (!download || query.get('sig') !== download.signature || Date.now() > download.until) {
      return azureError(403, 'AuthenticationFailed', 'signature did not match');
    }
    if (request.method !== 'GET') return azureError(405, 'UnsupportedHttpVerb', 'only GET');
    const failure = takeFailure('Download');
    if (failure) {
      return azureError(
        failure.status,
        failure.code ?? 'InjectedFailure',
        failure.msg ?? 'injected',
      );
    }
    const { artifact } = download;
    return {
      status: 200,
      headers: {
        'content-type': artifact.blobContentType ?? artifact.mimeType ?? 'application/octet-stream',
        'content-length': String(artifact.content.length),
        'content-disposition': `attachment; filename="${artifact.name}"; filename*=UTF-8''${encodeURIComponent(artifact.name)}`,
        'x-ms-version': '2023-01-03',
      },
      body: artifact.content,
    };
  }

  const server = await startRecordingServer(requests, (request) => {
    if (request.path.startsWith(TWIRP_PREFIX)) return handleTwirp(request);
    if (request.path.startsWith(BLOB_PREFIX)) return handleBlob(request);
    if (request.path.startsWith(DOWNLOAD_PREFIX)) return handleDownload(request);
    return twirpError(404, `no route for ${request.method} ${request.path}`, 'bad_route');
  });

  return {
    url: server.url,
    requests,
    artifacts,
    finalized: () => artifacts.filter((a) => a.state === 'finalized'),
    failNext(operation, failure) {
      const queue = failures.get(operation) ?? [];
      queue.push({ ...failure });
      failures.set(operation, queue);
    },
    downloadUrl,
    runtimeEnv: (ids) => artifactRuntimeEnv(server.url, ids),
    close: () => server.close(),
  };
}
