// A GitHub Actions secret as the rotation's store: the scope's public key is read first (a token
// that cannot read it fails before any key is created), the value is sealed with libsodium's
// crypto_box_seal as GitHub's guide does, and written with one PUT through @actions/github's
// Octokit. An organization secret keeps its visibility and selected repositories. Its metadata
// tells when it was last written, so the next rotation knows which keys it never held.

import sodium from 'libsodium-wrappers';
import { StoreError, type KeyStore, type LastWrite } from '../../pipeline/rotation/store.js';

type Octokit = ReturnType<typeof import('@actions/github').getOctokit>;

export type SecretScope =
  | { kind: 'repository'; owner: string; repo: string }
  | { kind: 'environment'; owner: string; repo: string; environment: string }
  | { kind: 'organization'; org: string };

interface PublicKey {
  key_id: string;
  key: string;
}

interface OrgAccess {
  visibility: 'all' | 'private' | 'selected';
  selected_repository_ids?: number[];
}

/** The fine-grained permission each scope's secrets need (a GitHub App's is named the same). */
export function permissionFor(scope: SecretScope): string {
  if (scope.kind === 'organization') return `"Secrets: write" on the organization ${scope.org}`;
  const where = `${scope.owner}/${scope.repo}`;
  return scope.kind === 'environment'
    ? `"Environments: write" on ${where}`
    : `"Secrets: write" on ${where}`;
}

export function describeScope(scope: SecretScope, name: string): string {
  if (scope.kind === 'organization') return `organization secret ${name} of ${scope.org}`;
  const where = `${scope.owner}/${scope.repo}`;
  return scope.kind === 'environment'
    ? `environment secret ${name} of ${where} (${scope.environment})`
    : `repository secret ${name} of ${where}`;
}

/** The lineage of keys stored there: the next run finds its keys by it. */
export function lineageOf(scope: SecretScope, name: string): string {
  if (scope.kind === 'organization') return `github:org/${scope.org}/${name}`;
  const where = `github:${scope.owner}/${scope.repo}`;
  return scope.kind === 'environment'
    ? `${where}/env/${scope.environment}/${name}`
    : `${where}/${name}`;
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status > 0 ? status : undefined;
}

function reason(error: unknown): string {
  const status = statusOf(error);
  const message = error instanceof Error ? error.message : String(error);
  return `${status ? `HTTP ${status}: ` : ''}${message.replace(/\s+/g, ' ').trim().slice(0, 200)}`;
}

/** Seals `value` for the public key (base64) the way GitHub's secrets API expects it. */
export async function sealSecret(value: string, publicKey: string): Promise<string> {
  await sodium.ready;
  const recipient = sodium.from_base64(publicKey, sodium.base64_variants.ORIGINAL);
  const sealed = sodium.crypto_box_seal(sodium.from_string(value), recipient);
  return sodium.to_base64(sealed, sodium.base64_variants.ORIGINAL);
}

export class GitHubSecretStore implements KeyStore {
  readonly description: string;
  private publicKey?: PublicKey;
  private orgAccess?: OrgAccess;

  constructor(
    private readonly octokit: Octokit,
    private readonly scope: SecretScope,
    private readonly name: string,
  ) {
    this.description = describeScope(scope, name);
  }

  async prepare(signal?: AbortSignal): Promise<void> {
    try {
      this.publicKey = await this.readPublicKey(signal);
    } catch (error) {
      const status = statusOf(error);
      const denied = status === 401 || status === 403 || status === 404;
      throw new StoreError(
        denied
          ? `the github-token cannot read the public key of the ${this.description} (${reason(error)}): it needs ${permissionFor(this.scope)} — a GitHub App token or a fine-grained PAT; GITHUB_TOKEN cannot write secrets`
          : `the public key of the ${this.description} could not be read (${reason(error)})`,
      );
    }
    if (this.scope.kind === 'organization') this.orgAccess = await this.readOrgAccess(signal);
  }

  private async readPublicKey(signal?: AbortSignal): Promise<PublicKey> {
    const request = { request: { signal } };
    const { scope } = this;
    const answer =
      scope.kind === 'organization'
        ? await this.octokit.rest.actions.getOrgPublicKey({ org: scope.org, ...request })
        : scope.kind === 'environment'
          ? await this.octokit.rest.actions.getEnvironmentPublicKey({
              owner: scope.owner,
              repo: scope.repo,
              environment_name: scope.environment,
              ...request,
            })
          : await this.octokit.rest.actions.getRepoPublicKey({
              owner: scope.owner,
              repo: scope.repo,
              ...request,
            });
    const { key_id, key } = answer.data;
    if (typeof key_id !== 'string' || typeof key !== 'string' || key === '') {
      throw new Error('the answer has no key_id and key');
    }
    return { key_id, key };
  }

  /** The secret's updated_at, as an age on GitHub's clock: its answer's Date minus updated_at. A
   *  secret that does not exist (404), a refusal, or an answer without both fails (no early
   *  delete). */
  async lastWritten(signal?: AbortSignal): Promise<LastWrite> {
    let answer: { data: { updated_at?: unknown }; headers: { date?: string } };
    try {
      answer = await this.readMetadata(signal);
    } catch (error) {
      throw new StoreError(
        statusOf(error) === 404
          ? 'GitHub has no such secret (HTTP 404)'
          : `GitHub did not answer its metadata: ${reason(error)}`,
      );
    }
    const observedAtLocalMs = Date.now();
    const updatedMs = Date.parse(String(answer.data.updated_at));
    const dateMs = Date.parse(answer.headers.date ?? '');
    if (!Number.isFinite(updatedMs) || !Number.isFinite(dateMs)) {
      throw new StoreError('GitHub answered its metadata without an updated_at and a Date');
    }
    return { agoMs: dateMs - updatedMs, observedAtLocalMs };
  }

  private readMetadata(signal?: AbortSignal) {
    const base = { secret_name: this.name, request: { signal } };
    const { scope } = this;
    if (scope.kind === 'organization')
      return this.octokit.rest.actions.getOrgSecret({ org: scope.org, ...base });
    if (scope.kind === 'environment') {
      return this.octokit.rest.actions.getEnvironmentSecret({
        owner: scope.owner,
        repo: scope.repo,
        environment_name: scope.environment,
        ...base,
      });
    }
    return this.octokit.rest.actions.getRepoSecret({
      owner: scope.owner,
      repo: scope.repo,
      ...base,
    });
  }

  /** An existing organization secret's visibility and repositories, kept by the write; a new one
   *  is private (every private and internal repository of the organization). */
  private async readOrgAccess(signal?: AbortSignal): Promise<OrgAccess> {
    if (this.scope.kind !== 'organization') return { visibility: 'private' };
    const base = { org: this.scope.org, secret_name: this.name, request: { signal } };
    try {
      const { data } = await this.octokit.rest.actions.getOrgSecret(base);
      if (data.visibility !== 'selected') return { visibility: data.visibility };
      const repositories = await this.octokit.paginate(
        this.octokit.rest.actions.listSelectedReposForOrgSecret,
        { ...base, per_page: 100 },
      );
      return { visibility: 'selected', selected_repository_ids: repositories.map((r) => r.id) };
    } catch (error) {
      if (statusOf(error) === 404) return { visibility: 'private' };
      throw new StoreError(
        `the settings of the ${this.description} could not be read (${reason(error)}): it needs ${permissionFor(this.scope)}`,
      );
    }
  }

  async write(key: string, signal?: AbortSignal): Promise<void> {
    const publicKey = this.publicKey;
    if (!publicKey) throw new StoreError('the store was not prepared');
    const sealed = {
      encrypted_value: await sealSecret(key, publicKey.key),
      key_id: publicKey.key_id,
    };
    const request = { request: { signal } };
    const { scope } = this;
    try {
      if (scope.kind === 'organization') {
        await this.octokit.rest.actions.createOrUpdateOrgSecret({
          org: scope.org,
          secret_name: this.name,
          ...sealed,
          ...(this.orgAccess ?? { visibility: 'private' }),
          ...request,
        });
      } else if (scope.kind === 'environment') {
        await this.octokit.rest.actions.createOrUpdateEnvironmentSecret({
          owner: scope.owner,
          repo: scope.repo,
          environment_name: scope.environment,
          secret_name: this.name,
          ...sealed,
          ...request,
        });
      } else {
        await this.octokit.rest.actions.createOrUpdateRepoSecret({
          owner: scope.owner,
          repo: scope.repo,
          secret_name: this.name,
          ...sealed,
          ...request,
        });
      }
    } catch (error) {
      const status = statusOf(error);
      // A refusal (4xx) wrote nothing; a 5xx or a lost answer may have written the secret.
      const refused = status !== undefined && status < 500;
      throw new StoreError(`GitHub did not store the ${this.description} (${reason(error)})`, {
        mayHaveStored: !refused,
      });
    }
  }
}
