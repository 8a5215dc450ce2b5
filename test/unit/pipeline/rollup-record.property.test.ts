// Guarantee 15, "A record is evidence, not a verdict" (docs/guarantees.md): for any record —
// consistent with itself or contradicting itself in any field the judgement reads — the roll-up
// passes a tenant exactly when a re-judgement written here, from the row and docs/gate.md, finds
// that the record's own failed findings pass its own gate and nothing in it says otherwise. And a
// record nested deeper than 32 levels, of any shape, is `unreadable` for its nesting, before it is
// parsed (the look at its brackets agrees with the depth of the parsed document, strings aside).
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  RollupBuilder,
  readRecords,
  summarize,
  type RecordEntry,
} from '../../../src/pipeline/index.js';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../../../src/pipeline/rollup/records.js';
import { propertyParameters } from '../../helpers/property.js';

const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
const RANK: Record<string, number> = { critical: 0, high: 1, medium: 2, low: 3, info: 4 };

const finding = fc.record(
  {
    checkId: fc.constantFrom('CIS-1', 'CIS-2', 'EIDSCA.AP01'),
    title: fc.constantFrom('Title', 'Another title'),
    severity: fc.constantFrom(...SEVERITIES, 'unknown'),
    result: fc.constantFrom('Failed', 'failed', ' FAIL ', 'Passed', 'Skipped', ''),
    gating: fc.oneof(fc.boolean(), fc.constantFrom('yes', null)),
    baselineState: fc.constantFrom('new', 'unchanged', 'absent', undefined),
    waiver: fc.constantFrom(
      { reason: 'accepted', expires: '2099-01-01', owner: null },
      null,
      [],
      'waived',
      undefined,
    ),
    overdue: fc.constantFrom(true, false, 'yes', undefined),
  },
  { requiredKeys: ['checkId', 'title', 'severity', 'result'] },
);

const recordDocument = fc
  .record({
    verdict: fc.constantFrom('passed', 'failed', null),
    phase: fc.constantFrom('succeeded', 'failed', 'running', undefined),
    gate: fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          failOnSeverity: fc.constantFrom(...SEVERITIES, 'severe'),
          failOn: fc.constantFrom('any', 'new', 'overdue', 'all'),
          failing: fc.oneof(fc.nat({ max: 4 }), fc.constant('0')),
        }),
      },
      { weight: 1, arbitrary: fc.constantFrom(null, 'any') },
    ),
    findings: fc.array(finding, { maxLength: 5 }),
    failedDelta: fc.constantFrom(0, 0, 0, 1),
    consistent: fc.boolean(),
    perturb: fc.record({ at: fc.nat(), how: fc.nat() }),
  })
  .map((drawn) => (drawn.consistent ? madeConsistent(drawn) : drawn))
  .map(({ verdict, phase, gate, findings, failedDelta }) => ({
    version: 1,
    label: 'contoso',
    tenant: 'Contoso',
    scan: { id: 'scan-1', ...(phase ? { phase } : {}), completedAt: '2026-11-25T03:00:00Z' },
    verdict,
    error: verdict === null ? 'Results failed: GET /scans/x/results: stopped' : null,
    failed: findings.length + failedDelta,
    new: 0,
    overdue: null,
    gate,
    findings,
  }));

type Doc = Record<string, unknown> & { findings: Array<Record<string, unknown>> };

interface Drawn {
  verdict: string | null;
  phase: string | undefined;
  gate: Record<string, unknown> | string | null;
  findings: Array<Record<string, unknown>>;
  failedDelta: number;
  perturb: { at: number; how: number };
}

/** A record as a run writes it (its verdict, failing count and each finding's gating agree with
 *  its findings and gate), then at most one field of one finding changed: the edge between a
 *  record that holds together and one that does not. */
function madeConsistent(drawn: Drawn): Drawn {
  const gate = { failOnSeverity: 'high', failOn: 'any', ...(isGate(drawn.gate) ? drawn.gate : {}) };
  if (!(String(gate.failOnSeverity) in RANK)) gate.failOnSeverity = 'high';
  if (!['any', 'new', 'overdue'].includes(String(gate.failOn))) gate.failOn = 'any';
  const findings = drawn.findings.map((f) => {
    const written = { ...f, result: 'Failed' };
    return { ...written, gating: failsOwnGate(gate, written) };
  });
  const failing = findings.filter((f) => f.gating).length;
  const changes: Array<(f: Record<string, unknown>) => void> = [
    () => {},
    (f) => (f.gating = !f.gating),
    (f) => (f.waiver = 'waived'),
    (f) => (f.waiver = []),
    (f) => (f.result = 'Passed'),
    (f) => (f.overdue = 'yes'),
    (f) => (f.baselineState = 'unchanged'),
  ];
  const target = findings[drawn.perturb.at % Math.max(1, findings.length)];
  if (target) changes[drawn.perturb.how % changes.length]?.(target);
  return {
    ...drawn,
    phase: 'succeeded',
    failedDelta: 0,
    gate: { ...gate, failing },
    verdict: failing > 0 ? 'failed' : 'passed',
    findings,
  };
}

function isGate(gate: unknown): gate is Record<string, unknown> {
  return typeof gate === 'object' && gate !== null;
}

/** docs/gate.md's rule, restated: a failed finding fails the gate unless waived, when fail-on
 *  counts it (`new`: not unchanged; `overdue`: overdue or of unknown age), and when its severity is
 *  at or above the threshold (an unknown severity always is). */
function failsOwnGate(gate: Record<string, unknown>, f: Record<string, unknown>): boolean {
  const waived = typeof f.waiver === 'object' && f.waiver !== null && !Array.isArray(f.waiver);
  const counted =
    gate.failOn === 'any' ||
    (gate.failOn === 'new' && f.baselineState !== 'unchanged') ||
    (gate.failOn === 'overdue' && f.overdue !== false);
  const severe =
    f.severity === 'unknown' || RANK[String(f.severity)]! <= RANK[String(gate.failOnSeverity)]!;
  return !waived && counted && severe;
}

/** The roll-up's word for a tenant, re-judged from the record alone. */
function rejudged(doc: Doc): 'passed' | 'failed' | 'no verdict' | 'unreadable' {
  if (doc.failed !== doc.findings.length) return 'unreadable';
  const gate = doc.gate;
  if (gate !== null && (typeof gate !== 'object' || Array.isArray(gate))) return 'unreadable';
  if (doc.verdict === null) return 'no verdict';
  if (doc.verdict === 'failed') return 'failed';
  const scan = doc.scan as { phase?: string };
  if (scan.phase !== 'succeeded' || gate === null) return 'failed';
  const g = gate as Record<string, unknown>;
  if (!(String(g.failOnSeverity) in RANK) || !['any', 'new', 'overdue'].includes(String(g.failOn)))
    return 'failed';
  const judged = doc.findings.map((f) => failsOwnGate(g, f));
  const resultFailed = (f: Record<string, unknown>) =>
    ['failed', 'fail'].includes(String(f.result).trim().toLowerCase());
  const consistent = doc.findings.every(
    (f, i) => resultFailed(f) && (typeof f.gating !== 'boolean' || f.gating === judged[i]),
  );
  return judged.some(Boolean) || g.failing !== 0 || !consistent ? 'failed' : 'passed';
}

function rolledUp(doc: Doc): string {
  let entry: RecordEntry;
  try {
    entry = { kind: 'read', source: 'r.json', record: summarize(doc) };
  } catch {
    return 'unreadable';
  }
  const builder = new RollupBuilder();
  builder.add(entry);
  const [row] = builder.finish().tenants;
  return row?.verdict === 'error' ? 'no verdict' : String(row?.verdict);
}

/** JSON text of a given nesting: arrays and objects in any order, strings holding brackets and
 *  escaped quotes between them (a look at the brackets must skip strings). */
const nested = fc
  .tuple(
    fc.integer({ min: 0, max: 60 }),
    fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }),
    fc.constantFrom('', '"[[{"', '"\\"]]"', '"\\\\"', '"}}}"'),
  )
  .map(([depth, kinds, filler]) => {
    let text = filler === '' ? '1' : filler;
    for (let level = 0; level < depth; level++) {
      const sibling = filler === '' ? '' : `${filler},`;
      text = kinds[level] ? `[${sibling}${text}]` : `{"k${level}":${text}}`;
    }
    return { depth, text };
  });

function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  let deepest = 0;
  for (const item of Object.values(value)) deepest = Math.max(deepest, depthOf(item));
  return deepest + 1;
}

describe('guarantee 15: a record is evidence, not a verdict', () => {
  it("the roll-up passes a tenant exactly when the record's own findings pass its own gate", () => {
    fc.assert(
      fc.property(recordDocument, (doc) => {
        const expected = rejudged(doc as Doc);
        const actual = rolledUp(doc as Doc);
        // Passed exactly when re-judged so; a record that does not pass may also be unreadable
        // (a field the roll-up needs is not what a run writes), never a pass.
        assert.equal(actual === 'passed', expected === 'passed', `roll-up: ${actual}`);
        if (expected !== 'passed' && actual !== 'unreadable') assert.equal(actual, expected);
        if (expected === 'unreadable') assert.equal(actual, 'unreadable');
      }),
      propertyParameters(500),
    );
  });

  let folder: string;
  before(async () => {
    folder = await mkdtemp(join(tmpdir(), 'tenant-scan-record-depth-'));
  });
  after(() => rm(folder, { recursive: true, force: true }));

  it('a record nested deeper than 32 levels is unreadable for its nesting, before it is parsed', async () => {
    let n = 0;
    await fc.assert(
      fc.asyncProperty(nested, async ({ depth, text }) => {
        assert.equal(depthOf(JSON.parse(text)), depth, 'the generator nests as it says');
        assert.equal(nestsDeeperThan(text, MAX_RECORD_DEPTH), depth > MAX_RECORD_DEPTH);
        const path = join(folder, `r${n++}.json`);
        await writeFile(path, text);
        const entries: RecordEntry[] = [];
        for await (const entry of readRecords([path], folder)) entries.push(entry);
        const [entry] = entries;
        const deep =
          entry?.kind === 'unreadable' && /^nested deeper than 32 levels/.test(entry.why);
        assert.equal(deep, depth > MAX_RECORD_DEPTH, JSON.stringify(entry));
      }),
      propertyParameters(150),
    );
  });
});
