// GitHub's rate limits and bad gateways, on the bundled action (issue 31): the throttling and retry
// plugins wait out what GitHub asks (Retry-After, the rate limit's reset) within the step's budget,
// a rate-limit 403 is never reported as a missing permission, one 502 does not stop the tracking,
// and the issues list is read once a run, filtered to our own issues.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import type { ScanPlan } from '../emulator/types.js';
import type { GitHubRequest } from '../helpers/github-api-standin.js';
import { QUICK_SCAN, useWorld, visibleLog } from './world.js';

const SECONDARY = {
  message:
    'You have exceeded a secondary rate limit. Please wait a few minutes before you try again.',
  documentation_url: 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api',
  status: '403',
};

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 40, failed: 0, failedChecks } };
}

function gapMs(requests: GitHubRequest[]): number {
  const [first, second] = requests;
  return (second?.receivedAt ?? 0) - (first?.receivedAt ?? 0);
}

/** Warnings of the step itself (findings' annotations have a title). */
function warnings(step: {
  annotations: { level: string; message: string; title?: string }[];
}): string[] {
  return step.annotations.filter((a) => a.level === 'warning' && !a.title).map((a) => a.message);
}

describe("action: GitHub's limits", () => {
  const world = useWorld(failing([checkIdAt(0), checkIdAt(1)]));
  let labels = 0;
  const track = (mode = 'one') => ({
    'tracking-issue': mode,
    'tracking-labels': `limits-${++labels}`,
  });

  it('a secondary rate limit is waited out as Retry-After asks, then the issue is opened', async () => {
    world.github.failNext('issues/create', {
      status: 403,
      body: SECONDARY,
      headers: { 'retry-after': '2' },
    });
    const step = await world.main(track(), { timeoutMs: 60_000 });
    assert.equal(step.exitCode, 1, visibleLog(step));
    const creates = world.github.requestsFor('issues/create').slice(-2);
    assert.deepEqual(
      creates.map((r) => r.status),
      [403, 201],
    );
    assert.ok(gapMs(creates) >= 1_900, `sent again after ${gapMs(creates)} ms`);
    assert.deepEqual(warnings(step), [], visibleLog(step));
    assert.match(step.stdout, /GitHub's secondary rate limit on POST .*: waiting 2 s/);
  });

  it('a rate limit whose reset is past the budget: one warning naming it (not a permission), no wait', async () => {
    world.github.failNext('issues/create', {
      status: 403,
      body: SECONDARY,
      headers: { 'retry-after': '3600' },
    });
    const started = Date.now();
    const step = await world.main(track(), { timeoutMs: 60_000 });
    assert.ok(Date.now() - started < 40_000, 'the step did not wait an hour');
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.equal(step.outputs.verdict, 'failed');
    const [warning, ...more] = warnings(step);
    assert.deepEqual(more, []);
    assert.match(warning ?? '', /^Tracking issues skipped: GitHub's rate limit \(403 You have/);
    assert.doesNotMatch(warning ?? '', /may not|permission/);
  });

  it('the primary rate limit: waited out until its reset, within the budget', async () => {
    const reset = Math.ceil(Date.now() / 1000) + 2;
    world.github.failNext('checks/create', {
      status: 403,
      body: { message: 'API rate limit exceeded for installation ID 1.' },
      headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(reset) },
    });
    const step = await world.main({ 'check-run': 'true' }, { timeoutMs: 60_000 });
    assert.equal(step.exitCode, 1, visibleLog(step));
    const creates = world.github.requestsFor('checks/create');
    assert.deepEqual(
      creates.map((r) => r.status),
      [403, 201],
    );
    assert.ok((creates[1]?.receivedAt ?? 0) >= reset * 1000, 'sent again after the reset');
    assert.deepEqual(warnings(step), [], visibleLog(step));
  });

  it('a PR comment refused by a secondary rate limit is not "may not write to the pull request"', async () => {
    world.github.failNext('issues/list-comments', {
      status: 403,
      body: SECONDARY,
      headers: { 'retry-after': '3600' },
    });
    const event = { name: 'pull_request', payload: { pull_request: { number: 7 } } };
    const step = await world.main({ 'pr-comment': 'true' }, { event, timeoutMs: 60_000 });
    const [warning] = warnings(step);
    assert.match(warning ?? '', /^PR comment skipped: GitHub's rate limit/, visibleLog(step));
  });

  it('one 502 does not stop the tracking: reads and edits are retried', async () => {
    const gateway = { status: 502, body: { message: 'Bad Gateway' } };
    world.github.failNext('graphql', gateway);
    world.github.failNext('issues/list-for-repo', gateway);
    const inputs = track('per-finding');
    const first = await world.main(inputs, { timeoutMs: 60_000 });
    assert.equal(first.exitCode, 1, visibleLog(first));
    assert.deepEqual(warnings(first), [], visibleLog(first));
    const label = inputs['tracking-labels'];
    const issues = () => [...world.github.issues.values()].filter((i) => i.labels.includes(label));
    assert.equal(issues().length, 2, visibleLog(first));
    // Both checks fixed: the first close meets a 502 (retried: an edit is the same when repeated).
    world.github.failNext('issues/update', gateway);
    world.emulator.setScanPlan(failing([]));
    const fixed = await world.main(inputs, { timeoutMs: 60_000 });
    assert.deepEqual(warnings(fixed), [], visibleLog(fixed));
    assert.deepEqual(
      issues().map((i) => i.state),
      ['closed', 'closed'],
    );
  });

  it('a 502 on opening an issue: not sent twice (it may have been done), the other issues go on', async () => {
    world.github.failNext('issues/create', { status: 502, body: { message: 'Bad Gateway' } });
    const inputs = track('per-finding');
    const before = world.github.requestsFor('issues/create').length;
    const first = await world.main(inputs, { timeoutMs: 60_000 });
    assert.deepEqual(warnings(first), [], visibleLog(first));
    assert.match(first.stdout, /Tracking issues: one issue was left as it is \(502 /);
    const creates = world.github.requestsFor('issues/create').slice(before);
    assert.deepEqual(
      creates.map((r) => r.status),
      [502, 201],
    );
    await world.main(inputs, { timeoutMs: 60_000 });
    const label = inputs['tracking-labels'];
    const open = [...world.github.issues.values()].filter(
      (i) => i.labels.includes(label) && i.state === 'open',
    );
    assert.equal(open.length, 2, 'the next run opened the one left');
  });

  it('the issues list is read once a run, of our own issues only, even when one is opened', async () => {
    const inputs = track('per-finding');
    const before = world.github.requestsFor('issues/list-for-repo').length;
    await world.main(inputs, { timeoutMs: 60_000 });
    await world.main(inputs, { timeoutMs: 60_000 });
    const lists = world.github.requestsFor('issues/list-for-repo').slice(before);
    assert.equal(lists.length, 2);
    for (const list of lists) {
      const query = new URL(list.url, world.github.url).searchParams;
      assert.equal(query.get('creator'), 'github-actions[bot]');
      assert.equal(query.get('labels'), inputs['tracking-labels']);
    }
  });
});
