// The PR comment through the bundled Action against GitHub's REST stand-in (which validates every
// body with GitHub's schemas): at 80 and at 5,000 failed findings it stays within 40 lines and
// 4,000 characters (its hidden marker and state lines aside), names the count, lists ten findings
// and links the run; the job summary and the check run keep the whole list. Updated in place, it
// says what changed since the last comment.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { renderedText } from '../helpers/gfm.js';
import { QUICK_SCAN, useWorld, visibleLog, type World } from './world.js';

/** A pull request of its own for each test: the comment of one is not another's earlier one. */
function prEvent(number: number) {
  const head = { sha: 'c0ffee'.repeat(6) + 'c0ff', ref: 'f' };
  return {
    name: 'pull_request',
    payload: { pull_request: { number, head, base: { ref: 'main' } } },
  };
}
const RUN_ENV = { GITHUB_REPOSITORY: 'octo-org/octo-repo', GITHUB_RUN_ID: '4242' };
const RUN_URL = 'https://github.com/octo-org/octo-repo/actions/runs/4242';

/** What a reviewer sees: the body without our two hidden lines (the marker and the state). */
function visible(body: string): string {
  const [marker, state, ...rest] = body.split('\n');
  assert.match(marker ?? '', /^<!-- tenant-scan:/);
  assert.match(state ?? '', /^<!-- tenant-scan-state:/);
  return rest.join('\n').trimEnd();
}

async function commentAt(world: World, failed: number, pull: number, checkRun = false) {
  world.emulator.setScanPlan({
    ...QUICK_SCAN,
    outcome: { kind: 'completed', total: failed + 10, failed },
  });
  const step = await world.main(
    { 'pr-comment': 'true', 'check-run': String(checkRun), 'csv-file': `findings-${pull}.csv` },
    { event: prEvent(pull), env: RUN_ENV, timeoutMs: 120_000 },
  );
  assert.equal(step.exitCode, 1, visibleLog(step));
  const comments = world.github.comments.get(pull) ?? [];
  const body = comments.at(-1)?.body ?? '';
  return { step, body, text: visible(body) };
}

describe('action: the PR comment, sized for a review', () => {
  const world = useWorld();

  for (const failed of [80, 5000]) {
    it(`${failed.toLocaleString('en')} failed findings: 40 lines, 4,000 characters, the count, ten rows, the run`, async () => {
      const { step, body, text } = await commentAt(world, failed, failed, failed === 80);
      assert.ok(text.length <= 4000, `${text.length} characters`);
      assert.ok(text.split('\n').length <= 40, `${text.split('\n').length} lines`);
      assert.ok(body.length < 65_536, 'GitHub takes the body');
      assert.ok(
        world.github.requests.every((r) => (r.status ?? 0) < 400),
        'every body passed the schema',
      );
      const shown = renderedText(text);
      assert.match(shown, new RegExp(`^❌ Tenant scan failed: ${failed} findings`));
      assert.match(shown, new RegExp(`^Fail the gate \\(${failed}\\)$`, 'm'));
      assert.match(
        shown,
        new RegExp(
          `^…and ${failed - 10} more: the job summary and the check run list all\\.$`,
          'm',
        ),
      );
      assert.ok(text.includes(`[job summary](${RUN_URL})`), text);
      assert.match(text, /\[findings\\-\d+\\\.csv\]\(https?:\/\/[^)]+\/artifacts\/\d+\)/);
      if (failed === 80) {
        const run = world.github.checkRuns.at(-1);
        assert.equal(run?.annotations.length, failed, 'the check run keeps every finding');
      }
      assert.ok(step.summary.length > text.length, 'the job summary keeps the whole list');
    });
  }

  it('updated in place: what changed since the last comment, three names at most', async () => {
    const first = await commentAt(world, 12, 7);
    assert.doesNotMatch(first.text, /Since the last comment/);
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 40, failed: 20 },
    });
    await world.main({ 'pr-comment': 'true' }, { event: prEvent(7), env: RUN_ENV });
    const comments = world.github.comments.get(7) ?? [];
    assert.equal(comments.length, 1, 'one comment, updated');
    const text = visible(comments.at(-1)?.body ?? '');
    assert.match(
      renderedText(text),
      /^Since the last comment: (\d+ newly failing \([^,]+, [^,]+, [^,)]+ and \d+ more\)|.*)/m,
    );
    assert.ok(text.length <= 4000 && text.split('\n').length <= 40);
  });
});
