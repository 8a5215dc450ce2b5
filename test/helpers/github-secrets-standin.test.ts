// The stand-in's Actions secrets routes: public key per scope, PUT validated by GitHub's OpenAPI
// schema, the sealed value opened with the private key, the metadata a PUT updates.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sealSecret } from '../../src/github/rotate-key/secret-store.js';
import {
  createOpenApiValidator,
  startGitHubApiStandin,
  type GitHubApiStandin,
} from './github-api-standin.js';

const SUBSET = new URL('../fixtures/github-openapi-subset.json', import.meta.url);

describe('GitHub stand-in: Actions secrets', () => {
  let github: GitHubApiStandin;
  before(async () => {
    github = await startGitHubApiStandin({ secretWriters: ['app'] });
  });
  after(() => github.close());

  const send = (method: string, path: string, token: string, body?: unknown) =>
    fetch(`${github.url}${path}`, {
      method,
      headers: { authorization: `token ${token}`, 'user-agent': 'test' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  it('opens what it receives with the scope’s private key', async () => {
    const base = '/repos/o/r/environments/prod/secrets';
    const publicKey = (await (await send('GET', `${base}/public-key`, 'app')).json()) as {
      key_id: string;
      key: string;
    };
    const encrypted_value = await sealSecret('ak_live_secret', publicKey.key);
    const first = await send('PUT', `${base}/KEY`, 'app', {
      encrypted_value,
      key_id: publicKey.key_id,
    });
    assert.equal(first.status, 201);
    assert.equal(github.secrets.get('env:o/r/prod/KEY')?.value, 'ak_live_secret');
    const again = await send('PUT', `${base}/KEY`, 'app', {
      encrypted_value,
      key_id: publicKey.key_id,
    });
    assert.equal(again.status, 204);
    assert.equal(github.secrets.get('env:o/r/prod/KEY')?.writes, 2);
  });

  it('refuses what GitHub refuses: schema, stale key_id, foreign box, a token without the right', async () => {
    const base = '/repos/o/r/actions/secrets';
    const { key_id, key } = (await (await send('GET', `${base}/public-key`, 'app')).json()) as {
      key_id: string;
      key: string;
    };
    const otherScope = (await (
      await send('GET', '/orgs/o/actions/secrets/public-key', 'app')
    ).json()) as { key: string };
    const sealed = await sealSecret('v', key);
    assert.equal((await send('PUT', `${base}/A`, 'app', { encrypted_value: sealed })).status, 422);
    assert.equal(
      (await send('PUT', `${base}/A`, 'app', { encrypted_value: 'not base64!', key_id })).status,
      422,
    );
    assert.equal(
      (await send('PUT', `${base}/A`, 'app', { encrypted_value: sealed, key_id: '1' })).status,
      422,
    );
    const foreign = await sealSecret('v', otherScope.key);
    assert.equal(
      (await send('PUT', `${base}/A`, 'app', { encrypted_value: foreign, key_id })).status,
      422,
    );
    assert.equal((await send('GET', `${base}/public-key`, 'github-token')).status, 403);
    assert.equal(github.secrets.has('repo:o/r/A'), false);
  });

  it('serves a secret’s metadata on its clock: updated_at set by each PUT, its Date; 404 before', async () => {
    let clock = Date.parse('2026-03-01T10:00:00.600Z');
    const timed = await startGitHubApiStandin({ now: () => clock });
    const call = (method: string, path: string, body?: unknown) =>
      fetch(`${timed.url}${path}`, {
        method,
        headers: { authorization: 'token app', 'user-agent': 'test' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    const { operations } = JSON.parse(readFileSync(SUBSET, 'utf8')) as {
      operations: Record<string, { responseSchema: object }>;
    };
    const compile = createOpenApiValidator();
    try {
      for (const [base, operation] of [
        ['/repos/o/r/actions/secrets', 'actions/get-repo-secret'],
        ['/repos/o/r/environments/prod/secrets', 'actions/get-environment-secret'],
        ['/orgs/o/actions/secrets', 'actions/get-org-secret'],
      ] as const) {
        assert.equal((await call('GET', `${base}/KEY`)).status, 404);
        const { key_id, key } = (await (await call('GET', `${base}/public-key`)).json()) as {
          key_id: string;
          key: string;
        };
        const put = { encrypted_value: await sealSecret('v', key), key_id };
        await call('PUT', `${base}/KEY`, {
          ...put,
          ...(base.startsWith('/orgs') ? { visibility: 'private' } : {}),
        });
        clock += 90_000;
        const answer = await call('GET', `${base}/KEY`);
        assert.equal(answer.headers.get('date'), new Date(clock).toUTCString());
        const metadata = (await answer.json()) as Record<string, unknown>;
        const validate = compile(operations[operation]?.responseSchema ?? {});
        assert.ok(validate(metadata), `${operation}: ${JSON.stringify(validate.errors)}`);
        assert.equal(
          metadata.updated_at,
          new Date(clock - 90_000 - 600).toISOString().replace('.000Z', 'Z'),
        );
        assert.equal(metadata.value, undefined);
        clock -= 90_000;
      }
    } finally {
      await timed.close();
    }
  });
});
