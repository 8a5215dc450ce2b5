// The rotation's promises, checked after every command of the model against the emulator's truth
// and the sequence's history: the store holds an active key; a run deletes the key it
// authenticated with only once the store is proven to hold its successor; a key the store held is
// deleted only after the grace since the store moved on from it (or since a run last held it);
// people's keys are never deleted, the start key only with revoke-replaced; at most one key the
// store never held (for a store that can tell); every line tells the truth about what changed; no
// key in any output; and the run ends promptly whatever the store command does.
import { containsSecret } from '../../helpers/secret-scan.js';
import type { RunOutcome, RotateSpec } from './run.js';
import { serviceNow, type KeyTruth, type Sequence } from './world.js';

export interface Snapshot {
  keys: Map<string, KeyTruth>;
  stored: string;
}

export function snapshot(seq: Sequence): Snapshot {
  const keys = seq.keys();
  for (const k of keys) {
    seq.keyValues.add(k.key);
    seq.createdAt.set(k.key, Date.parse(k.createdAt));
  }
  return { keys: new Map(keys.map((k) => [k.id, k])), stored: seq.stored() };
}

const prefixOf = (key: string) => `${key.slice(0, 12)}...${key.slice(-4)}`;
/** A run's end with a store command that misbehaves: its deadlines, never its children's (they
 *  sleep 30 s); wide, for a machine under load. */
const RUN_BOUND_MS = 15_000;

function isActive(s: Snapshot, value: string): boolean {
  return [...s.keys.values()].some((k) => k.key === value);
}

/** Invariants that hold after every command, whatever it was. */
export function checkState(seq: Sequence, before: Snapshot, after: Snapshot): string[] {
  const problems: string[] = [];
  if (!isActive(after, after.stored))
    problems.push(`the store holds ${prefixOf(after.stored)}, which is not an active key`);
  const nowMs = serviceNow(seq.shared);
  for (const [id, key] of before.keys) {
    if (after.keys.has(id)) continue;
    if (seq.humanIds.has(id)) problems.push(`a key people made (${key.name}) was deleted`);
    if (key.key === seq.startKey && !seq.setup.revokeReplaced)
      problems.push('the start key was deleted without revoke-replaced');
    if (!seq.everHeld(key.key) || key.key === after.stored) continue;
    const left = seq.leftAt(key.key) ?? nowMs;
    const held = seq.lastHeldByRun.get(key.key) ?? left;
    const since = Math.min(left, held);
    if (nowMs < since + seq.graceMs)
      problems.push(
        `${prefixOf(key.key)} was deleted ${Math.round((nowMs - since) / 60_000)} min after the store moved on from it or a run last held it, within the grace of ${seq.setup.graceHours} h`,
      );
  }
  if (seq.setup.kind !== 'command') {
    const unstored = [...after.keys.values()].filter(
      (k) => k.name.startsWith('tenant-scan ') && !seq.everHeld(k.key),
    );
    if (unstored.length > 1)
      problems.push(
        `${unstored.length} keys the store never held: ${unstored.map((k) => k.name).join('; ')}`,
      );
  }
  return problems;
}

/** Whether this command's store could prove that it holds the new key. */
function couldProve(seq: Sequence, spec: RotateSpec): boolean {
  if (seq.setup.kind === 'github') return true;
  return seq.setup.kind === 'command-read' && (spec.read === 'ok' || spec.read === 'child');
}

function deletedIn(before: Snapshot, after: Snapshot): KeyTruth[] {
  return [...before.keys.values()].filter((k) => !after.keys.has(k.id));
}

function createdIn(before: Snapshot, after: Snapshot): KeyTruth[] {
  return [...after.keys.values()].filter((k) => !before.keys.has(k.id));
}

/** The key in use goes only once the store is proven to hold a later key: the run's new key, proven
 *  by the store, or a later key a run held before this one (the job got it from the store). */
function checkKeyInUse(
  seq: Sequence,
  spec: RotateSpec,
  run: RunOutcome,
  before: Snapshot,
  after: Snapshot,
) {
  const gone = deletedIn(before, after).some((k) => k.key === run.inUse);
  if (!gone) return [];
  const provenNew = newKeyOf(run, before, after) === after.stored && couldProve(seq, spec);
  const madeAt = seq.createdAt.get(run.inUse) ?? Number.POSITIVE_INFINITY;
  const heldLater = [...seq.lastHeldByRun].some(
    ([value, at]) => at < run.startMs && (seq.createdAt.get(value) ?? 0) > madeAt,
  );
  return provenNew || heldLater
    ? []
    : [
        `the run deleted the key it authenticated with (${prefixOf(run.inUse)}) though the store is not proven to hold a later key`,
      ];
}

/** The key the run created: the one its "Created key" line names, else the one key that is new. */
function newKeyOf(run: RunOutcome, before: Snapshot, after?: Snapshot): string | undefined {
  const said = run.lines.map((l) => /^Created key (\S+)/.exec(l)?.[1]).find((p) => p);
  if (said) return run.masked.find((v) => prefixOf(v) === said);
  const created = after ? createdIn(before, after) : [];
  return created.length === 1 ? created[0]?.key : undefined;
}

/** Every line says what really changed. */
function checkLines(run: RunOutcome, before: Snapshot, after: Snapshot): string[] {
  const problems: string[] = [];
  const deleted = deletedIn(before, after);
  const created = createdIn(before, after);
  const newKey = newKeyOf(run, before, after);
  for (const line of run.lines) {
    const claimed = /^Deleted key ([^\s,(]+)/.exec(line)?.[1];
    // deleted, or made and deleted within the run (a create whose answer was lost)
    const madeAndGone = ![...before.keys.values(), ...after.keys.values()].some(
      (k) => prefixOf(k.key) === claimed,
    );
    if (claimed && !madeAndGone && !deleted.some((k) => prefixOf(k.key) === claimed))
      problems.push(`"${line}" but no key ${claimed} was deleted`);
  }
  if (!run.killed) {
    for (const k of deleted) {
      if (!run.lines.some((l) => l.startsWith(`Deleted key ${prefixOf(k.key)}`)))
        problems.push(`${prefixOf(k.key)} was deleted without a line saying so`);
    }
  }
  const error = run.error;
  if (error !== undefined) {
    if (!/^Rotation failed at [a-z ]+: /.test(error))
      problems.push(`an error line of another kind: ${error}`);
    const same = deleted.length === 0 && created.length === 0 && after.stored === before.stored;
    if (/nothing changed/.test(error) && !same)
      problems.push(
        `"nothing changed" after ${deleted.length} deletion(s), ${created.length} creation(s)${after.stored === before.stored ? '' : ', a store write'}: ${error}`,
      );
    if (/nothing was created/.test(error) && created.length > 0)
      problems.push(`"nothing was created" but a key was: ${error}`);
    if (
      /both are kept/.test(error) &&
      (!isActive(after, run.inUse) || !newKey || !isActive(after, newKey))
    )
      problems.push(`"both are kept" but one is gone: ${error}`);
    if (/is stored and works/.test(error) && after.stored !== newKey)
      problems.push(`"is stored" but the store holds another key: ${error}`);
  }
  if (error && /and none may go/.test(error)) problems.push(...checkCapLine(run, after, error));
  const result = run.result;
  if (result) {
    const revoked = new Set(result.revoked.map((k) => k.id));
    const gone = new Set(deleted.map((k) => k.id));
    if (revoked.size !== gone.size || [...gone].some((id) => !revoked.has(id)))
      problems.push(`the result lists ${revoked.size} deleted key(s), ${gone.size} were`);
    if (!result.kept.every((k) => after.keys.has(k.id)))
      problems.push('the result keeps a key that is gone');
    const proven = result.stored === 'proven';
    if (proven && after.stored !== newKey)
      problems.push('the result says the store holds the new key; it does not');
  }
  return problems;
}

/** A full cap names the keys made after the key in use and the command that deletes them. */
function checkCapLine(run: RunOutcome, after: Snapshot, error: string): string[] {
  const inUse = [...after.keys.values()].find((k) => k.key === run.inUse);
  const newer = [...after.keys.values()].filter(
    (k) => k.name.startsWith('tenant-scan ') && inUse && k.createdAt > inUse.createdAt,
  );
  const unnamed = newer.filter((k) => !error.includes(k.id));
  const problems = unnamed.map(
    (k) => `the full cap's line does not name ${prefixOf(k.key)} (${k.id})`,
  );
  if (!error.includes('tenant-scan keys delete'))
    problems.push("the full cap's line names no command");
  return problems;
}

/** With a grace of 0, a run whose new key is proven stored deletes the key it held. */
function checkGraceZero(
  seq: Sequence,
  spec: RotateSpec,
  run: RunOutcome,
  after: Snapshot,
): string[] {
  if (seq.graceMs !== 0 || !run.result || run.result.stored !== 'proven') return [];
  if (spec.service === 'delete-fail' || spec.service === 'delete-403') return [];
  if (run.inUse === seq.startKey && !seq.setup.revokeReplaced) return [];
  return isActive(after, run.inUse)
    ? [
        `with a grace of 0 the key in use ${prefixOf(run.inUse)} outlived the run that proved its successor stored`,
      ]
    : [];
}

function checkOutputs(seq: Sequence, run: RunOutcome): string[] {
  const texts = [...run.lines, run.error ?? '', run.result ? JSON.stringify(run.result) : ''];
  const leaked = [...seq.keyValues].filter((key) => texts.some((t) => containsSecret(t, key)));
  return leaked.map((key) => `the key ${prefixOf(key)} is in the run's output`);
}

export function checkRun(
  seq: Sequence,
  spec: RotateSpec,
  run: RunOutcome,
  before: Snapshot,
  after: Snapshot,
): string[] {
  const slow =
    run.elapsedMs > RUN_BOUND_MS
      ? [`the run took ${Math.round(run.elapsedMs)} ms (at most ${RUN_BOUND_MS})`]
      : [];
  return [
    ...checkKeyInUse(seq, spec, run, before, after),
    ...checkLines(run, before, after),
    ...checkOutputs(seq, run),
    ...checkGraceZero(seq, spec, run, after),
    ...slow,
  ];
}
