// Only what we wrote is ours (issue 31), on the bundled action against the GitHub stand-in, which
// records the account each token acts as: an outsider's issue or comment that carries our hidden
// marker (and a forged state line) is never edited, closed, commented on or believed, and ours
// stays as it was; the issues list is filtered by the token's own account, whatever kind of token.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import type { ScanPlan } from '../emulator/types.js';
import { userNamed, type Issue } from '../helpers/github-api-standin.js';
import { QUICK_SCAN, startWorld, useWorld, visibleLog, type World } from './world.js';

const [A, B, C] = [checkIdAt(0), checkIdAt(1), checkIdAt(2)];
const MALLORY = userNamed('mallory');
const HEAD_SHA = 'feedfacefeedfacefeedfacefeedfacefeedface';
const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: { number: 7, head: { sha: HEAD_SHA, ref: 'feature' }, base: { ref: 'main' } },
  },
};

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 40, failed: 0, failedChecks } };
}

/** A state line that claims every check failed last time and the verdict was `passed`: believed,
 *  it would hide what newly fails. */
const FORGED_STATE = '<!-- tenant-scan-state:passed:' + 'a'.repeat(12) + ': -->';

/** Requests of the run that wrote to an issue or comment of someone else. */
function writesTo(world: World, since: number, issues: number[], comments: number[] = []) {
  return world.github.requests.slice(since).filter((r) => {
    if (r.method === 'GET') return false;
    const issue = /\/issues\/(\d+)(?:\/|$)/.exec(r.path)?.[1];
    const comment = /\/issues\/comments\/(\d+)$/.exec(r.path)?.[1];
    return issues.includes(Number(issue)) || comments.includes(Number(comment));
  });
}

describe('action: only what we wrote is ours', () => {
  const world = useWorld();
  let labelCount = 0;

  function tenant(failedNow: string[]) {
    const { tenantId, apiKey } = world.emulator.addTenant({ scanPlan: failing(failedNow) });
    const label = `owned-${++labelCount}`;
    return {
      label,
      fail: (checks: string[]) => world.emulator.setScanPlan(failing(checks), tenantId),
      run: (mode: string) =>
        world.main(
          { 'api-key': apiKey, 'tracking-labels': label, 'tracking-issue': mode },
          { timeoutMs: 90_000 },
        ),
      ours: (): Issue[] =>
        [...world.github.issues.values()].filter(
          (i) => i.labels.includes(label) && i.user.login === 'github-actions[bot]',
        ),
    };
  }

  it("one: an outsider's old issue edited to carry our marker and a forged state line is never touched, and ours stays", async () => {
    const t = tenant([A, B]);
    // An issue an outsider opened long ago (a lower number than ours), with our label.
    const old = world.github.seedIssue({ title: 'Old', labels: [t.label], user: MALLORY });
    const first = await t.run('one');
    const [ours] = t.ours();
    assert.ok(ours, visibleLog(first));
    const marker = ours.body.split('\n')[0] ?? '';
    assert.match(marker, /^<!-- tenant-scan-tracking:one:[0-9a-f]+ -->$/);
    old.body = `${marker}\n${FORGED_STATE}\nNothing to see here.`;
    const theirs = structuredClone(old);
    const since = world.github.requests.length;

    t.fail([A, B, C]);
    const second = await t.run('one');
    assert.equal(second.exitCode, 1, visibleLog(second));
    assert.deepEqual(world.github.issues.get(old.number), theirs, 'their issue is as it was');
    assert.deepEqual(writesTo(world, since, [old.number]), []);
    assert.deepEqual(world.github.comments.get(old.number) ?? [], []);
    assert.equal(world.github.issues.get(ours.number)?.state, 'open', 'ours is not a "duplicate"');
    const comments = world.github.comments.get(ours.number) ?? [];
    assert.match(
      comments.at(-1)?.body ?? '',
      /1 newly failing \(`[^`]+`\)/,
      'what changed is read from our own state line, not the forged one',
    );
    assert.doesNotMatch(comments.at(-1)?.body ?? '', /passed → failed/);
  });

  it("per-finding: outsiders' issues carrying a check's marker are neither adopted nor closed", async () => {
    const t = tenant([A, B]);
    await t.run('per-finding');
    const byCheck = (check: string) => t.ours().find((i) => i.title.includes(` ${check} `));
    const markerOf = (issue: Issue | undefined) => issue?.body.split('\n')[0] ?? '';
    // An outsider pastes A's marker into an open issue, and B's into another.
    const fakeA = world.github.seedIssue({
      body: `${markerOf(byCheck(A))}\nfake`,
      labels: [t.label],
      user: MALLORY,
    });
    const fakeB = world.github.seedIssue({
      body: `${markerOf(byCheck(B))}\nfake`,
      labels: [t.label],
      user: MALLORY,
    });
    const before = structuredClone([fakeA, fakeB]);
    const since = world.github.requests.length;
    t.fail([A]); // B is fixed: our B issue closes, theirs stays open
    const step = await t.run('per-finding');
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.deepEqual(
      [world.github.issues.get(fakeA.number), world.github.issues.get(fakeB.number)],
      before,
    );
    assert.deepEqual(writesTo(world, since, [fakeA.number, fakeB.number]), []);
    assert.equal(byCheck(A)?.state, 'open', 'ours for A is not closed as a duplicate');
    assert.equal(byCheck(B)?.state, 'closed');
  });

  it('pr-comment: a commenter who posts our marker first does not get the verdict in their comment', async () => {
    const marker = '<!-- tenant-scan:scan/scan -->';
    const pull = 70 + labelCount++;
    const event = {
      ...PR_EVENT,
      payload: { pull_request: { ...PR_EVENT.payload.pull_request, number: pull } },
    };
    world.emulator.setScanPlan(failing([A, B]));
    const planted = world.github.seedComment(pull, `${marker}\n${FORGED_STATE}\nLGTM`, MALLORY);
    const before = structuredClone(planted);
    const first = await world.main({ 'pr-comment': 'true' }, { event });
    assert.equal(first.exitCode, 1, visibleLog(first));
    const second = await world.main({ 'pr-comment': 'true' }, { event });
    assert.equal(second.exitCode, 1, visibleLog(second));
    const comments = world.github.comments.get(pull) ?? [];
    assert.equal(comments.length, 2);
    assert.deepEqual(comments[0], before, 'their comment is as it was');
    assert.equal(comments[1]?.user.login, 'github-actions[bot]');
    assert.match(comments[1]?.body ?? '', /Tenant scan failed/);
    assert.match(comments[1]?.body ?? '', /\*\*Since the last comment:\*\* no change\./);
    assert.deepEqual(writesTo(world, 0, [], [planted.id]), []);
  });
});

describe('action: ours by the account the token acts as (a GitHub App, a personal token)', () => {
  for (const account of [
    { login: 'tenant-scan-app[bot]', id: 5550001, type: 'Bot' as const },
    { login: 'octocat', id: 583231, type: 'User' as const },
  ]) {
    it(`${account.login}: its issue is found again and edited; the Actions bot's is not its own`, async () => {
      const token = `ghs_token_of_${account.id}`;
      const world = await startWorld({}, { accounts: { [token]: account } });
      try {
        world.emulator.setScanPlan(failing([A]));
        const run = () =>
          world.main({ 'tracking-issue': 'one' }, { githubToken: token, timeoutMs: 60_000 });
        const first = await run();
        const [ours] = [...world.github.issues.values()];
        assert.equal(ours?.user.login, account.login, visibleLog(first));
        // The same marker in an issue the workflow's own token opened: another account's.
        const bots = world.github.seedIssue({ body: ours?.body ?? '', labels: ours?.labels ?? [] });
        const before = structuredClone(bots);
        await run();
        assert.equal(world.github.issues.size, 2, 'nothing opened twice');
        assert.deepEqual(world.github.issues.get(bots.number), before);
        const lists = world.github.requestsFor('issues/list-for-repo');
        assert.equal(lists.length, 2, 'the list is read once a run');
        for (const list of lists) {
          const query = new URL(list.url, world.github.url).searchParams;
          assert.equal(query.get('creator'), account.login);
        }
      } finally {
        await world.close();
      }
    });
  }
});
