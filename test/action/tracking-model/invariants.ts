// What must hold after each command of the tracking model, read from docs/github.md ("Tracking
// issues", "Whose issues and comments are ours") and guarantee 12, decided from the stand-in's
// state before and after the command, independently of how the tracking code decides it:
// - others' issues and comments (whatever marker or state line they carry) never change, and we
//   never comment on their issues;
// - a run without a verdict, or with a token that may not write issues, changes nothing (the
//   latter says so in one warning naming the permission);
// - `one`: after a run that settles, exactly one open issue of ours when the gate fails (the
//   earliest open one kept, else the earliest reopened, else one opened), none when it passes;
//   other open ones closed as duplicates of the kept one; a comment only when something changed;
// - `per-finding`: one open issue per check that fails the gate, closed when the check no longer
//   fails, left as it is while it fails but is waived; the same duplicate rule; found among the
//   newest 5,000 labelled issues of the account (docs/github.md says so: beyond them a check's
//   issue is not looked for);
// - nothing else of the repository changes.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { oneMarker } from '../../../src/github/tracking/one.js';
import { findingMarker } from '../../../src/github/tracking/per-finding.js';
import type { Issue, IssueComment } from '../../helpers/github-api-standin.js';
import {
  CHECKS,
  KEY,
  LABEL,
  type RunLog,
  type RunSpec,
  type Sequence,
  type Snapshot,
} from './world.js';

const LIST_CAP = 5_000;

function isOurs(seq: Sequence, issue: { user: { id: number } }): boolean {
  return issue.user.id === seq.account.id;
}

/** Issues of ours that carry `marker`, the open ones first, then oldest first. */
function oursWith(seq: Sequence, issues: Iterable<Issue>, marker: string): Issue[] {
  return [...issues]
    .filter(
      (issue) => isOurs(seq, issue) && issue.labels.includes(LABEL) && issue.body.includes(marker),
    )
    .sort((a, b) => Number(b.state === 'open') - Number(a.state === 'open') || a.number - b.number);
}

function ourComments(seq: Sequence, snapshot: Snapshot, issue: number): IssueComment[] {
  return (snapshot.comments.get(issue) ?? []).filter((c) => isOurs(seq, c));
}

/** Our comments added to `issue` between the two snapshots. */
function added(seq: Sequence, before: Snapshot, after: Snapshot, issue: number): string[] {
  return ourComments(seq, after, issue)
    .slice(ourComments(seq, before, issue).length)
    .map((c) => c.body);
}

function hash(identity: string): string {
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}

/** Others' issues and comments are as they were seeded; we wrote nothing on their issues. */
export function othersUntouched(seq: Sequence, now: Snapshot): void {
  for (const [number, seeded] of seq.outsiderIssues) {
    assert.deepEqual(now.issues.get(number), seeded, `someone else's issue #${number} changed`);
    const ours = ourComments(seq, now, number);
    assert.deepEqual(ours, [], `we commented on someone else's issue #${number}`);
  }
  const comments = [...now.comments.values()].flat();
  for (const [id, seeded] of seq.outsiderComments) {
    assert.deepEqual(
      comments.find((c) => c.id === id),
      seeded,
      `someone else's comment ${id} changed`,
    );
  }
  assert.equal(seq.github.requestsFor('issues/update-comment').length, 0, 'no comment is edited');
}

/** A run that may not change anything changed nothing. */
export function nothingChanged(seq: Sequence, before: Snapshot, after: Snapshot): void {
  assert.deepEqual(after.issues, before.issues, 'the issues changed');
  assert.deepEqual(after.comments, before.comments, 'the comments changed');
  const writes = seq.github.requests
    .slice(before.requests)
    .filter((r) => r.method !== 'GET' && r.operationId !== 'graphql' && (r.status ?? 0) < 400);
  assert.deepEqual(
    writes.map((r) => `${r.method} ${r.path}`),
    [],
    'a write went through',
  );
}

/** The read-only or verdict-less run's log: one warning naming the permission when a write was
 *  refused (a run with nothing to write asks for none), else none. */
export function quietLog(seq: Sequence, before: Snapshot, spec: RunSpec, log: RunLog): void {
  if (spec.verdict === 'none') {
    assert.deepEqual(log.warnings, []);
    assert.match(log.infos.join('\n'), /left as they are: the run has no verdict/);
    return;
  }
  const refused = seq.github.requests.slice(before.requests).filter((r) => r.status === 403);
  assert.equal(log.warnings.length, refused.length > 0 ? 1 : 0, log.warnings.join('\n'));
  for (const warning of log.warnings)
    assert.match(
      warning,
      /^Tracking issues skipped: the token may not write issues .*issues: write/,
    );
}

interface Expected {
  /** Issue numbers the run may change (everything else must stay as it was). */
  touched: Set<number>;
  /** New issues of ours it opens, by marker. */
  opened: string[];
}

/** One marker's issues: `keep` (open, else closed and left so) or `close` the thing they track. */
function oneThing(
  seq: Sequence,
  before: Snapshot,
  after: Snapshot,
  candidates: Issue[],
  want: 'open' | 'closed' | 'as-is',
  expected: Expected,
  marker: string,
): { kept?: Issue; reopened: boolean } {
  const open = candidates.filter((i) => i.state === 'open');
  const kept =
    open[0] ??
    (want === 'open' ? [...candidates].sort((a, b) => a.number - b.number)[0] : undefined);
  for (const dup of open.slice(1)) {
    expected.touched.add(dup.number);
    const now = after.issues.get(dup.number);
    assert.equal(
      now?.state,
      'closed',
      `#${dup.number}, a duplicate of #${kept?.number}, is closed`,
    );
    assert.equal(now?.state_reason, 'not_planned');
    assert.deepEqual(added(seq, before, after, dup.number), [
      `Duplicate of #${kept?.number}: another run opened it at the same time.`,
    ]);
  }
  if (want === 'open' && !kept) expected.opened.push(marker);
  if (!kept) return { reopened: false };
  const keptNow = after.issues.get(kept.number);
  if (want === 'as-is') {
    assert.equal(keptNow?.state, kept.state, `#${kept.number} keeps its state`);
    return { kept, reopened: false };
  }
  expected.touched.add(kept.number);
  assert.equal(keptNow?.state, want, `#${kept.number} is ${want}`);
  return { kept, reopened: want === 'open' && kept.state !== 'open' };
}

/** The `one` issue after a run with a verdict and a token that may write. */
export function oneSettled(
  seq: Sequence,
  before: Snapshot,
  after: Snapshot,
  spec: RunSpec,
): Expected {
  const expected: Expected = { touched: new Set(), opened: [] };
  const marker = oneMarker(KEY);
  const failed = spec.verdict === 'failed';
  const candidates = oursWith(seq, before.issues.values(), marker);
  const { kept, reopened } = oneThing(
    seq,
    before,
    after,
    candidates,
    failed ? 'open' : 'closed',
    expected,
    marker,
  );
  if (!kept) return expected;
  const comments = added(seq, before, after, kept.number);
  if (!failed) {
    const closing = kept.state === 'open';
    assert.equal(comments.length, closing ? 1 : 0, comments.join('\n'));
    if (closing)
      assert.match(comments[0] ?? '', /^✅ The gate passes: scan `scan-\d+` .*Closing\.$/);
    return expected;
  }
  const state = /^<!-- tenant-scan-state:([a-z]*):([0-9a-f,]*)(?::[0-9a-f,]*)? -->$/.exec(
    kept.body.split('\n')[1] ?? '',
  );
  const was = new Set((state?.[2] ?? '').split(',').filter((h) => h !== ''));
  const now = new Set(spec.findings.map(({ check }) => hash(CHECKS[check] ?? '')));
  const changed =
    state !== null &&
    ((state[1] !== '' && state[1] !== 'failed') ||
      [...now].some((h) => !was.has(h)) ||
      [...was].some((h) => !now.has(h)));
  assert.equal(
    comments.length,
    reopened || changed ? 1 : 0,
    `comments on #${kept.number}: ${comments.join(' | ')}`,
  );
  return expected;
}

/** The per-finding issues after a run with a verdict and a token that may write. */
export function perFindingSettled(
  seq: Sequence,
  before: Snapshot,
  after: Snapshot,
  spec: RunSpec,
): Expected {
  const expected: Expected = { touched: new Set(), opened: [] };
  const login = seq.account.login.toLowerCase();
  const listed = [...before.issues.values()]
    .filter((i) => i.labels.includes(LABEL) && i.user.login.toLowerCase() === login)
    .sort((a, b) => b.number - a.number)
    .slice(0, LIST_CAP);
  CHECKS.forEach((identity, check) => {
    const marker = findingMarker(KEY, identity);
    const found = spec.findings.filter((f) => f.check === check);
    const want = found.some((f) => f.gating) ? 'open' : found.length > 0 ? 'as-is' : 'closed';
    const { kept, reopened } = oneThing(
      seq,
      before,
      after,
      oursWith(seq, listed, marker),
      want,
      expected,
      marker,
    );
    if (!kept) return;
    const comments = added(seq, before, after, kept.number);
    if (reopened)
      assert.match(
        comments.join('\n'),
        /^❌ \*\*Failing again\*\* in scan `scan-\d+`, after it was fixed\.$/,
      );
    else if (want === 'closed' && kept.state === 'open')
      assert.match(
        comments.join('\n'),
        /^✅ \*\*Fixed:\*\* the check no longer fails in scan `scan-\d+`\. Closing\.$/,
      );
    else assert.deepEqual(comments, [], `no comment on #${kept.number}`);
  });
  return expected;
}

/** What the run opened is what was expected, and it changed nothing it had no reason to. */
export function nothingElse(
  seq: Sequence,
  before: Snapshot,
  after: Snapshot,
  expected: Expected,
): void {
  const opened = [...after.issues.values()].filter((i) => !before.issues.has(i.number));
  const markers = opened.map((i) => {
    assert.ok(
      isOurs(seq, i) && i.state === 'open' && i.labels.includes(LABEL),
      `#${i.number} opened as ours`,
    );
    assert.deepEqual(added(seq, before, after, i.number), [], `no comment on the new #${i.number}`);
    return (
      expected.opened.find((m) => i.body.startsWith(`${m}\n`)) ??
      `#${i.number}: ${i.body.split('\n')[0]}`
    );
  });
  assert.deepEqual(markers.sort(), [...expected.opened].sort(), 'the issues opened');
  for (const [number, was] of before.issues) {
    if (expected.touched.has(number)) continue;
    assert.deepEqual(after.issues.get(number), was, `#${number} had no reason to change`);
    assert.deepEqual(
      after.comments.get(number),
      before.comments.get(number),
      `#${number}'s comments`,
    );
  }
}

/** After runs that overlapped: at most one open issue of ours per thing per run. */
export function overlapBounded(seq: Sequence, after: Snapshot, runs: number): void {
  for (const marker of [oneMarker(KEY), ...CHECKS.map((c) => findingMarker(KEY, c))]) {
    const open = oursWith(seq, after.issues.values(), marker).filter((i) => i.state === 'open');
    assert.ok(open.length <= runs, `${open.length} open issues of ours carry ${marker}`);
  }
}
