// The rotate-key sub-action (dist/rotate-key) run like the runner runs it, against the emulator and
// the GitHub REST stand-in, which decrypts every secret it receives: the secret always holds an
// active key of the same tenant, and the new key is in no log, output, summary or file.
import { strict as assert } from 'node:assert';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from '../emulator/emulator.js';
import { call } from '../emulator/test-http.js';
import type { Emulator } from '../emulator/types.js';
import { startGitHubApiStandin, type GitHubApiStandin } from '../helpers/github-api-standin.js';
import {
  ENTRY_SCRIPTS,
  removeJobDirectory,
  runActionStep,
  type StepResult,
} from '../helpers/runner.js';
import {
  findSecretInDirectory,
  findSecretInRequests,
  findSecretInTexts,
} from '../helpers/secret-scan.js';
import { errorLines, visibleLog } from './world.js';

const APP_TOKEN = 'ghs_app_token_that_may_write_secrets';
const REPOSITORY = 'octo-org/scanned';
const HOUR = 3_600_000;
const MINUTE = 60_000;

describe('rotate-key sub-action', () => {
  let emu: Emulator;
  let github: GitHubApiStandin;
  let githubBehindMs = 2 * HOUR;
  /** How far GitHub's Date header runs ahead of the clock that stamps a secret's updated_at. */
  let githubDateAheadMs = 0;

  before(async () => {
    assert.ok(existsSync(ENTRY_SCRIPTS['rotate-key']), 'run `npm run build` first');
    emu = await startEmulator({ seed: 353535 });
    // GitHub's clock runs behind the service's: the rotation compares ages, each read on one
    // clock, so a key stored at once never looks newer than the secret's updated_at
    const githubNow = () => (emu.now?.() ?? Date.now()) - githubBehindMs;
    github = await startGitHubApiStandin({
      secretWriters: [APP_TOKEN],
      now: githubNow,
      dateNow: () => githubNow() + githubDateAheadMs,
    });
  });
  after(async () => {
    await emu.close();
    await github.close();
  });

  async function keyIds(key: string): Promise<string[] | undefined> {
    const reply = await call(emu, 'GET', '/tenants/me/api-keys', { key });
    if (reply.status !== 200) return undefined;
    return (reply.body.data as Array<{ id: string }>).map((k) => k.id).sort();
  }

  async function rotate(
    apiKey: string,
    inputs: Record<string, string> = {},
    token = APP_TOKEN,
    killAt?: RegExp,
  ): Promise<StepResult> {
    const step = await runActionStep({
      ...(killAt ? { cancel: { after: killAt, mode: 'kill' as const } } : {}),
      entry: 'rotate-key',
      // a private build while developing (e.g. a deliberately weakened one), like TENANT_SCAN_CLI
      script: process.env.TENANT_SCAN_ROTATE_KEY,
      inputs: {
        'api-key': apiKey,
        'github-token': token,
        'secret-name': 'TENANT_API_KEY',
        ...inputs,
      },
      env: { SERVICE_API_URL: emu.url },
      apiUrl: github.url,
      repository: REPOSITORY,
      timeoutMs: 30_000,
    });
    return step;
  }

  async function assertNowhere(key: string, step: StepResult): Promise<void> {
    const texts = {
      stdout: visibleLog(step),
      summary: step.summary,
      outputs: JSON.stringify(step.outputs),
    };
    assert.deepEqual(findSecretInTexts(key, texts), []);
    assert.deepEqual(await findSecretInDirectory(key, step.job.root), []);
    assert.deepEqual(findSecretInRequests(key, github.requests, 'github'), []);
  }

  it('writes a sealed new key of the same tenant to the repository secret, masked at once', async () => {
    const { apiKey } = emu.addTenant({ name: 'Rotating' });
    const before = await keyIds(apiKey);
    const step = await rotate(apiKey);
    assert.equal(step.exitCode, 0, visibleLog(step));
    const stored = github.secrets.get(`repo:${REPOSITORY}/TENANT_API_KEY`)?.value ?? '';
    assert.match(stored, /^ak_live_/);
    assert.notEqual(stored, apiKey);
    const after = await keyIds(stored);
    assert.ok(after?.includes(step.outputs['key-id'] ?? ''), 'an active key of the same tenant');
    assert.deepEqual(await keyIds(apiKey), after, 'the old key works during the grace');
    assert.equal(after?.length, (before?.length ?? 0) + 1);
    assert.equal(step.outputs['key-prefix'], `${stored.slice(0, 12)}...${stored.slice(-4)}`);
    assert.equal(step.outputs.revoked, '0');
    assert.ok(step.masks.includes(stored), 'masked');
    const addMask = step.stdout.indexOf(`::add-mask::${stored}`);
    assert.ok(
      addMask >= 0 && addMask < step.stdout.indexOf('Created key'),
      'masked before any line',
    );
    await assertNowhere(stored, step);
    await removeJobDirectory(step.job);
  });

  it('GITHUB_TOKEN (403 on the public key) creates nothing and names the permission', async () => {
    const { apiKey } = emu.addTenant({ name: 'Rotating' });
    const before = await keyIds(apiKey);
    const step = await rotate(apiKey, {}, 'ghs_the_jobs_github_token');
    assert.equal(step.exitCode, 1);
    const [line] = errorLines(step);
    assert.match(
      line ?? '',
      /^Rotation failed at prepare the store: the github-token cannot read the public key of the repository secret TENANT_API_KEY of octo-org\/scanned \(HTTP 403/,
    );
    assert.match(
      line ?? '',
      /"Secrets: write" on octo-org\/scanned .* GITHUB_TOKEN cannot write secrets; nothing changed$/,
    );
    assert.deepEqual(await keyIds(apiKey), before);
    await removeJobDirectory(step.job);
  });

  it('an environment secret, and an organization secret that keeps its selected repositories', async () => {
    const first = emu.addTenant({ name: 'Env' });
    const envStep = await rotate(first.apiKey, { environment: 'production' });
    assert.equal(envStep.exitCode, 0, visibleLog(envStep));
    const envValue = github.secrets.get(`env:${REPOSITORY}/production/TENANT_API_KEY`)?.value ?? '';
    assert.ok(await keyIds(envValue));

    const second = emu.addTenant({ name: 'Org' });
    github.seedSecret('org:octo-org/TENANT_API_KEY', {
      value: second.apiKey,
      visibility: 'selected',
      selected_repository_ids: [101, 202],
    });
    const orgStep = await rotate(second.apiKey, { organization: 'octo-org' });
    assert.equal(orgStep.exitCode, 0, visibleLog(orgStep));
    const org = github.secrets.get('org:octo-org/TENANT_API_KEY');
    assert.notEqual(org?.value, second.apiKey);
    assert.ok(await keyIds(org?.value ?? ''));
    assert.equal(org?.visibility, 'selected');
    assert.deepEqual(org?.selected_repository_ids, [101, 202]);
    await Promise.all([removeJobDirectory(envStep.job), removeJobDirectory(orgStep.job)]);
  });

  it('a refused write deletes the new key; a lost answer keeps both keys working', async () => {
    const { apiKey } = emu.addTenant({ name: 'Refused' });
    const path = `repo:${REPOSITORY}/REFUSED_KEY`;
    github.seedSecret(path, { value: apiKey });
    const before = await keyIds(apiKey);
    github.failNext('actions/create-or-update-repo-secret', { status: 422 });
    const refused = await rotate(apiKey, { 'secret-name': 'REFUSED_KEY' });
    assert.equal(refused.exitCode, 1);
    assert.match(
      errorLines(refused)[0] ?? '',
      /^Rotation failed at store the new key: GitHub did not store .*HTTP 422.*; nothing changed/,
    );
    assert.equal(github.secrets.get(path)?.value, apiKey);
    assert.deepEqual(await keyIds(apiKey), before);

    github.failNext('actions/create-or-update-repo-secret', { status: 502 });
    const lost = await rotate(apiKey, { 'secret-name': 'REFUSED_KEY' });
    assert.equal(lost.exitCode, 1);
    assert.match(errorLines(lost)[0] ?? '', /may hold the new key .* both are kept and work/);
    assert.ok(await keyIds(github.secrets.get(path)?.value ?? ''), 'the secret works');
    assert.equal((await keyIds(apiKey))?.length, (before?.length ?? 0) + 1);
    await Promise.all([removeJobDirectory(refused.job), removeJobDirectory(lost.job)]);
  });

  it('bad inputs: one line each, nothing sent', async () => {
    emu.clearRequests();
    const count = github.requests.length;
    const step = await rotate('not-a-key', {
      'secret-name': 'GITHUB_X',
      environment: 'e',
      organization: 'o',
      'grace-hours': '-1',
    });
    assert.equal(step.exitCode, 1);
    const lines = errorLines(step).join('\n');
    assert.match(lines, /input 'api-key' is not an API key/);
    assert.match(lines, /input 'secret-name' must be a secret name/);
    assert.match(lines, /exclude each other/);
    assert.match(lines, /input 'grace-hours' must be a whole number/);
    assert.equal(emu.requests().filter((r) => r.origin === 'api').length, 0);
    assert.equal(github.requests.length, count);
    await removeJobDirectory(step.job);
  });

  /** A tenant whose key is in the secret `name`, written an hour ago (and `extraKeys` more keys). */
  async function tenantInSecret(name: string, extraKeys = 0) {
    const { apiKey } = emu.addTenant({ name });
    for (let i = 0; i < extraKeys; i++) {
      await call(emu, 'POST', '/tenants/me/api-keys', { key: apiKey, body: { name: `team ${i}` } });
    }
    const path = `repo:${REPOSITORY}/${name}`;
    github.seedSecret(path, { value: apiKey });
    emu.advance(HOUR);
    return { apiKey, path, stored: () => github.secrets.get(path)?.value ?? '' };
  }

  /** A run SIGKILLed after its create and before its store (its verify read is slowed). */
  async function killBeforeStore(apiKey: string, secretName: string): Promise<StepResult> {
    emu.addFault({
      route: 'GET /tenants/me/api-keys',
      after: 1,
      fault: { kind: 'delay', ms: 5000 },
    });
    const killed = await rotate(apiKey, { 'secret-name': secretName }, APP_TOKEN, /Created key/);
    emu.clearFaults();
    assert.equal(killed.signal, 'SIGKILL');
    return killed;
  }

  it('a run killed between create and store: the next run deletes its key before creating', async () => {
    const { apiKey, stored } = await tenantInSecret('KILLED_KEY');
    const before = await keyIds(apiKey);
    const killed = await killBeforeStore(apiKey, 'KILLED_KEY');
    assert.equal(stored(), apiKey);
    const leftover = (await keyIds(apiKey))?.filter((id) => !before?.includes(id)) ?? [];
    assert.equal(leftover.length, 1);

    emu.advance(31 * MINUTE);
    const next = await rotate(apiKey, { 'secret-name': 'KILLED_KEY' });
    assert.equal(next.exitCode, 0, visibleLog(next));
    const log = visibleLog(next);
    assert.match(
      log,
      /was made after the repository secret KILLED_KEY of \S+ was last written \(\S+Z\), and it was not written since: it was never stored/,
    );
    assert.ok(log.indexOf('Deleted key') < log.indexOf('Created key'), 'deleted before the create');
    assert.equal(next.outputs.revoked, '1');
    const after = await keyIds(stored());
    assert.ok(after && !after.includes(leftover[0] ?? ''), 'the unstored key is gone');
    assert.deepEqual(await keyIds(apiKey), after, 'the key the secret held works within its grace');
    await Promise.all([removeJobDirectory(killed.job), removeJobDirectory(next.job)]);
  });

  it('a secret GitHub does not have yet (404): the key a killed run left goes with the next run', async () => {
    const { apiKey } = emu.addTenant({ name: 'New secret' });
    emu.advance(HOUR);
    const before = (await keyIds(apiKey)) ?? [];
    const killed = await killBeforeStore(apiKey, 'NEW_KEY');
    const leftover = ((await keyIds(apiKey)) ?? []).filter((id) => !before.includes(id));
    assert.equal(leftover.length, 1);
    emu.advance(31 * MINUTE);
    const next = await rotate(apiKey, { 'secret-name': 'NEW_KEY' });
    assert.equal(next.exitCode, 0, visibleLog(next));
    assert.match(
      visibleLog(next),
      /was made after the repository secret NEW_KEY of \S+ was last written \(none\), and it was not written since: it was never stored/,
    );
    assert.equal(next.outputs.revoked, '1');
    const stored = github.secrets.get(`repo:${REPOSITORY}/NEW_KEY`)?.value ?? '';
    assert.ok(!(await keyIds(stored))?.includes(leftover[0] ?? ''));
    await Promise.all([removeJobDirectory(killed.job), removeJobDirectory(next.job)]);
  });

  it('at 10 keys, one never stored (a lost store answer): deletes it, creates, stores, succeeds', async () => {
    const { apiKey, stored } = await tenantInSecret('CAPPED_KEY', 8);
    github.failNext('actions/create-or-update-repo-secret', { status: 502 });
    const lost = await rotate(apiKey, { 'secret-name': 'CAPPED_KEY' });
    assert.equal(lost.exitCode, 1);
    assert.equal(stored(), apiKey, 'GitHub did not write it');
    assert.equal((await keyIds(apiKey))?.length, 10);

    emu.advance(31 * MINUTE);
    const next = await rotate(apiKey, { 'secret-name': 'CAPPED_KEY' });
    assert.equal(next.exitCode, 0, visibleLog(next));
    assert.equal(next.outputs.revoked, '1');
    assert.notEqual(stored(), apiKey);
    assert.equal((await keyIds(stored()))?.length, 10);
    await Promise.all([removeJobDirectory(lost.job), removeJobDirectory(next.job)]);
  });

  it('never deletes early a key the secret held: a re-run of an older job holds an older key', async () => {
    // GitHub's clock hours behind this machine's too: its Date, not ours, dates its updated_at
    githubBehindMs = (emu.now?.() ?? Date.now()) - Date.now() + 8 * HOUR;
    const { apiKey, stored } = await tenantInSecret('RERUN_KEY');
    const first = await rotate(apiKey, { 'secret-name': 'RERUN_KEY' });
    const older = stored();
    emu.advance(HOUR);
    const second = await rotate(older, { 'secret-name': 'RERUN_KEY' });
    const newer = second.outputs['key-id'] ?? '';
    emu.advance(HOUR);
    const rerun = await rotate(older, { 'secret-name': 'RERUN_KEY' });
    assert.equal(rerun.exitCode, 0, visibleLog(rerun));
    assert.equal(rerun.outputs.revoked, '0');
    assert.ok((await keyIds(stored()))?.includes(newer), 'the key the secret held is kept');
    await Promise.all([first, second, rerun].map((step) => removeJobDirectory(step.job)));
  });

  it("GitHub's Date 10 minutes off its own updated_at, and a re-run holding an older key: the stored key stays, and a refused write changed nothing", async () => {
    githubDateAheadMs = 10 * MINUTE;
    try {
      const { apiKey, stored } = await tenantInSecret('SKEWED_KEY');
      const first = await rotate(apiKey, { 'secret-name': 'SKEWED_KEY' });
      assert.equal(first.exitCode, 0, visibleLog(first));
      const held = stored();
      emu.advance(2 * HOUR);
      const before = await keyIds(held);
      github.failNext('actions/create-or-update-repo-secret', { status: 422 });
      const rerun = await rotate(apiKey, { 'secret-name': 'SKEWED_KEY' });
      assert.equal(rerun.exitCode, 1);
      assert.match(
        errorLines(rerun)[0] ?? '',
        /^Rotation failed at store the new key: GitHub did not store .*HTTP 422.*; nothing changed: the stored key \S+ still works$/,
      );
      assert.equal(stored(), held);
      assert.deepEqual(
        await keyIds(held),
        before,
        'nothing changed: the key the secret holds works',
      );
      await Promise.all([first, rerun].map((step) => removeJobDirectory(step.job)));
    } finally {
      githubDateAheadMs = 0;
    }
  });
});
