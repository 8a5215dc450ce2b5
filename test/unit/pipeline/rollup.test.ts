// The roll-up's logic on records built in memory: what counts as failed (a missing, unreadable or
// errored tenant too, and a record whose own findings and gate contradict its verdict), the order
// (no verdict first, then the worst), the threshold, the checks across tenants, the strict reading
// of a record (its nesting bounded before it is parsed), and the Markdown cut to its budget.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { rollupMarkdown } from '../../../src/render/rollup-markdown.js';
import {
  RollupBuilder,
  summarize,
  type RecordEntry,
  type RollupSettings,
} from '../../../src/pipeline/index.js';
import { MAX_RECORD_DEPTH, nestsDeeperThan } from '../../../src/pipeline/rollup/records.js';
import { layoutProblems, liveMarkup, renderedText } from '../../helpers/gfm.js';

type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info';

function record(
  label: string,
  findings: Array<[check: string, severity: Severity]>,
  patch: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    version: 1,
    label,
    tenant: `${label} Ltd`,
    scan: { id: `scan-${label}`, phase: 'succeeded', completedAt: '2026-11-25T03:00:00Z' },
    verdict: findings.length > 0 ? 'failed' : 'passed',
    error: null,
    failed: findings.length,
    new: findings.length,
    overdue: null,
    gate: { failOnSeverity: 'info', failOn: 'any', failing: findings.length },
    findings: findings.map(([checkId, severity]) => ({
      checkId,
      title: `Title of ${checkId}`,
      severity,
      result: 'Failed',
      gating: true,
    })),
    ...patch,
  };
}

function rollUp(entries: RecordEntry[], settings?: RollupSettings) {
  const builder = new RollupBuilder();
  for (const entry of entries) builder.add(entry);
  return builder.finish(settings);
}

function read(document: Record<string, unknown>): RecordEntry {
  return { kind: 'read', source: `${String(document.label)}.json`, record: summarize(document) };
}

describe('rollUp', () => {
  const entries = [
    read(record('clean', [])),
    read(record('high', [['CIS-1', 'high']])),
    read(
      record('critical', [
        ['CIS-1', 'high'],
        ['CIS-2', 'critical'],
      ]),
    ),
    read(record('broken', [], { verdict: null, error: 'Results failed: GET /scans/x/results: …' })),
    { kind: 'unreadable', source: 'bad.json', why: 'not JSON' } as RecordEntry,
  ];

  it('no verdict first, then failed by worst finding, then passed; each problem said', () => {
    const rollup = rollUp(entries, { expect: ['clean', 'gone'] });
    assert.deepEqual(
      rollup.tenants.map((t) => `${t.tenant}:${t.verdict}`),
      [
        'bad.json:unreadable',
        'broken:error',
        'gone:missing',
        'critical:failed',
        'high:failed',
        'clean:passed',
      ],
    );
    assert.equal(rollup.tenants[1]?.problem, 'Results failed: GET /scans/x/results: …');
    assert.equal(rollup.failedTenants, 5);
    assert.equal(rollup.judgedTenants, 3);
    assert.equal(rollup.verdict, 'failed');
    assert.equal(rollup.reason, '5 of 6 tenants failed (at most 0 may)');
  });

  it('a threshold: failed only when more tenants fail than it allows', () => {
    assert.equal(rollUp(entries, { maxFailedTenants: 3 }).verdict, 'failed');
    assert.equal(rollUp(entries, { maxFailedTenants: 4 }).verdict, 'passed');
    assert.equal(rollUp([read(record('clean', []))]).verdict, 'passed');
  });

  it('checks across tenants, in most tenants first, with the worst severity seen', () => {
    const { checks } = rollUp(entries);
    assert.deepEqual(
      checks.map((c) => [c.check, c.failingTenants, c.severity, c.tenants]),
      [
        ['CIS-1', 2, 'high', ['high', 'critical']],
        ['CIS-2', 1, 'critical', ['critical']],
      ],
    );
  });

  it('a run that did not wait has no verdict: it counts as failed', () => {
    const rollup = rollUp([read(record('nowait', [], { verdict: null, waited: false }))]);
    assert.equal(rollup.tenants[0]?.verdict, 'error');
    assert.match(rollup.tenants[0]?.problem ?? '', /did not wait/);
  });
});

describe('summarize (reading one record strictly)', () => {
  const problem = (document: unknown) => {
    try {
      summarize(document);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('takes a whole version-1 record; anything else it cannot use says why', () => {
    assert.equal(problem(record('ok', [['CIS-1', 'low']])), undefined);
    assert.equal(problem([]), 'not a run record (a JSON object)');
    assert.equal(
      problem({ ...record('x', []), version: '1' }),
      'not a run record (no "version": 1)',
    );
    assert.match(problem({ ...record('x', []), version: 7 }) ?? '', /version 7 is newer/);
    assert.match(problem({ ...record('x', []), verdict: 'ok' }) ?? '', /"verdict" is not/);
    assert.match(
      problem({ ...record('x', [['CIS-1', 'low']]), failed: 2 }) ?? '',
      /says 2 failed but lists 1 findings/,
    );
    assert.match(
      problem(record('x', [['CIS-1', 'severe' as Severity]])) ?? '',
      /finding 1 has no known severity/,
    );
    assert.match(problem({ ...record('x', []), label: 5 }) ?? '', /"label" is not a string/);
    assert.match(problem({ ...record('x', []), gate: { failing: -1 } }) ?? '', /not a count/);
  });
});

describe('a record is evidence, not a verdict', () => {
  const failing: Array<[string, Severity]> = [
    ['CIS-1', 'critical'],
    ['CIS-2', 'low'],
  ];
  const row = (document: Record<string, unknown>) => rollUp([read(document)]).tenants[0];
  const asGate =
    (gate: Record<string, unknown>, findings: Array<Record<string, unknown>>) =>
    (document: Record<string, unknown>) => ({
      ...document,
      gate: { ...(document.gate as object), ...gate },
      findings: (document.findings as Array<Record<string, unknown>>).map((f, i) => ({
        ...f,
        ...findings[i],
      })),
    });

  it('a record edited to say passed over failing findings counts as failed, with why', () => {
    const edited = { ...record('edited', failing), verdict: 'passed' };
    assert.deepEqual([row(edited)?.verdict, row(edited)?.gating], ['failed', 2]);
    assert.equal(
      row(edited)?.problem,
      'the record says passed, but 2 of its failed findings fail its own gate',
    );
    const thorough = asGate({ failing: 0 }, [{ gating: false }, { gating: false }])(edited);
    assert.equal(row(thorough)?.verdict, 'failed', 'its gating marks edited too');
    assert.equal(rollUp([read(edited)]).verdict, 'failed');
  });

  it('every other way it can contradict itself', () => {
    const base = record('x', failing);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ ...base, gate: { ...(base.gate as object), failing: 1 } }, /gate says 1 failing, but 2/],
      [asGate({}, [{ gating: false }])(base), /finding 1 \(CIS-1\) says it does not fail the gate/],
      [
        asGate({}, [{}, { result: 'Passed' }])(base),
        /finding 2 \(CIS-2\) is listed as failed but its result is "Passed"/,
      ],
      [
        { ...record('x', []), scan: { id: 's', phase: 'failed' } },
        /says passed, but its scan did not complete/,
      ],
      [
        { ...record('x', []), gate: null },
        /says passed, but its scan did not complete \(or it has no gate\)/,
      ],
      [asGate({ failOn: 'whenever' }, [])(base), /"gate.failOn" is not any, new or overdue/],
      // All waived: its findings pass its gate, yet it says failed.
      [
        asGate({ failing: 0 }, [
          { waiver: { reason: 'r', expires: '2099-01-01' } },
          { waiver: {} },
        ])(base),
        /says failed, but 0 of its failed findings fail/,
      ],
    ];
    for (const [document, why] of cases) {
      const tenant = row(document);
      assert.equal(tenant?.verdict, 'failed', String(why));
      assert.match(tenant?.problem ?? '', why);
    }
  });

  it('an honest record is judged as it says: threshold, waivers, baseline and deadlines', () => {
    const honest: Array<Record<string, unknown>> = [
      asGate({ failOnSeverity: 'high', failing: 1 }, [{ gating: true }, { gating: false }])(
        record('threshold', failing),
      ),
      asGate({ failing: 0 }, [{ gating: false, waiver: { reason: 'r', expires: '2099-01-01' } }])({
        ...record('waived', [['CIS-1', 'critical']]),
        verdict: 'passed',
      }),
      asGate({ failOn: 'new', failing: 1 }, [
        { baselineState: 'unchanged', gating: false },
        { baselineState: 'new' },
      ])(record('new', failing)),
      asGate({ failOn: 'overdue', failing: 0 }, [
        { overdue: false, gating: false },
        { overdue: false, gating: false },
      ])({ ...record('deadlines', failing), verdict: 'passed' }),
      {
        ...record('scan failed', []),
        scan: { id: 's', phase: 'failed' },
        verdict: 'failed',
        gate: null,
      },
    ];
    for (const document of honest) {
      const tenant = row(document);
      assert.equal(tenant?.problem, null, String(document.label));
      assert.equal(tenant?.verdict, document.verdict, String(document.label));
    }
  });
});

describe('nestsDeeperThan', () => {
  it('counts brackets outside strings only, and stops at the bound', () => {
    assert.equal(nestsDeeperThan(JSON.stringify(record('x', [['CIS-1', 'low']])), 5), false);
    assert.equal(nestsDeeperThan('{"a":"[[[[[[[[\\"[[[[[[","b":[[1]]}', 3), false);
    assert.equal(nestsDeeperThan('[[[[', 3), true);
    assert.equal(nestsDeeperThan('{"a":{"b":{"c":[{}]}}}', 4), true);
    assert.equal(nestsDeeperThan('{"a":"unterminated [[[[', 2), false, 'not JSON: the parser says');
    const huge = Buffer.alloc(120 * 1024 * 1024, '[').toString('latin1');
    const started = performance.now();
    assert.equal(nestsDeeperThan(huge, MAX_RECORD_DEPTH), true);
    assert.ok(performance.now() - started < 100, 'it stops at the bound');
  });
});

describe('rollupMarkdown', () => {
  it('cut to its budget from the least bad end, with a line for what was left out', () => {
    const many = Array.from({ length: 3000 }, (_, i) =>
      read(
        record(
          `tenant-${String(i).padStart(4, '0')}`,
          i % 3 === 0 ? [] : [[`CIS-${i}`, i % 2 === 0 ? 'critical' : 'low']],
        ),
      ),
    );
    const rollup = rollUp(many);
    const markdown = rollupMarkdown(rollup, 100_000);
    assert.ok(Buffer.byteLength(markdown) <= 100_000, `${Buffer.byteLength(markdown)} bytes`);
    const text = renderedText(markdown);
    assert.match(text, /^…and \d+ more tenants, the least bad — see the roll-up JSON\.$/m);
    assert.match(text, /^…and \d+ more failing checks — see the roll-up JSON\.$/m);
    assert.ok(text.includes(rollup.tenants[0]!.tenant), 'the worst tenant is shown');
    assert.ok(!text.includes('tenant-0000 '), 'a passed tenant was cut first');
    assert.deepEqual(layoutProblems(markdown), []);
    assert.deepEqual(liveMarkup(markdown), []);
  });
});
