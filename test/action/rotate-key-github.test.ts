// The rotate-key sub-action's GitHub secret store in process, against the GitHub REST stand-in:
// every request has a deadline of its own and a retry budget, so a stalled read fails the step in
// seconds, not in the step's whole time; a write in the second of the one before is written again
// so that it shows as a new version (src/github/rotate-key/secret-store.ts).
import { strict as assert } from 'node:assert';
import { after, before, describe, it } from 'node:test';
import { createGitHubClient } from '../../src/github/github-client.js';
import { GitHubSecretStore, NO_SECRET } from '../../src/github/rotate-key/secret-store.js';
import { StoreError } from '../../src/pipeline/rotation/store.js';
import { startGitHubApiStandin, type GitHubApiStandin } from '../helpers/github-api-standin.js';

const TOKEN = 'ghs_app_token_that_may_write_secrets';
const DEADLINE_MS = 400;
const SCOPE = { kind: 'repository' as const, owner: 'octo-org', repo: 'scanned' };

describe('rotate-key: the GitHub secret as a store, bounded', () => {
  let github: GitHubApiStandin;
  let clock = Date.now();

  before(async () => {
    github = await startGitHubApiStandin({ secretWriters: [TOKEN], now: () => clock });
  });
  after(() => github.close());

  async function store(name: string): Promise<GitHubSecretStore> {
    const { octokit } = await createGitHubClient(TOKEN, {
      log: { info: () => undefined, warning: () => undefined },
      baseUrl: github.url,
      retryAfterBaseMs: 1,
      unpaced: true,
    });
    return new GitHubSecretStore(octokit, SCOPE, name, { requestDeadlineMs: DEADLINE_MS });
  }

  it('a public-key read that never answers fails within its deadline, saying so', async () => {
    github.failNext('actions/get-repo-public-key', {
      status: 200,
      delayMs: Number.POSITIVE_INFINITY,
    });
    const started = Date.now();
    await assert.rejects((await store('STALLED')).prepare(), (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(
        error.message,
        `the public key of the repository secret STALLED of octo-org/scanned could not be read (GitHub gave no answer within ${DEADLINE_MS} ms)`,
      );
      return true;
    });
    assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
  });

  it('a metadata read that never answers fails within its deadline: the version is not told', async () => {
    github.seedSecret('repo:octo-org/scanned/STALLED_META', { value: 'ak_live_x' });
    github.failNext('actions/get-repo-secret', { status: 200, delayMs: Number.POSITIVE_INFINITY });
    const started = Date.now();
    await assert.rejects((await store('STALLED_META')).version(), {
      message: `GitHub did not answer its metadata: GitHub gave no answer within ${DEADLINE_MS} ms`,
    });
    assert.ok(Date.now() - started < 3_000, `${Date.now() - started} ms`);
  });

  it('a read is retried three times (5xx), then fails; a secret GitHub does not have is version none', async () => {
    github.seedSecret('repo:octo-org/scanned/FLAKY', { value: 'ak_live_x' });
    const flaky = await store('FLAKY');
    github.failNext('actions/get-repo-secret', { status: 502, times: 3 });
    assert.match(await flaky.version(), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    github.failNext('actions/get-repo-secret', { status: 502, times: 4 });
    await assert.rejects(flaky.version(), /GitHub did not answer its metadata: HTTP 502/);
    assert.equal(await (await store('NEVER_WRITTEN')).version(), NO_SECRET);
  });

  it('a write in the same second as the write before it is written again, as a new version', async () => {
    clock = Date.parse('2026-06-01T10:00:00.100Z');
    github.seedSecret('repo:octo-org/scanned/FAST', { value: 'ak_live_old' });
    const fast = await store('FAST');
    await fast.prepare();
    const seen = await fast.version();
    const puts = () => github.requestsFor('actions/create-or-update-repo-secret').length;
    const before = puts();
    const writing = fast.write('ak_live_new');
    setTimeout(() => (clock += 1_000), 300); // GitHub's clock moves on meanwhile
    await writing;
    assert.equal(puts() - before, 2, 'written again');
    const secret = github.secrets.get('repo:octo-org/scanned/FAST');
    assert.equal(secret?.value, 'ak_live_new');
    assert.notEqual(secret?.updated_at, seen);
    assert.notEqual(await fast.version(), seen);
  });
});
