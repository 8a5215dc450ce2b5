// Tracking issues on the bundled action against the GitHub REST stand-in (bodies checked against
// GitHub's OpenAPI schemas): `one` opens one issue on a failing night, edits it in place without a
// comment when nothing changed, comments when something did, closes it on a clean night and
// reopens it (never a second one) when it fails again; `per-finding` keeps one issue per failing
// check, across re-runs and overlapping runs, at most 20 opened a run; a read-only token or a run
// without a verdict leaves the issues alone and the verdict as it is; service text stays plain.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkIdAt } from '../emulator/findings.js';
import type { ScanPlan } from '../emulator/types.js';
import { userNamed, type Issue } from '../helpers/github-api-standin.js';
import { isOurMarker, liveMarkup, renderedText } from '../helpers/gfm.js';
import { QUICK_SCAN, startWorld, useWorld, visibleLog } from './world.js';

function failing(failedChecks: string[], total = 60): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total, failed: 0, failedChecks } };
}

const [A, B, C] = [checkIdAt(0), checkIdAt(1), checkIdAt(2)];

describe('action: tracking issues', () => {
  const world = useWorld();
  let labelCount = 0;

  /** A tenant and a label of its own: one test's issues are not another's. */
  function tenant(failedNow: string[]) {
    const { tenantId, apiKey } = world.emulator.addTenant({ scanPlan: failing(failedNow) });
    const label = `tracked-${++labelCount}`;
    return {
      label,
      fail: (checks: string[], total?: number) =>
        world.emulator.setScanPlan(failing(checks, total), tenantId),
      // An issue or a comment opened is a write 3 s after the last (GitHub's pacing of content
      // that notifies people): 20 issues take a minute.
      run: (inputs: Record<string, string>, env: Record<string, string> = {}) =>
        world.main(
          { 'api-key': apiKey, 'tracking-labels': label, ...inputs },
          { env, timeoutMs: 150_000 },
        ),
      issues: (): Issue[] =>
        [...world.github.issues.values()].filter((issue) => issue.labels.includes(label)),
      comments: (issue: Issue | undefined) =>
        (world.github.comments.get(issue?.number ?? -1) ?? []).map((c) => c.body),
    };
  }

  it('one: opened, edited in place without a comment, commented on a change, closed, reopened', async () => {
    const t = tenant([A, B]);
    const first = await t.run({ 'tracking-issue': 'one' });
    assert.equal(first.exitCode, 1, visibleLog(first));
    assert.equal(t.issues().length, 1, visibleLog(first));
    const [issue] = t.issues();
    const firstBody = issue?.body;
    assert.equal(issue?.state, 'open');
    assert.match(issue?.title ?? '', /^Tenant scan: \S+ findings of .+ fail the gate$/);
    assert.match(renderedText(issue?.body ?? ''), /^❌ Tenant scan failed: 2 findings/m);
    assert.match(visibleLog(first), /Tracking issue #\d+ opened/);

    const same = await t.run({ 'tracking-issue': 'one' });
    assert.equal(same.exitCode, 1);
    assert.equal(t.issues().length, 1);
    assert.notEqual(t.issues()[0]?.body, firstBody, 'the body is the latest run’s summary');
    assert.equal(t.comments(issue).length, 0, 'the same night: no comment');
    assert.match(visibleLog(same), /nothing changed: no comment/);

    t.fail([A, C]);
    await t.run({ 'tracking-issue': 'one' });
    const [changed] = t.comments(issue);
    assert.match(changed ?? '', /1 newly failing \(`[^`]+`\); 1 no longer failing/);

    t.fail([]);
    const clean = await t.run({ 'tracking-issue': 'one' });
    assert.equal(clean.exitCode, 0, visibleLog(clean));
    assert.equal(t.issues()[0]?.state, 'closed');
    assert.equal(t.issues()[0]?.state_reason, 'completed');
    assert.match(t.comments(issue).at(-1) ?? '', /^✅ The gate passes: scan `[^`]+` .*Closing\.$/);
    assert.match(renderedText(t.issues()[0]?.body ?? ''), /^✅ Tenant scan passed/m);

    const cleanAgain = await t.run({ 'tracking-issue': 'one' });
    assert.equal(cleanAgain.exitCode, 0);
    assert.equal(t.comments(issue).length, 2, 'a closed issue stays closed, uncommented');

    t.fail([B]);
    await t.run({ 'tracking-issue': 'one' });
    assert.equal(t.issues().length, 1, 'reopened, not duplicated');
    assert.equal(t.issues()[0]?.state, 'open');
    assert.match(t.comments(issue).at(-1) ?? '', /^\*\*❌ Failing again in scan `[^`]+`/);
  });

  it('one: an issue another run opened at the same time is closed as a duplicate', async () => {
    const t = tenant([A]);
    await t.run({ 'tracking-issue': 'one' });
    const [kept] = t.issues();
    const twin = world.github.seedIssue({ ...kept, labels: [t.label] });
    await t.run({ 'tracking-issue': 'one' });
    assert.equal(world.github.issues.get(twin.number)?.state, 'closed');
    assert.equal(world.github.issues.get(twin.number)?.state_reason, 'not_planned');
    assert.deepEqual(t.comments(twin), [
      `Duplicate of #${kept?.number}: another run opened it at the same time.`,
    ]);
    assert.equal(world.github.issues.get(kept?.number ?? 0)?.state, 'open');
  });

  it('one: at most 10 duplicates are closed a run; a line says the rest wait for the next runs', async () => {
    const t = tenant([A]);
    await t.run({ 'tracking-issue': 'one' });
    const [kept] = t.issues();
    const twins = Array.from({ length: 11 }, () =>
      world.github.seedIssue({ ...kept, labels: [t.label] }),
    );
    const step = await t.run({ 'tracking-issue': 'one' });
    const closed = twins.filter((twin) => world.github.issues.get(twin.number)?.state === 'closed');
    assert.equal(closed.length, 10, visibleLog(step));
    assert.match(
      visibleLog(step),
      /Tracking issue #\d+ is a duplicate of #\d+, left open: at most 10 duplicates are closed a run/,
    );
    assert.equal(world.github.issues.get(kept?.number ?? 0)?.state, 'open');
  });

  it('one: found by its marker behind 5,000 newer labelled issues of ours, not crowded out by others carrying it', async () => {
    const t = tenant([A]);
    await t.run({ 'tracking-issue': 'one' });
    const [opened] = t.issues();
    const marker = /<!-- tenant-scan-tracking:one:[0-9a-f]+ -->/.exec(opened?.body ?? '')?.[0];
    assert.ok(opened && marker);
    // Someone else's 101 issues with our marker, older than ours: a search that does not ask for
    // our account finds a page of theirs first.
    world.github.issues.delete(opened.number);
    const forged = Array.from({ length: 101 }, () =>
      world.github.seedIssue({
        body: `${marker}\nforged`,
        labels: [t.label],
        user: userNamed('mallory'),
      }),
    );
    const ours = world.github.seedIssue({ ...opened, labels: [t.label] });
    for (let i = 0; i < 5_000; i++) world.github.seedIssue({ labels: [t.label], body: 'newer' });
    const step = await t.run({ 'tracking-issue': 'one' });
    assert.equal(step.exitCode, 1, visibleLog(step));
    assert.match(visibleLog(step), new RegExp(`Tracking issue #${ours.number} updated`));
    const withMarker = t.issues().filter((i) => i.body.includes(marker));
    assert.deepEqual(
      withMarker.filter((i) => i.user.login !== 'mallory').map((i) => i.number),
      [ours.number],
      'no second `one` issue',
    );
    for (const issue of forged) assert.equal(issue.body, `${marker}\nforged`);
    const [search] = world.github.requestsFor('search/issues-and-pull-requests');
    assert.match(
      new URL(search?.url ?? '', world.github.url).searchParams.get('q') ?? '',
      /\bauthor:app\/github-actions\b/,
    );
  });

  it('per-finding: one issue per failing check, none twice on a re-run, closed when fixed, reopened', async () => {
    const t = tenant([A, B, C]);
    const first = await t.run({ 'tracking-issue': 'per-finding' });
    assert.equal(first.exitCode, 1, visibleLog(first));
    assert.equal(t.issues().length, 3);
    for (const check of [A, B, C]) {
      assert.ok(
        t.issues().some((issue) => issue.title.startsWith(`Tenant scan: ${check} — `)),
        `an issue titled with ${check}: ${t.issues().map((i) => i.title)}`,
      );
    }
    const rerun = await t.run({ 'tracking-issue': 'per-finding' }, { GITHUB_RUN_ATTEMPT: '2' });
    assert.equal(rerun.exitCode, 1);
    assert.equal(t.issues().length, 3, 'a re-run opens nothing');
    assert.ok(t.issues().every((issue) => t.comments(issue).length === 0));

    t.fail([A, B]);
    await t.run({ 'tracking-issue': 'per-finding' });
    const fixed = t.issues().find((issue) => issue.title.startsWith(`Tenant scan: ${C} `));
    assert.equal(fixed?.state, 'closed');
    assert.match(t.comments(fixed).at(-1) ?? '', /^✅ \*\*Fixed:\*\* the check no longer fails/);
    assert.equal(t.issues().filter((issue) => issue.state === 'open').length, 2);

    t.fail([C]);
    await t.run({ 'tracking-issue': 'per-finding' });
    assert.equal(t.issues().length, 3, 'reopened, not duplicated');
    assert.equal(world.github.issues.get(fixed?.number ?? 0)?.state, 'open');
    assert.match(t.comments(fixed).at(-1) ?? '', /^❌ \*\*Failing again\*\*/);
    assert.equal(t.issues().filter((issue) => issue.state === 'open').length, 1);
  });

  it('per-finding: an overlapping run’s issue for the same check is closed as a duplicate', async () => {
    const t = tenant([A]);
    await t.run({ 'tracking-issue': 'per-finding' });
    const [kept] = t.issues();
    const twin = world.github.seedIssue({ ...kept, labels: [t.label] });
    await t.run({ 'tracking-issue': 'per-finding' });
    assert.equal(world.github.issues.get(twin.number)?.state, 'closed');
    assert.equal(world.github.issues.get(kept?.number ?? 0)?.state, 'open');
  });

  it('per-finding: at most 20 opened a run, and a line says how many more', async () => {
    const checks = Array.from({ length: 23 }, (_, i) => checkIdAt(i));
    const t = tenant(checks);
    const step = await t.run({ 'tracking-issue': 'per-finding' });
    assert.equal(t.issues().length, 20, visibleLog(step));
    assert.match(visibleLog(step), /3 more failing checks have no open issue yet/);
  });

  it('the summary cut to fit an issue body when thousands of findings fail', async () => {
    const t = tenant([]);
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 3000, failed: 3000 },
    });
    // The plan above is the default tenant's: this test runs on it, with its own label.
    const step = await world.main(
      { 'tracking-issue': 'one', 'tracking-labels': t.label },
      { timeoutMs: 90_000 },
    );
    assert.equal(step.exitCode, 1, visibleLog(step));
    const [issue] = t.issues();
    assert.ok(issue, visibleLog(step));
    assert.ok(issue.body.length <= 65_536, `${issue.body.length} characters`);
    assert.match(renderedText(issue.body), /^…and \d+ more failed findings — see /m);
    assert.ok(world.github.requestsFor('issues/create').every((r) => (r.status ?? 0) < 400));
  });

  it('a run without a verdict leaves the issue as it is', async () => {
    const t = tenant([A]);
    await t.run({ 'tracking-issue': 'one' });
    const before = structuredClone(t.issues());
    world.emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'drop-failed' },
      times: Infinity,
    });
    const step = await t.run({ 'tracking-issue': 'one' });
    assert.notEqual(step.exitCode, 0);
    assert.equal(step.outputs.verdict ?? '', '', visibleLog(step));
    assert.deepEqual(t.issues(), before);
  });

  it('service text reaches the issue as plain text: no live mention, link, image or HTML', async () => {
    const t = tenant([A, B]);
    world.emulator.setVariant({ hostileMarkdown: true });
    await t.run({ 'tracking-issue': 'per-finding' });
    await t.run({ 'tracking-issue': 'one', 'tracking-labels': `${t.label}-one` });
    const all = [...world.github.issues.values()].filter((issue) =>
      issue.labels.some((l) => l.startsWith(t.label)),
    );
    assert.equal(all.length, 3);
    for (const issue of all) {
      const live = liveMarkup(issue.body).filter(
        (m) => !(m.kind === 'html' && isOurMarker(m.text)),
      );
      assert.deepEqual(live, [], issue.body);
      assert.doesNotMatch(issue.title, /[@#]\w/, issue.title);
    }
  });
});

describe('action: tracking issues with a read-only token', () => {
  it('one warning that names the permission; the verdict decides the exit code', async () => {
    const fork = await startWorld({}, { permission: 'read' });
    try {
      const failed = await fork.main({ 'tracking-issue': 'one' });
      assert.equal(failed.exitCode, 1);
      assert.equal(failed.outputs.verdict, 'failed');
      const warnings = failed.annotations.filter((a) => a.level === 'warning' && !a.title);
      assert.equal(warnings.length, 1, visibleLog(failed));
      assert.match(warnings[0]?.message ?? '', /Tracking issues skipped: .*issues: write/);
      const passed = await fork.main({ 'tracking-issue': 'one', 'fail-on-findings': 'false' });
      assert.equal(passed.exitCode, 0, visibleLog(passed));
      assert.equal(fork.github.issues.size, 0);
    } finally {
      await fork.close();
    }
  });
});
