// PR status against a stand-in of GitHub's REST API that validates bodies with GitHub's OpenAPI
// schemas: a check run with every failed finding annotated (50 per request), one PR comment updated
// in place, a fork's read-only token → warnings only. Also: a huge result set stays under the
// runner's 1 MiB summary limit and the Checks API's 65,535 characters.
import assert from 'node:assert/strict';
import { renderedText } from '../helpers/gfm.js';
import { readFile } from 'node:fs/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import { QUICK_SCAN, startWorld, visibleLog, type World } from './world.js';

const HEAD_SHA = 'feedfacefeedfacefeedfacefeedfacefeedface';
const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: { number: 7, head: { sha: HEAD_SHA, ref: 'feature' }, base: { ref: 'main' } },
  },
};

describe('action: PR status', () => {
  let world: World;
  let fork: World;
  before(async () => {
    world = await startWorld();
    fork = await startWorld({}, { permission: 'read' });
  });
  after(async () => {
    await world.close();
    await fork.close();
  });
  beforeEach(() => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 90, failed: 60 },
    });
  });

  it('a check run on the head commit with all 60 findings, in batches of 50', async () => {
    const step = await world.main({ 'check-run': 'true' }, { event: PR_EVENT });
    assert.equal(step.exitCode, 1);
    assert.ok(!step.annotations.some((a) => /Check run/.test(a.message)), visibleLog(step));
    const run = world.github.checkRuns.at(-1);
    assert.ok(run);
    assert.equal(run.head_sha, HEAD_SHA);
    assert.equal(run.conclusion, 'failure');
    assert.equal(run.annotations.length, 60);
    assert.equal(run.calls, 2);
    assert.ok(
      world.github.requests.every((r) => (r.status ?? 0) < 400),
      'every body passed the schema',
    );
    assert.match(
      renderedText(run.output.summary ?? ''),
      /^❌ Tenant scan failed: 60 findings, the worst \w+$/m,
    );
    assert.match(run.output.title ?? '', /^❌ Tenant scan failed: 60 findings, the worst \w+$/);
  });

  it('one PR comment, updated in place on the next run; other comments untouched', async () => {
    world.github.seedComment(7, 'Looks good to me', 'octocat');
    const first = await world.main({ 'pr-comment': 'true' }, { event: PR_EVENT });
    assert.equal(first.exitCode, 1);
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 90, failed: 0 },
    });
    const second = await world.main({ 'pr-comment': 'true' }, { event: PR_EVENT });
    assert.equal(second.exitCode, 0, visibleLog(second));
    const comments = world.github.comments.get(7) ?? [];
    assert.equal(comments.length, 2);
    assert.equal(comments[0]?.body, 'Looks good to me');
    assert.match(comments[1]?.body ?? '', /<!-- tenant-scan:scan\/scan -->/);
    assert.match(comments[1]?.body ?? '', /Tenant scan passed/);
    assert.equal(world.github.requestsFor('issues/update-comment').length, 1);
  });

  it("a fork's read-only token: warnings, and the verdict alone decides the exit code", async () => {
    const step = await fork.main(
      { 'check-run': 'true', 'pr-comment': 'true', 'fail-on-findings': 'false' },
      { event: PR_EVENT },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    const warnings = step.annotations.filter((a) => a.level === 'warning').map((a) => a.message);
    assert.ok(
      warnings.some((w) =>
        /^Check run skipped: the token may not create check runs .*checks: write/.test(w),
      ),
    );
    assert.ok(
      warnings.some((w) =>
        /^PR comment skipped: the token may not write .*pull-requests: write/.test(w),
      ),
    );
    assert.equal(fork.github.checkRuns.length, 0);
  });

  it('pr-comment outside a pull request: skipped with a log line, no request', async () => {
    const before = world.github.requests.length;
    const step = await world.main({ 'pr-comment': 'true', 'fail-on-findings': 'false' });
    assert.equal(step.exitCode, 0);
    assert.match(step.stdout, /PR comment skipped: this run is not for a pull request/);
    assert.equal(world.github.requests.length, before);
  });

  it('thousands of failed findings: the summary stays under 1 MiB and says how many more', async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 9000, failed: 6000 },
    });
    const step = await world.main({}, { event: PR_EVENT });
    assert.equal(step.exitCode, 1);
    assert.equal(step.summaryDropped, false);
    assert.ok(Buffer.byteLength(step.summary) <= 1024 * 1024);
    assert.match(step.summary, /…and [\d,]+ more failed findings — see the results file/);
    const results = JSON.parse(
      await readFile(step.outputs['results-file'] ?? '', 'utf8'),
    ) as unknown[];
    assert.equal(results.length, 6000, 'the results file is complete');
    assert.equal(step.annotations.filter((a) => a.title?.startsWith('Tenant scan: ')).length, 10);
  });

  it("a check run of 1,200 findings: every one annotated, its summary cut to the Checks API's 65,535 characters", async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 1500, failed: 1200 },
    });
    // 24 check run updates of 50 annotations, a second apart as GitHub asks of writes.
    const step = await world.main({ 'check-run': 'true' }, { event: PR_EVENT, timeoutMs: 90_000 });
    assert.equal(step.exitCode, 1);
    const run = world.github.checkRuns.at(-1);
    assert.equal(run?.annotations.length, 1200);
    const summary = run?.output.summary ?? '';
    assert.ok(summary.length <= 65_535, `${summary.length} characters`);
    assert.match(summary, /more failed findings/, 'the summary was cut, and says so');
  });
});
