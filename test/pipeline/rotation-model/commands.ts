// The commands of the rotation's model (fast-check's fc.commands): a rotation (with a misbehaving
// store, a fault of the service, a kill, or holding an older key), time passing, a clock skewed,
// a key people add (towards the 10-key cap). Each checks the invariants after it ran.
import fc from 'fast-check';
import { checkRun, checkState, snapshot } from './invariants.js';
import {
  READ_MODES,
  SERVICE_FAULTS,
  STORE_MODES,
  runRotation,
  type RotateSpec,
  type RunOutcome,
} from './run.js';
import { HOUR, MINUTE, advance, type Sequence } from './world.js';

type Command = fc.AsyncCommand<Sequence, Sequence>;

/** A job starts seconds after the one before it (a runner is picked, the checkout made). */
const JOB_START_MS = 2_000;

function fail(seq: Sequence, what: string, problems: string[]): void {
  if (problems.length === 0) return;
  throw new Error(
    `${what}: ${problems.join('; ')}\n--- the sequence so far (${seq.setup.kind}, grace ${seq.setup.graceHours} h${seq.setup.revokeReplaced ? ', revoke-replaced' : ''}, ${seq.setup.humanKeys} people's keys):\n${seq.journal.join('\n')}`,
  );
}

function describeRun(spec: RotateSpec): string {
  const parts = [
    spec.rerun !== null ? `rerun#${spec.rerun}` : '',
    spec.store !== 'ok' ? `store:${spec.store}` : '',
    spec.read !== 'ok' ? `read:${spec.read}` : '',
    spec.service !== 'none' ? spec.service : '',
    spec.kill ? `kill@${spec.kill.at}${spec.kill.after ? '+' : '-'}` : '',
  ].filter((p) => p !== '');
  return `rotate(${parts.join(' ')})`;
}

/** What the runs went through, for the tally the property prints (a green run shows what it met). */
const PATHS: Array<[string, RegExp]> = [
  ['killed', /→ killed$/],
  ['succeeded', /→ ok: /],
  ['a key never stored deleted before the create', /: it was never stored$/],
  ['stopped: a key never stored is recent', /less than 30 minutes ago/],
  ['stopped: the store cannot tell', /cannot be told|could not read when/],
  ['the cap full', /and none may go/],
  ['a replaced key deleted after the grace', /^ {4}Deleted key ak_live_\S+ \(/],
  ['the key in use followed long ago', /^ {4}The key in use/],
  ['both keys kept (the store may hold either)', /both are kept and work/],
  ['the store did not take the write (read back)', /does not hold the new key/],
  ['a store command exited 0 without proof', /the store cannot be read back, so that it holds/],
];

function tally(seq: Sequence, lines: readonly string[]): void {
  for (const [path, pattern] of PATHS) {
    const hits = lines.filter((l) => pattern.test(l)).length;
    if (hits > 0) seq.shared.tally.set(path, (seq.shared.tally.get(path) ?? 0) + hits);
  }
}

function journalRun(seq: Sequence, spec: RotateSpec, run: RunOutcome): void {
  const end = run.killed
    ? 'killed'
    : (run.error ?? `ok: ${JSON.stringify(run.result?.revoked.map((k) => k.keyPrefix))}`);
  const entry = [
    `${describeRun(spec)} holding ${run.inUse.slice(0, 12)}… → ${end}`,
    ...run.lines.map((line) => `    ${line}`),
  ];
  seq.journal.push(...entry);
  tally(seq, entry);
}

class Rotate implements Command {
  constructor(readonly spec: RotateSpec) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    advance(seq.shared, JOB_START_MS);
    const before = snapshot(seq);
    const run = await runRotation(seq, this.spec);
    const after = snapshot(seq);
    journalRun(seq, this.spec, run);
    fail(seq, describeRun(this.spec), [
      ...checkState(seq, before, after),
      ...checkRun(seq, this.spec, run, before, after),
    ]);
  }
  toString = () => describeRun(this.spec);
}

class Advance implements Command {
  constructor(readonly ms: number) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    advance(seq.shared, this.ms);
    seq.journal.push(this.toString());
  }
  toString = () =>
    `advance(${this.ms >= HOUR ? `${this.ms / HOUR} h` : `${this.ms / MINUTE} min`})`;
}

class Skew implements Command {
  constructor(
    readonly githubMs: number,
    readonly dateMs: number,
  ) {}
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    seq.shared.githubSkewMs = this.githubMs;
    seq.shared.githubDateSkewMs = this.dateMs;
    seq.journal.push(this.toString());
  }
  toString = () =>
    `skew(github ${this.githubMs / MINUTE} min, its Date ${this.dateMs / MINUTE} min)`;
}

class AddKey implements Command {
  check = () => true;
  async run(_m: Sequence, seq: Sequence): Promise<void> {
    const before = snapshot(seq);
    if (before.keys.size >= 10) return;
    const key = seq.shared.emu.addKey(seq.tenantId, `team extra ${seq.humanIds.size}`);
    const id = seq.keys().find((k) => k.key === key)?.id;
    if (id) seq.humanIds.add(id);
    seq.keyValues.add(key);
    seq.journal.push(this.toString());
  }
  toString = () => 'addKeyByHand()';
}

/** `arbitrary` one time in `oneIn`, else null. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, oneIn: number): fc.Arbitrary<T | null> =>
  fc.oneof({ weight: oneIn - 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary });

const rotateSpec: fc.Arbitrary<RotateSpec> = fc.record({
  rerun: sometimes(fc.nat(3), 6),
  store: fc.oneof(
    { weight: 4, arbitrary: fc.constant('ok' as const) },
    { weight: 3, arbitrary: fc.constantFrom(...STORE_MODES) },
  ),
  read: fc.oneof(
    { weight: 5, arbitrary: fc.constant('ok' as const) },
    { weight: 2, arbitrary: fc.constantFrom(...READ_MODES) },
  ),
  service: fc.oneof(
    { weight: 6, arbitrary: fc.constant('none' as const) },
    { weight: 1, arbitrary: fc.constantFrom(...SERVICE_FAULTS) },
  ),
  kill: sometimes(fc.record({ at: fc.nat(11), after: fc.boolean() }), 4),
});

const ADVANCES = [
  2_000,
  MINUTE,
  10 * MINUTE,
  31 * MINUTE,
  2 * HOUR,
  23 * HOUR,
  25 * HOUR,
  49 * HOUR,
];
const SKEWS = [-3 * HOUR, -10 * MINUTE, 0, 10 * MINUTE, 3 * HOUR];

export const modelCommands = [
  rotateSpec.map((spec): Command => new Rotate(spec)),
  rotateSpec.map((spec): Command => new Rotate(spec)),
  rotateSpec.map((spec): Command => new Rotate(spec)),
  fc.constantFrom(...ADVANCES).map((ms): Command => new Advance(ms)),
  fc.constantFrom(...ADVANCES).map((ms): Command => new Advance(ms)),
  fc
    .tuple(fc.constantFrom(...SKEWS), fc.constantFrom(...SKEWS))
    .map(([g, d]): Command => new Skew(g, d)),
  fc.constant(null).map((): Command => new AddKey()),
];
