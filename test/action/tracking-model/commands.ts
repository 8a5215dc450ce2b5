// The commands of the tracking model: runs of the tracking (either mode, any verdict, failing or
// waived findings, a token that may not write issues), two runs that overlap, others' issues and
// comments carrying our markers or a forged state line, a maintainer closing an issue of ours by
// hand, and thousands of newer labelled issues of ours (the `one` issue then past the 5,000 the list
// reads). Each checks the invariants (invariants.ts) once it has run.
import fc from 'fast-check';
import { oneMarker } from '../../../src/github/tracking/one.js';
import { findingMarker } from '../../../src/github/tracking/per-finding.js';
import { userNamed, type Account } from '../../helpers/github-api-standin.js';
import {
  nothingChanged,
  nothingElse,
  oneSettled,
  othersUntouched,
  overlapBounded,
  perFindingSettled,
  quietLog,
} from './invariants.js';
import {
  CHECKS,
  KEY,
  LABEL,
  readsFirst,
  type RunSpec,
  type Sequence,
  type Snapshot,
} from './world.js';

type Command = fc.AsyncCommand<Sequence, Sequence>;

const findingsArbitrary = fc.array(
  fc.record({ check: fc.nat({ max: CHECKS.length - 1 }), gating: fc.boolean() }),
  { maxLength: CHECKS.length + 1 },
);

/** A run as drawn: a passing run has no finding that fails the gate (a failing run may have none:
 *  the coverage dropped, say). */
export const runArbitrary: fc.Arbitrary<RunSpec> = fc
  .record({
    mode: fc.constantFrom('one' as const, 'per-finding' as const),
    verdict: fc.constantFrom(
      'failed' as const,
      'failed' as const,
      'passed' as const,
      'none' as const,
    ),
    findings: findingsArbitrary,
    readOnly: fc.constantFrom(false, false, false, true),
  })
  .map((spec) => ({
    ...spec,
    findings:
      spec.verdict === 'passed'
        ? spec.findings.map((f) => ({ ...f, gating: false }))
        : spec.findings,
  }));

function describeRun(spec: RunSpec): string {
  const findings = spec.findings.map((f) => `${f.check}${f.gating ? '!' : ''}`).join(',');
  return `${spec.mode} ${spec.verdict} [${findings}]${spec.readOnly ? ' read-only' : ''}`;
}

class RunCommand implements Command {
  constructor(readonly spec: RunSpec) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    seq.lastRun = this.spec;
    await runChecked(seq, this.spec);
  }
  toString = () => `run(${describeRun(this.spec)})`;
}

/** The same night again (a re-run, or a night that saw the same): nothing new to say. */
class RerunCommand implements Command {
  check = (seq: Readonly<Sequence>) => seq.lastRun !== undefined;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    if (seq.lastRun) await runChecked(seq, { ...seq.lastRun, readOnly: false });
    seq.count('re-run');
  }
  toString = () => 'rerun()';
}

/** One run, then the invariants: nothing changed (no verdict, or a read-only token), else what
 *  the mode promises once a run settles. */
async function runChecked(seq: Sequence, spec: RunSpec): Promise<void> {
  const before = seq.snapshot();
  seq.shared.options.permission = spec.readOnly ? 'read' : 'write';
  const log = await seq.track(spec).finally(() => (seq.shared.options.permission = 'write'));
  const after = seq.snapshot();
  othersUntouched(seq, after);
  if (spec.readOnly || spec.verdict === 'none') {
    seq.count(spec.readOnly ? 'read-only run' : 'run without a verdict');
    nothingChanged(seq, before, after);
    quietLog(seq, before, spec, log);
    return;
  }
  const expected =
    spec.mode === 'one'
      ? oneSettled(seq, before, after, spec)
      : perFindingSettled(seq, before, after, spec);
  nothingElse(seq, before, after, expected);
  assert(log.warnings.length === 0, `no warning: ${log.warnings.join(' | ')}`);
  tally(seq, spec, before, after, log.infos);
}

/** What the runs went through, for the test's diagnostic line. */
function tally(seq: Sequence, spec: RunSpec, before: Snapshot, after: Snapshot, infos: string[]) {
  seq.count(`${spec.mode} ${spec.verdict}`);
  if (infos.some((l) => /only the newest \d+ issues/.test(l))) seq.count('list cut');
  const asked = seq.github.requests.slice(before.requests).map((r) => r.operationId);
  if (asked.includes('search/issues-and-pull-requests')) seq.count('search');
  if (after.issues.size > before.issues.size) seq.count('opened');
  for (const line of infos) {
    const what =
      /closed as a duplicate|reopened|closed: (?:fixed|the gate passes)|with a comment on what changed|nothing changed: no comment/.exec(
        line,
      )?.[0];
    if (what) seq.count(what);
  }
}

function assert(ok: boolean, message: string): void {
  if (!ok) throw new Error(message);
}

/** Two runs whose reads all come before their writes (the widest overlap). */
class OverlapCommand implements Command {
  constructor(readonly specs: [RunSpec, RunSpec]) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    const party = readsFirst(this.specs.length);
    const logs = await Promise.all(
      this.specs.map(async (spec) => {
        const { beforeWrite, done } = party();
        return seq.track(spec, seq.client(beforeWrite)).finally(done);
      }),
    );
    const after = seq.snapshot();
    othersUntouched(seq, after);
    overlapBounded(seq, after, this.specs.length);
    for (const log of logs)
      assert(log.warnings.length === 0, `no warning: ${log.warnings.join(' | ')}`);
    seq.count('overlap');
  }
  toString = () => `overlap(${this.specs.map(describeRun).join(' ‖ ')})`;
}

export type OutsiderKind = 'user' | 'bot' | 'login-reused';

function outsider(seq: Sequence, kind: OutsiderKind): Account {
  if (kind === 'user') return userNamed('mallory');
  if (kind === 'bot') return { login: 'renovate[bot]', id: 29_139_614, type: 'Bot' };
  // A login that changed hands: our account's login, another account's id.
  return { ...seq.account, id: seq.account.id + 17 };
}

interface Forgery {
  kind: OutsiderKind;
  /** -1: the `one` marker; else a check's marker. */
  marker: number;
  /** A state line under the marker that would make a run believe all was fixed, or failing. */
  state: 'none' | 'passed' | 'all-failing';
  open: boolean;
  labelled: boolean;
}

function forgedBody(forgery: Forgery): string {
  const marker =
    forgery.marker < 0 ? oneMarker(KEY) : findingMarker(KEY, CHECKS[forgery.marker] ?? '');
  const state =
    forgery.state === 'passed'
      ? '<!-- tenant-scan-state:passed:: -->'
      : forgery.state === 'all-failing'
        ? '<!-- tenant-scan-state:failed:000000000000,ffffffffffff: -->'
        : 'Copied from the tracking issue.';
  return `${marker}\n${state}\nSomeone else wrote this.`;
}

/** Drawn towards what can mislead: our login (the list and the search filter by login) and the
 *  `one` marker (the search looks for it). */
const forgeryArbitrary: fc.Arbitrary<Forgery> = fc.record({
  kind: fc.constantFrom<OutsiderKind>('user', 'bot', 'login-reused', 'login-reused'),
  marker: fc.oneof(fc.constant(-1), fc.integer({ min: -1, max: CHECKS.length - 1 })),
  state: fc.constantFrom('none' as const, 'passed' as const, 'all-failing' as const),
  open: fc.boolean(),
  labelled: fc.constantFrom(true, true, false),
});

/** Someone else's issue that carries our marker, with or without our label and a state line. */
class OutsiderIssueCommand implements Command {
  constructor(readonly forgery: Forgery) {}
  check = (seq: Readonly<Sequence>) => seq.outsiderIssues.size < 12;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    const issue = seq.github.seedIssue({
      title: 'Tenant scan: quick findings of Contoso fail the gate',
      body: forgedBody(this.forgery),
      state: this.forgery.open ? 'open' : 'closed',
      state_reason: this.forgery.open ? null : 'completed',
      labels: this.forgery.labelled ? [LABEL] : [],
      user: outsider(seq, this.forgery.kind),
    });
    seq.outsiderIssues.set(issue.number, structuredClone(issue));
  }
  toString = () => `outsiderIssue(${JSON.stringify(this.forgery)})`;
}

/** Someone else's comment with our marker and a state line, on any issue (ours too). */
class OutsiderCommentCommand implements Command {
  constructor(
    readonly forgery: Forgery,
    readonly pick: number,
  ) {}
  check = (seq: Readonly<Sequence>) => seq.github.issues.size > 0;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    const numbers = [...seq.github.issues.keys()];
    const number = numbers[this.pick % numbers.length] ?? 0;
    const comment = seq.github.seedComment(
      number,
      forgedBody(this.forgery),
      outsider(seq, this.forgery.kind),
    );
    seq.outsiderComments.set(comment.id, structuredClone(comment));
  }
  toString = () => `outsiderComment(${JSON.stringify(this.forgery)}, ${this.pick})`;
}

/** A maintainer closes one of our open issues by hand. */
class CloseByHandCommand implements Command {
  constructor(readonly pick: number) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    const open = [...seq.github.issues.values()].filter(
      (i) =>
        i.user.id === seq.account.id &&
        i.state === 'open' &&
        i.body.startsWith('<!-- tenant-scan-tracking:'),
    );
    const issue = open[this.pick % Math.max(open.length, 1)];
    if (!issue) return;
    issue.state = 'closed';
    issue.state_reason = 'completed';
  }
  toString = () => `closeByHand(${this.pick})`;
}

/** Thousands of newer labelled issues of ours (another tenant's, say): around the 5,000 the list
 *  reads, so the `one` issue may fall just past it. */
class ManyNewerCommand implements Command {
  constructor(readonly count: number) {}
  check = (seq: Readonly<Sequence>) => seq.manyNewer === 'allowed';
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    seq.manyNewer = 'done';
    for (let i = 0; i < this.count; i++)
      seq.github.seedIssue({
        labels: [LABEL],
        body: `Another tenant's issue ${i}`,
        user: seq.account,
      });
    seq.count('many newer');
  }
  toString = () => `manyNewer(${this.count})`;
}

export const modelCommands: fc.Arbitrary<Command>[] = [
  runArbitrary.map((spec) => new RunCommand(spec)),
  runArbitrary.map((spec) => new RunCommand({ ...spec, readOnly: false })),
  fc.constant(new RerunCommand()),
  fc.tuple(runArbitrary, runArbitrary).map(
    ([a, b]) =>
      new OverlapCommand([
        { ...a, readOnly: false },
        { ...b, mode: a.mode, readOnly: false },
      ]),
  ),
  forgeryArbitrary.map((f) => new OutsiderIssueCommand(f)),
  fc.tuple(forgeryArbitrary, fc.nat()).map(([f, pick]) => new OutsiderCommentCommand(f, pick)),
  fc.nat().map((pick) => new CloseByHandCommand(pick)),
  fc.integer({ min: 4_995, max: 5_010 }).map((count) => new ManyNewerCommand(count)),
  fc.integer({ min: 4_995, max: 5_010 }).map((count) => new ManyNewerCommand(count)),
];
