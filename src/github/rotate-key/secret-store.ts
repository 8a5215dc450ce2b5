// A GitHub Actions secret as the rotation's store: the scope's public key is read first (a token
// that cannot read it fails before any key is created), the value is sealed with libsodium's
// crypto_box_seal as GitHub's guide does, and written with one PUT through @actions/github's
// Octokit. An organization secret keeps its visibility and selected repositories. Its metadata
// tells when it was last written (updated_at, its version), so the next rotation knows which keys
// it never held. Every request has a deadline of its own, its retries included.

import sodium from 'libsodium-wrappers';
import { StoreError, type KeyStore } from '../../pipeline/rotation/store.js';

/** How long one request to GitHub may take, its retries included: a stalled read fails the step
 *  in this long, not in the step's whole time. */
export const GITHUB_REQUEST_DEADLINE_MS = 30_000;
/** The version of a secret GitHub does not have: every key is made after its last write. */
export const NO_SECRET = 'none';
const SECOND_MS = 1000;

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
  // a deadline of ours (octokit calls it a 500)
  if (error instanceof Error && error.name === 'AbortError') return error.message;
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

/** `outer`, and a deadline of `ms` that aborts as an AbortError: octokit's retries give up on it at
 *  once (a TimeoutError is retried after a backoff, each try failing at once). */
function withDeadline(ms: number, outer?: AbortSignal): { signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => {
    const seconds = ms % SECOND_MS === 0 ? `${ms / SECOND_MS} s` : `${ms} ms`;
    controller.abort(new DOMException(`GitHub gave no answer within ${seconds}`, 'AbortError'));
  }, ms);
  const signal = outer ? AbortSignal.any([controller.signal, outer]) : controller.signal;
  return { signal, done: () => clearTimeout(timer) };
}

export interface SecretStoreOptions {
  /** Tests only: a shorter GITHUB_REQUEST_DEADLINE_MS. */
  requestDeadlineMs?: number;
}

export class GitHubSecretStore implements KeyStore {
  readonly description: string;
  readonly writeProves = true;
  private publicKey?: PublicKey;
  private orgAccess?: OrgAccess;
  /** The version read before the create (version()). */
  private versionSeen?: string;

  constructor(
    private readonly octokit: Octokit,
    private readonly scope: SecretScope,
    private readonly name: string,
    private readonly options: SecretStoreOptions = {},
  ) {
    this.description = describeScope(scope, name);
  }

  /** One request within its deadline (and `signal`). */
  private async timed<T>(
    call: (signal: AbortSignal) => Promise<T>,
    signal?: AbortSignal,
  ): Promise<T> {
    const deadline = withDeadline(
      this.options.requestDeadlineMs ?? GITHUB_REQUEST_DEADLINE_MS,
      signal,
    );
    try {
      return await call(deadline.signal);
    } finally {
      deadline.done();
    }
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

  private readPublicKey(outer?: AbortSignal): Promise<PublicKey> {
    return this.timed((signal) => this.readPublicKeyWithin(signal), outer);
  }

  private async readPublicKeyWithin(signal: AbortSignal): Promise<PublicKey> {
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

  /** The secret's updated_at (GitHub's whole seconds), its version; NO_SECRET when GitHub does not
   *  have it (404). A refusal, or an answer without it, fails: nothing is told then. */
  async version(signal?: AbortSignal): Promise<string> {
    const version = await this.readVersion(signal);
    this.versionSeen = version;
    return version;
  }

  private async readVersion(signal?: AbortSignal): Promise<string> {
    let answer: { data: { updated_at?: unknown } };
    try {
      answer = await this.timed((within) => this.readMetadata(within), signal);
    } catch (error) {
      if (statusOf(error) === 404 && !(error instanceof Error && error.name === 'AbortError'))
        return NO_SECRET;
      throw new StoreError(`GitHub did not answer its metadata: ${reason(error)}`);
    }
    const updated = answer.data.updated_at;
    if (
      typeof updated !== 'string' ||
      !Number.isFinite(Date.parse(updated)) ||
      !/^\S{1,40}$/.test(updated)
    )
      throw new StoreError('GitHub answered its metadata without an updated_at');
    return updated;
  }

  private readMetadata(signal: AbortSignal) {
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
  private async readOrgAccess(outer?: AbortSignal): Promise<OrgAccess> {
    if (this.scope.kind !== 'organization') return { visibility: 'private' };
    const { org } = this.scope;
    try {
      const { data } = await this.timed(
        (signal) =>
          this.octokit.rest.actions.getOrgSecret({
            org,
            secret_name: this.name,
            request: { signal },
          }),
        outer,
      );
      if (data.visibility !== 'selected') return { visibility: data.visibility };
      const repositories = await this.timed(
        (signal) =>
          this.octokit.paginate(this.octokit.rest.actions.listSelectedReposForOrgSecret, {
            org,
            secret_name: this.name,
            per_page: 100,
            request: { signal },
          }),
        outer,
      );
      return { visibility: 'selected', selected_repository_ids: repositories.map((r) => r.id) };
    } catch (error) {
      if (statusOf(error) === 404) return { visibility: 'private' };
      throw new StoreError(
        `the settings of the ${this.description} could not be read (${reason(error)}): it needs ${permissionFor(this.scope)}`,
      );
    }
  }

  /** Writes the key, and makes sure the write shows as a new version: GitHub's updated_at is whole
   *  seconds, so a write in the second of the one before would look like no write at all (the
   *  next run would take the key for one never stored). */
  async write(key: string, signal?: AbortSignal): Promise<void> {
    await this.put(key, signal);
    if (this.versionSeen === undefined || this.versionSeen === NO_SECRET) return;
    const after = await this.readVersion(signal).catch(() => undefined);
    if (after !== this.versionSeen) return;
    await new Promise((resolve) => setTimeout(resolve, SECOND_MS + 100));
    // the first write took: whatever this one does, the secret may hold the new key
    await this.put(key, signal).catch((error: unknown) => {
      throw new StoreError(error instanceof Error ? error.message : String(error), {
        mayHaveStored: true,
      });
    });
  }

  private put(key: string, outer?: AbortSignal): Promise<void> {
    return this.timed((signal) => this.putWithin(key, signal), outer);
  }

  private async putWithin(key: string, signal: AbortSignal): Promise<void> {
    const publicKey = this.publicKey;
    if (!publicKey) throw new StoreError('the store was not prepared');
    const sealed = {
      encrypted_value: await sealSecret(key, publicKey.key),
      key_id: publicKey.key_id,
    };
    // not sent again: a lost answer keeps both keys, and the next run tells what the secret holds
    const request = { request: { signal, retries: 0 } };
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
