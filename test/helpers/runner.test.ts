import { strict as assert } from 'node:assert';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import {
  removeJobDirectory,
  runActionStep,
  runJob,
  type JobDirectory,
  type StepResult,
} from './runner.js';
import { alive } from './process-alive.js';

const fixture = (name: string) =>
  fileURLToPath(new URL(`../fixtures/runner/${name}`, import.meta.url));
const ACTION_YML = fixture('action.yml');
const KEY = 'tsk_live_secret_0123456789';

const jobs: JobDirectory[] = [];
after(() => Promise.all(jobs.map(removeJobDirectory)));

function tagged(result: StepResult, tag: string): Record<string, unknown> {
  const line = result.stdout.split('\n').find((l) => l.startsWith(`${tag} `));
  assert.ok(line, `no ${tag} line in stdout:\n${result.stdout}\n${result.stderr}`);
  return JSON.parse(line.slice(tag.length + 1));
}

describe('runActionStep: one step like the runner', () => {
  let result: StepResult;

  test('runs the script on Node 24 in the workspace with a clean runner env', async () => {
    process.env.LEAK_CHECK = 'from-the-test-process';
    process.env.INPUT_STALE = 'inherited';
    try {
      result = await runActionStep({
        entry: 'main',
        script: fixture('step-effects.mjs'),
        actionYml: ACTION_YML,
        inputs: { 'api-key': KEY, 'exit-code': '3' },
        githubToken: 'ghs_token_for_defaults',
        apiUrl: 'http://127.0.0.1:1',
        event: { name: 'pull_request', payload: { pull_request: { number: 17 } } },
      });
    } finally {
      delete process.env.LEAK_CHECK;
      delete process.env.INPUT_STALE;
    }
    jobs.push(result.job);
    assert.equal(result.exitCode, 3);
    assert.equal(result.succeeded, false);
    assert.match(result.stdout, /^NODE v24\./m);
    assert.match(result.stdout, new RegExp(`^CWD ${result.job.workspace}$`, 'm'));
    const env = tagged(result, 'ENV');
    assert.equal(env.LEAK_CHECK, undefined);
    assert.equal(env.INPUT_STALE, undefined);
    assert.equal(env['INPUT_API-KEY'], KEY);
    assert.equal(env.INPUT_SCAN_TYPE, 'compliance');
    assert.equal(env['INPUT_GITHUB-TOKEN'], 'ghs_token_for_defaults');
    assert.equal(env.GITHUB_EVENT_NAME, 'pull_request');
    assert.equal(env.GITHUB_REF, 'refs/pull/17/merge');
    assert.equal(env.GITHUB_API_URL, 'http://127.0.0.1:1');
    assert.equal(env.GITHUB_WORKSPACE, result.job.workspace);
    assert.equal(env.RUNNER_TEMP, result.job.runnerTemp);
    for (const name of ['GITHUB_REPOSITORY', 'GITHUB_SHA', 'GITHUB_RUN_ID', 'GITHUB_ACTION']) {
      assert.ok(env[name], name);
    }
    assert.deepEqual(tagged(result, 'EVENT'), { pull_request: { number: 17 } });
  });

  test('reads outputs, state, exported env and the summary from the file commands', () => {
    assert.deepEqual(result.outputs, { verdict: 'failed', multi: 'line one\nline two' });
    assert.deepEqual(result.state, { 'scan-id': 'scan-123' });
    assert.deepEqual(result.exportedEnv, { EXPORTED_BY_MAIN: 'yes' });
    assert.match(result.summary, /<h1>Scan failed<\/h1>/);
    assert.equal(result.summaryDropped, false);
  });

  test('parses annotations with properties and flags those over the 10-per-level cap', () => {
    const errors = result.annotations.filter((a) => a.level === 'error');
    assert.equal(errors.length, 12, 'the command inside stop-commands is not an annotation');
    assert.deepEqual(
      errors.map((a) => a.overStepCap),
      [...Array<boolean>(10).fill(false), true, true],
    );
    assert.deepEqual(
      { title: errors[0]?.title, file: errors[0]?.file, line: errors[0]?.line },
      { title: 'Check 1', file: 'tenant.json', line: 1 },
    );
    const warning = result.annotations.find((a) => a.level === 'warning');
    assert.equal(warning?.message, 'a warning with 100% and a\nsecond line');
    assert.equal(warning?.title, 'T: a, b');
    assert.equal(result.annotations.filter((a) => a.level === 'notice').length, 1);
    assert.equal(result.annotationsCapped, true);
    assert.deepEqual(result.masks, [KEY]);
  });

  test('a missing entry script is a clear harness error, not a confusing step failure', async () => {
    await assert.rejects(
      runActionStep({ entry: 'main', script: fixture('no-such-entry.js'), actionYml: null }),
      /no-such-entry\.js does not exist \(run `npm run build` first\)/,
    );
  });

  test('flags a step summary over 1 MiB, which the runner drops', async () => {
    const big = await runActionStep({
      entry: 'main',
      script: fixture('step-effects.mjs'),
      actionYml: ACTION_YML,
      inputs: { 'api-key': KEY, big_summary: 'true' },
    });
    jobs.push(big.job);
    assert.equal(big.exitCode, 0);
    assert.equal(big.summaryDropped, true);
  });
});

describe('runJob: main, then post with the saved state', () => {
  test('post gets the same inputs, STATE_* and the env exported by main', async () => {
    const run = await runJob({
      scripts: { main: fixture('step-effects.mjs'), post: fixture('post-report.mjs') },
      actionYml: ACTION_YML,
      inputs: { 'api-key': KEY },
    });
    jobs.push(run.job);
    assert.equal(run.cancelled, false);
    assert.ok(run.post);
    const received = tagged(run.post, 'POST');
    assert.equal(received['STATE_scan-id'], 'scan-123');
    assert.equal(received['INPUT_API-KEY'], KEY);
    assert.equal(received.EXPORTED_BY_MAIN, 'yes');
  });

  test('runner cancellation: a SIGINT handler finishes inside the grace, then post runs', async () => {
    const run = await runJob({
      scripts: { main: fixture('cancel-aware.mjs'), post: fixture('post-report.mjs') },
      actionYml: null,
      inputs: { 'on-signal': 'graceful' },
      // generous delays: the handler finishes long before, so the test does not wait for them
      cancel: { after: /started/, sigtermDelayMs: 5000, killDelayMs: 1000 },
    });
    jobs.push(run.job);
    assert.equal(run.cancelled, true);
    assert.deepEqual(
      run.main.signals.map((s) => s.signal),
      ['SIGINT'],
    );
    assert.equal(run.main.exitCode, 1);
    assert.match(run.main.stdout, /got SIGINT, cancelling remote work/);
    assert.equal(run.main.annotations[0]?.message, 'cancelled');
    assert.equal(tagged(run.post as StepResult, 'POST')['STATE_scan-state'], 'running');
  });

  test('without a handler node dies of SIGINT at once', async () => {
    const main = await runActionStep({
      entry: 'main',
      script: fixture('cancel-aware.mjs'),
      actionYml: null,
      inputs: { 'on-signal': 'none' },
      cancel: { after: /started/ },
    });
    jobs.push(main.job);
    assert.equal(main.signal, 'SIGINT');
    assert.equal(main.exitCode, null);
  });

  test('a step that ignores SIGINT and SIGTERM gets its whole tree killed', async () => {
    const run = await runJob({
      scripts: { main: fixture('cancel-aware.mjs'), post: fixture('post-report.mjs') },
      actionYml: null,
      inputs: { 'on-signal': 'stubborn' },
      cancel: { after: /started/, sigtermDelayMs: 500, killDelayMs: 1000 },
    });
    jobs.push(run.job);
    assert.deepEqual(
      run.main.signals.map((s) => [s.signal, s.tree]),
      [
        ['SIGINT', false],
        ['SIGTERM', false],
        ['SIGKILL', true],
      ],
    );
    assert.equal(run.main.signal, 'SIGKILL');
    assert.match(run.main.stdout, /ignoring SIGINT[\s\S]*ignoring SIGTERM/);
    const grandchild = Number(/GRANDCHILD (\d+)/.exec(run.main.stdout)?.[1]);
    assert.ok(grandchild > 0);
    for (let i = 0; i < 100 && alive(grandchild); i++) await new Promise((r) => setTimeout(r, 20));
    assert.equal(alive(grandchild), false);
    assert.ok(run.post, 'post runs after a cancelled main under always()');
  });

  test('killed outright: SIGKILL at once, post still sees the state saved before', async () => {
    const run = await runJob({
      scripts: { main: fixture('cancel-aware.mjs'), post: fixture('post-report.mjs') },
      actionYml: null,
      inputs: { 'on-signal': 'graceful' },
      cancel: { after: /started/, mode: 'kill' },
    });
    jobs.push(run.job);
    assert.deepEqual(
      run.main.signals.map((s) => s.signal),
      ['SIGKILL'],
    );
    assert.doesNotMatch(run.main.stdout, /got SIGINT/);
    assert.equal(tagged(run.post as StepResult, 'POST')['STATE_scan-state'], 'running');
  });

  test('the hard timeout kills a hung step and says so', async () => {
    const main = await runActionStep({
      entry: 'main',
      script: fixture('cancel-aware.mjs'),
      actionYml: null,
      inputs: { 'on-signal': 'stubborn' },
      timeoutMs: 300,
    });
    jobs.push(main.job);
    assert.equal(main.timedOut, true);
    assert.equal(main.signal, 'SIGKILL');
  });
});
