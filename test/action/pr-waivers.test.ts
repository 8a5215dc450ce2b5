// Waivers a pull request adds or extends (issue 31), on the bundled action: the pull request's
// waivers file is compared with the base branch's, read from the GitHub stand-in's contents API at
// the base commit of the event, and each new or extended waiver is named in the job summary and
// the PR comment; when the base file cannot be read, every waiver is named as not compared.
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ScanPlan } from '../emulator/types.js';
import { renderedText } from '../helpers/gfm.js';
import { createJobDirectory, type JobDirectory } from '../helpers/runner.js';
import { QUICK_SCAN, startWorld, visibleLog, type World } from './world.js';

const BASE_SHA = 'ba5eba5eba5eba5eba5eba5eba5eba5eba5eba5e';
const FILE = '.tenant-scan/waivers.yml';

function day(offsetDays: number): string {
  return new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);
}

function waiversFile(entries: Array<[check: string, expires: string, reason: string]>): string {
  const lines = entries.map(
    ([check, expires, reason]) =>
      `  - check: ${check}\n    reason: ${reason}\n    expires: ${expires}\n`,
  );
  return `waivers:\n${lines.join('')}`;
}

async function workspaceWith(text: string): Promise<JobDirectory> {
  const job = await createJobDirectory();
  await mkdir(join(job.workspace, '.tenant-scan'), { recursive: true });
  await writeFile(join(job.workspace, FILE), text);
  return job;
}

function pullRequest(number: number) {
  return {
    name: 'pull_request',
    payload: {
      pull_request: {
        number,
        head: { sha: 'feedfacefeedfacefeedfacefeedfacefeedface', ref: 'feature' },
        base: { sha: BASE_SHA, ref: 'main' },
      },
    },
  };
}

const failing: ScanPlan = {
  ...QUICK_SCAN,
  outcome: {
    kind: 'completed',
    total: 40,
    failed: 0,
    failedChecks: ['CIS-1.1.1', 'CIS-1.1.2', 'CIS-1.1.4'],
  },
};

describe('action: waivers a pull request adds or extends', () => {
  let world: World;
  before(async () => {
    world = await startWorld();
    world.emulator.setScanPlan(failing);
    world.github.setFile(
      BASE_SHA,
      FILE,
      waiversFile([
        ['CIS-1.1.2', day(10), 'Accepted until the migration'],
        ['CIS-1.1.4', day(90), 'Vendor fix pending'],
      ]),
    );
  });
  after(() => world.close());

  it('a new waiver and an extended one are named in the summary and the PR comment; an unchanged one is not', async () => {
    const job = await workspaceWith(
      waiversFile([
        ['CIS-1.1.1', day(200), 'Mine, @octocat'],
        ['CIS-1.1.2', day(300), 'Accepted until the migration'],
        ['CIS-1.1.4', day(90), 'Vendor fix pending'],
      ]),
    );
    const step = await world.main(
      { 'pr-comment': 'true', 'fail-on-findings': 'false' },
      { job, event: pullRequest(21) },
    );
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.equal(step.outputs.waived, '3', 'the waivers still waive: they are named, not refused');
    const [comment] = world.github.comments.get(21) ?? [];
    for (const body of [step.summary, comment?.body ?? '']) {
      const text = renderedText(body);
      assert.match(text, /⚠️ This pull request adds 1 waiver and extends 1 waiver in /);
      assert.match(text, new RegExp(`CIS-1\\.1\\.1 \\| ${day(200)} \\(new\\) \\| Mine, @octocat`));
      assert.match(text, new RegExp(`CIS-1\\.1\\.2 \\| ${day(300)} \\(was ${day(10)}\\)`));
      assert.doesNotMatch(text, /CIS-1\.1\.4 \| /);
    }
    const reads = world.github.requestsFor('repos/get-content');
    assert.equal(reads.length, 1);
    assert.equal(new URL(reads[0]?.url ?? '', world.github.url).searchParams.get('ref'), BASE_SHA);
    assert.match(
      step.stdout,
      /Waivers this pull request adds or extends .*: CIS-1\.1\.1, CIS-1\.1\.2/,
    );
  });

  it('the same waivers as the base branch: nothing named', async () => {
    const job = await workspaceWith(
      waiversFile([
        ['CIS-1.1.2', day(10), 'Accepted until the migration'],
        ['CIS-1.1.4', day(60), 'Shortened'],
      ]),
    );
    const step = await world.main({ 'fail-on-findings': 'false' }, { job, event: pullRequest(22) });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.doesNotMatch(step.summary, /This pull request adds|extends|not compared/);
  });

  it('the base file cannot be read: every waiver is named as not compared', async () => {
    world.github.failNext('repos/get-content', {
      status: 403,
      body: { message: 'Resource not accessible by integration' },
    });
    const job = await workspaceWith(waiversFile([['CIS-1.1.4', day(90), 'Vendor fix pending']]));
    const step = await world.main({ 'fail-on-findings': 'false' }, { job, event: pullRequest(23) });
    const text = renderedText(step.summary);
    assert.match(
      text,
      /⚠️ Waivers not compared with the base branch \(the base branch's \.tenant-scan\/waivers\.yml could not be read \(403 .*grant contents: read\)\)/,
    );
    assert.match(text, /CIS-1\.1\.4 \| /);
  });

  it('outside a pull request: no comparison, no request', async () => {
    const job = await workspaceWith(waiversFile([['CIS-1.1.1', day(200), 'x']]));
    const before = world.github.requests.length;
    const step = await world.main({ 'fail-on-findings': 'false' }, { job });
    assert.equal(step.exitCode, 0, visibleLog(step));
    assert.equal(world.github.requests.length, before);
    assert.doesNotMatch(step.summary, /This pull request/);
  });
});
