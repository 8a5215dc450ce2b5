// The Actions secrets routes of the GitHub REST stand-in (github-api-standin.ts): a key pair per
// scope (repository, environment, organization), the public key served as GitHub serves it, and
// every PUT opened with the private key, so a test knows exactly which value the secret holds; a
// secret's metadata (`updated_at`: when it was last written) as GitHub serves it, with its `Date`.
import sodium from 'libsodium-wrappers';
import { json, type HandlerResult } from './http-server.js';

export type SecretOperationId =
  | 'actions/get-repo-public-key'
  | 'actions/create-or-update-repo-secret'
  | 'actions/get-environment-public-key'
  | 'actions/create-or-update-environment-secret'
  | 'actions/get-repo-secret'
  | 'actions/get-environment-secret'
  | 'actions/get-org-public-key'
  | 'actions/create-or-update-org-secret'
  | 'actions/get-org-secret'
  | 'actions/list-selected-repos-for-org-secret';

export interface StoredSecret {
  /** The decrypted value. */
  value: string;
  created_at: string;
  updated_at: string;
  /** How many PUTs wrote it. */
  writes: number;
  visibility?: 'all' | 'private' | 'selected';
  selected_repository_ids?: number[];
}

type Params = Record<string, string>;
type Context = { body: Record<string, unknown>; params: Params; query: URLSearchParams };

interface KeyPair {
  keyId: string;
  publicKey: Uint8Array;
  privateKey: Uint8Array;
}

/** Where a secret lives: `repo:o/r/NAME`, `env:o/r/ENV/NAME`, `org:ORG/NAME`. */
export function secretPath(params: Params): string {
  if (params.org) return `org:${params.org}/${params.secret_name ?? ''}`;
  const repo = `${params.owner}/${params.repo}`;
  return params.environment_name
    ? `env:${repo}/${params.environment_name}/${params.secret_name ?? ''}`
    : `repo:${repo}/${params.secret_name ?? ''}`;
}

/** The scope part of a secret's path (the key pair is the scope's). */
function scopeOf(params: Params): string {
  return secretPath({ ...params, secret_name: '' });
}

function githubError(status: number, message: string): HandlerResult {
  return json(status, { message, documentation_url: 'https://docs.github.com/rest' });
}

/** GitHub's timestamps of a secret: whole seconds (`2020-01-10T14:59:22Z`). */
function githubTime(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

export async function createSecretsRoutes(now: () => number = Date.now, dateNow = now) {
  await sodium.ready;
  const secrets = new Map<string, StoredSecret>();
  const keyPairs = new Map<string, KeyPair>();
  let nextKeyId = 3380204578043523000;

  function keyPairOf(scope: string): KeyPair {
    let pair = keyPairs.get(scope);
    if (!pair) {
      const made = sodium.crypto_box_keypair();
      pair = { keyId: String(nextKeyId++), publicKey: made.publicKey, privateKey: made.privateKey };
      keyPairs.set(scope, pair);
    }
    return pair;
  }

  function publicKey({ params }: Context): HandlerResult {
    const pair = keyPairOf(scopeOf(params));
    return json(200, {
      key_id: pair.keyId,
      key: sodium.to_base64(pair.publicKey, sodium.base64_variants.ORIGINAL),
    });
  }

  function put({ body, params }: Context): HandlerResult {
    const pair = keyPairOf(scopeOf(params));
    if (body.key_id !== pair.keyId)
      return githubError(422, 'Bad request: key_id is not the current key');
    let value: string;
    try {
      const sealed = sodium.from_base64(
        String(body.encrypted_value),
        sodium.base64_variants.ORIGINAL,
      );
      value = sodium.to_string(
        sodium.crypto_box_seal_open(sealed, pair.publicKey, pair.privateKey),
      );
    } catch {
      return githubError(
        422,
        'Bad request: encrypted_value is not a sealed box for the public key',
      );
    }
    const path = secretPath(params);
    const writtenAt = githubTime(now());
    const old = secrets.get(path);
    const access =
      typeof body.visibility === 'string'
        ? {
            visibility: body.visibility as StoredSecret['visibility'],
            selected_repository_ids: Array.isArray(body.selected_repository_ids)
              ? body.selected_repository_ids.map(Number)
              : undefined,
          }
        : {};
    secrets.set(path, {
      created_at: old?.created_at ?? writtenAt,
      ...access,
      value,
      updated_at: writtenAt,
      writes: (old?.writes ?? 0) + 1,
    });
    return old ? { status: 204 } : json(201, {});
  }

  /** A secret's metadata (never its value); an organization secret's has its visibility too. */
  function metadata({ params }: Context): HandlerResult {
    const found = secrets.get(secretPath(params));
    if (!found) return githubError(404, 'Not Found');
    const times = {
      name: params.secret_name,
      created_at: found.created_at,
      updated_at: found.updated_at,
    };
    if (!params.org) return json(200, times);
    return json(200, {
      ...times,
      visibility: found.visibility ?? 'private',
      selected_repositories_url: `https://api.github.com/orgs/${params.org}/actions/secrets/${params.secret_name}/repositories`,
    });
  }

  function selectedRepos({ params, query }: Context): HandlerResult {
    const found = secrets.get(secretPath(params));
    if (!found) return githubError(404, 'Not Found');
    const ids = found.selected_repository_ids ?? [];
    const perPage = Math.min(Number(query.get('per_page') ?? 30) || 30, 100);
    const page = Math.max(Number(query.get('page') ?? 1) || 1, 1);
    const repositories = ids
      .slice((page - 1) * perPage, page * perPage)
      .map((id) => ({ id, name: `repo-${id}`, full_name: `${params.org}/repo-${id}` }));
    return json(200, { total_count: ids.length, repositories });
  }

  /** Every answer carries GitHub's Date (its clock, whole seconds), as GitHub's do. */
  const dated =
    (handler: (c: Context) => HandlerResult) =>
    (c: Context): HandlerResult => {
      const result = handler(c);
      return { ...result, headers: { ...result.headers, date: new Date(dateNow()).toUTCString() } };
    };
  const routes: Record<SecretOperationId, (c: Context) => HandlerResult> = {
    'actions/get-repo-public-key': publicKey,
    'actions/get-environment-public-key': publicKey,
    'actions/get-org-public-key': publicKey,
    'actions/create-or-update-repo-secret': put,
    'actions/create-or-update-environment-secret': put,
    'actions/create-or-update-org-secret': put,
    'actions/get-repo-secret': metadata,
    'actions/get-environment-secret': metadata,
    'actions/get-org-secret': metadata,
    'actions/list-selected-repos-for-org-secret': selectedRepos,
  };

  const handlers = Object.fromEntries(
    Object.entries(routes).map(([id, handler]) => [id, dated(handler)]),
  ) as Record<SecretOperationId, (c: Context) => HandlerResult>;

  return {
    handlers,
    secrets,
    /** A secret as if set earlier (in the web UI): its value and, for an organization, access. */
    seedSecret(path: string, secret: Omit<StoredSecret, 'created_at' | 'updated_at' | 'writes'>) {
      const at = githubTime(now());
      secrets.set(path, { ...secret, created_at: at, updated_at: at, writes: 0 });
    },
  };
}
