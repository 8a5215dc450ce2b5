// The trust issue against the bundled action, run as the runner runs it: a gate that fails closed
// (results that are not a list, null, pages that never end, a read that disagrees with the scan's
// counts), service text that reaches GitHub as plain text only (summary, PR comment, check run),
// the key a service echoes written nowhere, a scan id that is not a plain identifier never used,
// and output paths that stay in the workspace.
import assert from 'node:assert/strict';
import { mkdir, readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { HOSTILE_SCAN_ID_PREFIX } from '../emulator/routes/scans.js';
import { isOurMarker, liveMarkup } from '../helpers/gfm.js';
import { createJobDirectory, type StepResult } from '../helpers/runner.js';
import {
  findSecretInDirectory,
  findSecretInRequests,
  findSecretInTexts,
} from '../helpers/secret-scan.js';
import { apiRequests, errorLines, useWorld, visibleLog } from './world.js';

const PR_EVENT = {
  name: 'pull_request',
  payload: {
    pull_request: { number: 9, head: { sha: 'cd'.repeat(20), ref: 'f' }, base: { ref: 'main' } },
  },
};

/** The PR comment's own hidden lines: its marker and its state (hashes, no service text). */
function assertNoVerdict(step: StepResult, line: RegExp): void {
  assert.equal(step.exitCode, 1, visibleLog(step));
  assert.equal(step.outputs.verdict, '');
  const errors = errorLines(step);
  assert.equal(errors.length, 1, errors.join('\n'));
  assert.match(errors[0] ?? '', line);
  assert.doesNotMatch(step.summary, /✅|passed/);
}

describe('action: the gate fails closed', () => {
  const world = useWorld();

  for (const [name, data, words] of [
    ['a string', 'ok', 'data is a string'],
    ['null', null, 'data is null'],
  ] as const) {
    it(`results answered with ${name}: one Results line, no verdict`, async () => {
      world.emulator.addFault({
        route: 'GET /scans/:id/results',
        fault: { kind: 'data', data },
        times: Infinity,
      });
      const step = await world.main();
      assertNoVerdict(
        step,
        new RegExp(
          `^Results failed: GET /scans/[\\w-]+/results: page 1 is not a list of results \\(${words}\\)$`,
        ),
      );
    });
  }

  it('pages whose cursor never ends: stopped at the page cap, no verdict', async () => {
    world.emulator.setScanPlan({
      durationMs: 500,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 0 },
    });
    world.emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'endless-cursor' },
      times: Infinity,
    });
    const step = await world.main();
    assertNoVerdict(
      step,
      /^Results failed: GET \/scans\/[\w-]+\/results: more pages followed after 5000; stopped, the list was not read whole$/,
    );
  });

  it('a read that shows fewer failed results than the scan counts: read again, then no verdict', async () => {
    world.emulator.addFault({
      route: 'GET /scans/:id/results',
      fault: { kind: 'drop-failed' },
      times: Infinity,
    });
    const step = await world.main();
    assertNoVerdict(
      step,
      /^Results failed: GET \/scans\/[\w-]+\/results: the scan's counts say 5 failed but the results read shows 0, also when read again; no verdict rests on a read that is not whole$/,
    );
    assert.equal(apiRequests(world.emulator, 'GET', /\/results$/).length, 2);
  });

  it('a short read that the second read completes gives the right verdict', async () => {
    world.emulator.addFault({ route: 'GET /scans/:id/results', fault: { kind: 'drop-failed' } });
    const step = await world.main();
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    assert.equal(step.outputs.failed, '5');
    assert.match(
      visibleLog(step),
      /The scan's counts say 5 failed but the results read shows 0: reading them again/,
    );
  });
});

describe('action: service text reaches GitHub as plain text only', () => {
  const world = useWorld();

  it('mentions, references, images, HTML and links in every field: none live in summary, comment or check run; the echoed key nowhere, in any form', async () => {
    world.emulator.setVariant({ hostileMarkdown: true, echoKey: true });
    const key = world.emulator.apiKey;
    const result = await world.job(
      {
        'check-run': 'true',
        'pr-comment': 'true',
        'junit-file': 'junit.xml',
        'sarif-file': 'r.sarif',
        annotations: '10',
        'tracking-issue': 'per-finding',
        'tracking-labels': 'echo-test',
      },
      { event: PR_EVENT },
    );
    const step = result.main;
    assert.equal(step.outputs.verdict, 'failed', visibleLog(step));
    const references = /^https:\/\/docs\.example\.com\//;
    // Our own: the reference links (https only), the comment's hidden marker and its link to the
    // run (the job summary).
    const ourRun = /^https:\/\/github\.com\/octo-org\/octo-repo\/actions\/runs\/\d+$/;
    const allowed = (markdown: string) =>
      liveMarkup(markdown).filter(
        (m) =>
          !(m.kind === 'link' && (references.test(m.text) || ourRun.test(m.text))) &&
          !(m.kind === 'html' && isOurMarker(m.text)),
      );
    assert.deepEqual(allowed(step.summary), [], 'job summary');
    const comment = world.github.comments.get(9)?.at(-1)?.body ?? '';
    assert.ok(comment.length > 0, 'a PR comment was posted');
    assert.deepEqual(allowed(comment), [], 'PR comment');
    const run = world.github.checkRuns.at(-1);
    assert.deepEqual(allowed(run?.output.summary ?? ''), [], 'check run summary');
    assert.match(step.summary, /`@octocat`/, 'the text is still shown');
    assert.match(step.summary, /\\\[redacted\\\]/, 'the service did echo the key');
    // The key the service echoed: in no file, log, output or body sent to GitHub, whatever the
    // Markdown escaping did to it.
    for (const text of [step.summary, comment, run?.output.summary ?? '']) {
      assert.doesNotMatch(text.replace(/\\/g, ''), new RegExp(key));
    }
    for (const s of [result.main, result.post]) {
      if (!s) continue;
      const texts = { log: visibleLog(s), outputs: JSON.stringify(s.outputs), summary: s.summary };
      assert.deepEqual(findSecretInTexts(key, texts), []);
    }
    assert.deepEqual(await findSecretInDirectory(key, result.job.root), []);
    assert.deepEqual(findSecretInRequests(key, world.github.requests, 'github'), []);
    const issues = [...world.github.issues.values()].filter((i) => i.labels.includes('echo-test'));
    assert.equal(issues.length, 5, 'a tracking issue per failing check');
    for (const { title, body } of issues)
      assert.deepEqual(findSecretInTexts(key, { title, body }), []);
    // The runner masks the secret part too: the form a service is likeliest to echo alone.
    const part = key.slice('ak_live_'.length);
    assert.ok(step.masks.includes(key) && step.masks.includes(part), 'both masked');
  });
});

describe('action: ids and paths', () => {
  const world = useWorld();

  it('a scan id that is not a plain identifier: Trigger failed, the scan cancelled, no output', async () => {
    world.emulator.setScanPlan({
      durationMs: 60_000,
      queuedMs: 50,
      outcome: { kind: 'completed', total: 40, failed: 5 },
    });
    world.emulator.setVariant({ hostileScanIds: true });
    const step = await world.main();
    assertNoVerdict(
      step,
      /^Trigger failed: the service returned a scan id that is not a plain identifier \(".*"\); the scan was cancelled remotely$/,
    );
    assert.equal(step.outputs['scan-id'], '');
    const [scan] = world.emulator.scans();
    assert.ok(scan?.id.startsWith(HOSTILE_SCAN_ID_PREFIX));
    assert.equal(scan?.status, 'cancelled');
    assert.doesNotMatch(JSON.stringify(step.outputs), /touch pwned/);
    assert.deepEqual(liveMarkup(step.summary), []);
  });

  it('an output path that leaves the workspace through a symlink: one line, nothing sent', async () => {
    const job = await createJobDirectory();
    await mkdir(join(job.workspace, 'out'));
    await symlink('/tmp', join(job.workspace, 'out', 'link'));
    const step = await world.main({ 'sarif-file': 'out/link/r.sarif' }, { job });
    assert.equal(step.exitCode, 1);
    assert.deepEqual(errorLines(step), [
      `Sanity checks failed: input 'sarif-file' "out/link/r.sarif" is outside the workspace (GITHUB_WORKSPACE) or RUNNER_TEMP: give a path inside it (a relative path is relative to the workspace)`,
    ]);
    assert.equal(world.emulator.requests().length, 0);
    assert.deepEqual(await readdir(join(step.job.workspace, 'out')), ['link']);
  });
});
