// Tenant plans in a roll-up, built in memory: a plan read strictly (its kind, version, time and
// lists), what fails a tenant's plan (--fail-on words, an unfinished apply), one row per problem
// code, a second plan of a tenant, an expected tenant without one, and a tenant counted once
// whether its scan record, its plan or both fail.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { RollupBuilder, summarize, type RecordEntry } from '../../../src/pipeline/index.js';
import { readRecords } from '../../../src/pipeline/rollup/records.js';
import { summarizePlan } from '../../../src/pipeline/rollup/plans.js';
import { rollupMarkdown } from '../../../src/render/rollup-markdown.js';

function planDoc(tenant: string, codes: string[], drift = 0, patch: object = {}) {
  return {
    kind: 'tenant-plan',
    version: 1,
    tenant,
    tenantId: `id-${tenant}`,
    checkedAt: '2026-11-26T03:00:00.000Z',
    drift: Array.from({ length: drift }, (_, i) => ({
      area: 'notifications',
      field: `f${i}`,
      current: false,
      desired: true,
    })),
    problems: codes.map((code) => ({ code, subject: 's', detail: 'd' })),
    ...patch,
  };
}

function entry(source: string, doc: unknown): RecordEntry {
  return { kind: 'plan', source, plan: summarizePlan(doc) };
}

function passedRecord(label: string): RecordEntry {
  const record = summarize({
    version: 1,
    label,
    tenant: label,
    scan: { id: 's', phase: 'succeeded', completedAt: '2026-11-25T03:00:00Z' },
    verdict: 'passed',
    error: null,
    failed: 0,
    new: 0,
    overdue: null,
    gate: { failOnSeverity: 'info', failOn: 'any', failing: 0 },
    findings: [],
  });
  return { kind: 'read', source: `${label}.json`, record };
}

describe('summarizePlan', () => {
  for (const [what, doc, why] of [
    ['a scan record', { version: 1 }, /not a tenant plan/],
    ['a newer plan', planDoc('a', [], 0, { version: 2 }), /plan version 2 is newer/],
    ['no time', planDoc('a', [], 0, { checkedAt: 'yesterday' }), /"checkedAt" is not a time/],
    ['drift not a list', planDoc('a', [], 0, { drift: {} }), /"drift" is not a list/],
    [
      'a problem without a code',
      planDoc('a', [], 0, { problems: [{ subject: 's', detail: 'd' }] }),
      /problems entry 1 has no "code" text/,
    ],
    ['a tenant that is not text', planDoc('a', [], 0, { tenant: 7 }), /"tenant" is not a string/],
  ] as const) {
    it(`refuses ${what}`, () => assert.throws(() => summarizePlan(doc), why));
  }

  it('read from files: a plan that is not whole is an unreadable plan, a record one a record', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'tenant-scan-plans-'));
    try {
      await writeFile(join(dir, 'a.json'), JSON.stringify(planDoc('a', [], 0, { version: 2 })));
      await writeFile(join(dir, 'b.json'), JSON.stringify({ version: 1, label: 7 }));
      const entries: RecordEntry[] = [];
      for await (const read of readRecords(['*.json'], dir)) entries.push(read);
      assert.deepEqual(
        entries.map((e) => [e.kind, e.kind === 'unreadable' ? (e.plan ?? false) : null]),
        [
          ['unreadable', true],
          ['unreadable', false],
        ],
      );
      const [plan, record] = entries;
      assert.match(plan?.kind === 'unreadable' ? plan.why : '', /plan version 2 is newer/);
      assert.match(
        record?.kind === 'unreadable' ? record.why : '',
        /"verdict" is not passed, failed or null/,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('keeps counts, each code once, and the writes an apply left unfinished', () => {
    const applied = [
      { change: 'a', outcome: 'done' },
      { change: 'b', outcome: 'refused' },
      { change: 'c', outcome: 'failed' },
      { change: 'd', outcome: 'not-attempted' },
    ];
    const plan = summarizePlan(planDoc('a', ['key-old', 'key-old', 'scan-stale'], 2, { applied }));
    assert.deepEqual(plan, {
      tenant: 'a',
      tenantId: 'id-a',
      checkedAt: '2026-11-26T03:00:00.000Z',
      drift: 2,
      codes: ['key-old', 'scan-stale'],
      problems: 3,
      unfinished: 2,
    });
  });
});

describe('plans in a roll-up', () => {
  function rollUp(entries: RecordEntry[], settings = {}) {
    const builder = new RollupBuilder();
    for (const e of entries) builder.add(e);
    return builder.finish(settings);
  }

  it('a row per code naming its tenants, the most common first; clean tenants pass', () => {
    const rollup = rollUp([
      entry('a.json', planDoc('a', ['key-unused'], 1)),
      entry('b.json', planDoc('b', ['key-unused', 'scan-stale'])),
      entry('c.json', planDoc('c', [])),
    ]);
    assert.deepEqual(rollup.plans?.codes, [
      { code: 'key-unused', tenants: ['a', 'b'] },
      { code: 'drift', tenants: ['a'] },
      { code: 'scan-stale', tenants: ['b'] },
    ]);
    assert.deepEqual(
      rollup.plans?.tenants.map((t) => [t.tenant, t.verdict]),
      [
        ['a', 'failed'],
        ['b', 'failed'],
        ['c', 'passed'],
      ],
    );
    assert.deepEqual([rollup.verdict, rollup.failedTenants, rollup.totalTenants], ['failed', 2, 3]);
    assert.equal(rollup.reason, '2 of 3 tenants failed (at most 0 may)');
  });

  it('--fail-on words decide what fails a plan; an unfinished apply fails under any', () => {
    const entries = [
      entry('a.json', planDoc('a', [], 1)),
      entry('b.json', planDoc('b', ['key-old'])),
      entry('c.json', planDoc('c', [], 0, { applied: [{ change: 'x', outcome: 'unknown' }] })),
    ];
    const failing = (planFailOn: string) =>
      rollUp(entries, { planFailOn })
        .plans?.tenants.filter((t) => t.verdict === 'failed')
        .map((t) => t.tenant)
        .sort();
    assert.deepEqual(failing('drift'), ['a', 'c']);
    assert.deepEqual(failing('problems'), ['b', 'c']);
    assert.deepEqual(failing('any'), ['a', 'b', 'c']);
    assert.deepEqual(failing('none'), ['c']);
    const c = rollUp(entries).plans?.tenants.find((t) => t.tenant === 'c');
    assert.match(c?.problem ?? '', /apply left 1 change unfinished/);
  });

  it('a second plan of a tenant is unreadable; an expected tenant without a plan is missing', () => {
    const rollup = rollUp(
      [entry('a1.json', planDoc('a', [])), entry('a2.json', planDoc('a', []))],
      {
        expect: ['a', 'z'],
      },
    );
    const rows = rollup.plans?.tenants.map((t) => [t.tenant, t.verdict, t.source]);
    assert.deepEqual(rows, [
      ['a', 'unreadable', 'a2.json'],
      ['z', 'missing', null],
      ['a', 'passed', 'a1.json'],
    ]);
    // Plans alone: the expected tenants are looked for among the plans, not the records too.
    assert.deepEqual(rollup.tenants, []);
    assert.deepEqual([rollup.failedTenants, rollup.totalTenants], [2, 2]);
  });

  it('a tenant counts once whether its record, its plan or both fail', () => {
    const rollup = rollUp(
      [
        // a fails twice (an unreadable record, a plan with a problem), c once (its plan).
        { kind: 'unreadable', source: 'a', why: 'not JSON' },
        passedRecord('b'),
        entry('a.json', planDoc('a', ['key-old'])),
        entry('b.json', planDoc('b', [])),
        entry('c.json', planDoc('c', ['scan-stale'])),
      ],
      { maxFailedTenants: 1 },
    );
    assert.deepEqual([rollup.failedTenants, rollup.totalTenants], [2, 3]);
    assert.equal(rollup.verdict, 'failed');
    const markdown = rollupMarkdown(rollup);
    assert.match(markdown, /^\| `key-old` \| 1 \| a \|$/m);
    assert.match(markdown, /^\| Plans failed \(drift, a problem, an unfinished apply\) \| 2 \|$/m);
  });

  it('no plan read: no plans section, the roll-up as before', () => {
    const rollup = rollUp([passedRecord('a')], { expect: ['a', 'b'] });
    assert.equal(rollup.plans, null);
    assert.deepEqual([rollup.failedTenants, rollup.totalTenants], [1, 2]);
    assert.doesNotMatch(rollupMarkdown(rollup), /Tenant settings/);
  });
});
