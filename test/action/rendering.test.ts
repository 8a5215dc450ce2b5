// The summary, the PR comment and the check run, read the way GitHub reads them (a CommonMark +
// GFM parser): each starts with one short line a reader acts on — the same line in all three —
// then tables whose header rows have text and whose rows service text cannot break, the numbers
// of the headline repeated in the counts table; an updated comment says what changed since the
// last one; a summary cut to 1 MiB keeps its shape and says what it left out.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { ScanPlan } from '../emulator/types.js';
import { layoutProblems, liveMarkup, renderedText, tables } from '../helpers/gfm.js';
import { createJobDirectory } from '../helpers/runner.js';
import { QUICK_SCAN, useWorld, visibleLog } from './world.js';

const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: { number: 12, head: { sha: 'ef'.repeat(20), ref: 'f' }, base: { ref: 'main' } },
  },
};

function failing(failedChecks: string[]): ScanPlan {
  return { ...QUICK_SCAN, outcome: { kind: 'completed', total: 40, failed: 0, failedChecks } };
}

const DAY = 86_400_000;
const day = (offset: number) => new Date(Date.now() + offset * DAY).toISOString().slice(0, 10);
const WAIVERS = `waivers:
  - check: CIS-1.1.3
    reason: Four global admins until the new accounts are live
    expires: ${day(5)}
  - check: CIS-1.1.2
    reason: Emergency accounts were due last month
    expires: ${day(-3)}
`;

describe('action: a summary read at a glance', () => {
  const world = useWorld();

  it('the demo: one short headline everywhere, its number in the counts table, tables whole', async () => {
    // Last night's scan, then tonight's: one new critical, one new low (below medium), one fixed.
    world.emulator.setScanPlan(
      failing(['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.1.1']),
    );
    const { tenantId } = { tenantId: world.emulator.tenantId };
    world.emulator.seedHistory(
      [
        {
          ageMs: DAY,
          failedChecks: ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.1.1'],
          total: 40,
        },
      ],
      tenantId,
    );
    world.emulator.setScanPlan(
      failing(['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.3', 'CIS-1.3.1', 'CIS-2.4.4', 'CIS-1.3.4']),
    );
    world.emulator.setVariant({ hostileMarkdown: true });
    const job = await createJobDirectory();
    await mkdir(join(job.workspace, '.tenant-scan'));
    await writeFile(join(job.workspace, '.tenant-scan', 'waivers.yml'), WAIVERS);
    const step = await world.main(
      {
        'check-run': 'true',
        'pr-comment': 'true',
        'fail-on-severity': 'medium',
        baseline: 'previous',
        'fail-on': 'new',
      },
      { job, event: PR_EVENT },
    );
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    const comment = world.github.comments.get(12)?.at(-1)?.body ?? '';
    const check = world.github.checkRuns.at(-1);
    const headline = '❌ Tenant scan failed: 1 new critical finding';
    const OUR_RUN = /^https:\/\/github\.com\/octo-org\/octo-repo\/actions\/runs\/\d+$/;
    for (const [where, markdown] of [
      ['summary', step.summary],
      [
        'PR comment',
        comment
          .split('\n')
          .filter((l) => !l.startsWith('<!--'))
          .join('\n'),
      ],
      ['check run', check?.output.summary ?? ''],
    ] as const) {
      assert.deepEqual(layoutProblems(markdown), [], where);
      assert.equal(renderedText(markdown).split('\n')[0], headline, where);
      // Our own: the comment's hidden marker and its link to the run (the job summary).
      const live = liveMarkup(markdown).filter(
        (m) =>
          (m.kind !== 'html' || !m.text.startsWith('<!-- tenant-scan')) &&
          (m.kind !== 'link' || !OUR_RUN.test(m.text)),
      );
      assert.deepEqual(live, [], where);
    }
    assert.equal(check?.output.title, headline);
    // The headline's number is the counts table's first row, each number labelled.
    const counts = tables(step.summary).find((t) => t.header[0] === 'Failed findings');
    assert.ok(counts, 'a counts table');
    const text = renderedText(step.summary);
    assert.match(text, /^Fail the gate \(new, at medium or above\) \| 1$/m);
    assert.match(text, /^New, below medium \| 1$/m);
    assert.match(text, /^Unchanged since the baseline \| 2$/m);
    assert.match(text, /^Waived: accepted risk \| 1$/m);
    assert.match(text, /^Failed in all \| 6$/m);
    assert.match(text, /^Fixed since the baseline \(1\): CIS-2\.1\.1$/m);
    // Scan ids go in the table, as code, not in the headline.
    assert.ok(
      liveMarkup(step.summary).length === 0 &&
        step.summary.includes(`\`${step.outputs['scan-id']}\``),
      'the scan id is a code span',
    );
  });

  it('an updated PR comment says what changed since the last one', async () => {
    const { tenantId, apiKey } = world.emulator.addTenant({
      scanPlan: failing(['CIS-1.1.1', 'CIS-1.3.1']),
    });
    const inputs = { 'api-key': apiKey, 'pr-comment': 'true' };
    const event = {
      ...PR_EVENT,
      payload: { pull_request: { ...PR_EVENT.payload.pull_request, number: 13 } },
    };
    await world.main(inputs, { event });
    world.emulator.setScanPlan(failing(['CIS-1.3.1', 'CIS-2.4.4']), tenantId);
    await world.main(inputs, { event });
    const [comment, ...others] = world.github.comments.get(13) ?? [];
    assert.deepEqual(others, [], 'one comment, updated in place');
    const text = renderedText(comment?.body ?? '');
    assert.match(
      text,
      /^Since the last comment: 1 newly failing \(CIS-2\.4\.4\); 1 no longer failing\.$/m,
    );
    world.emulator.setScanPlan(failing([]), tenantId);
    await world.main(inputs, { event });
    const last = renderedText(world.github.comments.get(13)?.[0]?.body ?? '');
    assert.match(last, /^✅ Tenant scan passed: no failed findings$/m);
    assert.match(last, /^Since the last comment: failed → passed; 2 no longer failing\.$/m);
  });

  it('cut to 1 MiB, the summary keeps its shape and says what it left out', async () => {
    world.emulator.setScanPlan({
      ...QUICK_SCAN,
      outcome: { kind: 'completed', total: 8_000, failed: 8_000 },
    });
    world.emulator.setVariant({ hostileMarkdown: true });
    const step = await world.main({ annotations: '0' });
    const bytes = Buffer.byteLength(step.summary);
    assert.ok(bytes > 900 * 1024 && bytes <= 1024 * 1024, `${bytes} bytes`);
    assert.deepEqual(layoutProblems(step.summary), []);
    assert.match(
      renderedText(step.summary),
      /…and \d+ more failed findings — see the results file/,
    );
  });
});
