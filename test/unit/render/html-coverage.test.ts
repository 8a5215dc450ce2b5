// What a report page shows of issue 47's facts (render/html): the checks by result as the
// pipeline's one decision counts them (a run's `results`, a record's), the coverage compared with
// the baseline (the roll-up's figures of a record, its drop judged again), the checks evaluated per
// scan beside the trend, each waiver's disposition in words, and a coverage not compared in the
// same note on a run's page and a fleet's tenant. A record is another job's file:
// what it says wrongly of these is left out, never the tenant.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countsFromScan } from '../../../src/pipeline/common/result-kinds.js';
import { runRecord } from '../../../src/pipeline/output/record.js';
import { summarize } from '../../../src/pipeline/rollup/records.js';
import { RollupBuilder } from '../../../src/pipeline/rollup/rollup.js';
import { MAX_DROPPED_SHOWN } from '../../../src/pipeline/gate/coverage.js';
import { FleetFindings, fleetPageData } from '../../../src/render/html/fleet-data.js';
import { FLAG, type PageData, type TenantData } from '../../../src/render/html/page-data.js';
import { runInputOf, runPageData } from '../../../src/render/html/run-data.js';
import { sampleResult, type SampleOptions } from '../../helpers/report-pages.js';

const WAIVER_DISPOSITION = 15;

function runTenant(count: number, options: SampleOptions = {}) {
  const result = sampleResult(count, options);
  const data = runPageData(runInputOf(result));
  const tenant = data.tenants[0];
  assert.ok(tenant);
  return { result, data, tenant };
}

function waivedDisposition(data: PageData, tenant: TenantData): string | undefined {
  const waived = tenant.findings.filter((row) => row[7] & FLAG.waived);
  assert.equal(waived.length, 1);
  return data.strings[waived[0]?.[WAIVER_DISPOSITION] ?? -1];
}

/** A fleet of the records of these runs, as a roll-up reads them (JSON on the way). */
function fleetOf(records: Array<[string, object]>) {
  const findings = new FleetFindings();
  const builder = new RollupBuilder();
  for (const [label, record] of records) {
    const entry = {
      kind: 'read',
      source: `records/${label}.json`,
      record: summarize(JSON.parse(JSON.stringify(record)), { display: true }),
    } as const;
    findings.observe(entry);
    builder.add(entry);
  }
  const rollup = builder.finish({});
  const data = fleetPageData(rollup, findings);
  const byName = (name: string) => {
    const tenant = data.tenants.find((t) => t.name === name);
    assert.ok(tenant, name);
    return tenant;
  };
  return { data, rollup, byName };
}

/** A record as its file holds it (its findings are made as it is written: record.ts). */
const recordOf = (label: string, count: number, options: SampleOptions = {}) =>
  [
    label,
    JSON.parse(JSON.stringify(runRecord(sampleResult(count, options), { waited: true, label }))),
  ] as [string, object];

describe("a run's page: issue 47's facts", () => {
  it('counts the checks as the pipeline decided: passed, failed, each kind by name, the sums', () => {
    const { tenant } = runTenant(12);
    assert.deepEqual(tenant.kinds, [
      ['Passed', 36],
      ['Failed', 12],
      ['Not evaluated: skipped', 2],
      ['Not evaluated: not applicable', 1],
      ['Not evaluated: deferred', 1],
      ['Not evaluated in all', 4],
      ['Checks in all', 52],
    ]);
  });

  it("says when the counts are the scan's own (only the failed results were read)", () => {
    const result = sampleResult(5);
    result.results = countsFromScan({ total: 50, passed: 40, skipped: 3 }, 5);
    const [tenant] = runPageData(runInputOf(result)).tenants;
    assert.deepEqual(tenant?.kinds, [
      ['Passed', 40],
      ['Failed', 5],
      ['Not evaluated: skipped', 3],
      ['Not evaluated: not evaluated (kind not given)', 2],
      ['Not evaluated in all', 5],
      ["Checks in all (the scan's own counts)", 50],
    ]);
    result.results = undefined;
    assert.equal(runPageData(runInputOf(result)).tenants[0]?.kinds, null, 'unknown: no table');
  });

  it('carries the coverage compared: the figures, the limit, the baseline and the checks by id', () => {
    const within = runTenant(20).tenant.coverage;
    assert.deepEqual(
      { ...within, source: undefined },
      {
        evaluated: 56,
        baseline: 58,
        dropped: 2,
        fails: false,
        maxDrop: 10,
        source: undefined,
        checks: within?.checks,
      },
    );
    const { data, tenant, result } = runTenant(20, { dropped: 30 });
    const coverage = tenant.coverage;
    assert.ok(coverage);
    assert.equal(coverage.fails, true);
    assert.equal(result.verdict, 'failed');
    assert.equal(data.strings[coverage.source], 'scan scan-0-1');
    assert.deepEqual(
      coverage.checks.map((index) => data.strings[index]),
      Array.from({ length: 30 }, (_, i) => `MT.${1201 + i}`),
    );
  });

  it('names at most the first checks not evaluated now, and counts them all', () => {
    const { data, tenant } = runTenant(3, { dropped: MAX_DROPPED_SHOWN + 50 });
    assert.equal(tenant.coverage?.dropped, MAX_DROPPED_SHOWN + 50);
    assert.equal(tenant.coverage?.checks.length, MAX_DROPPED_SHOWN);
    assert.equal(data.strings[tenant.coverage?.checks[0] ?? -1], 'MT.1201');
  });

  it('no coverage without one compared; a baseline not compared says why in a note', () => {
    const off = sampleResult(4);
    assert.ok(off.gate);
    off.gate.coverage = { kind: 'off' };
    assert.equal(runPageData(runInputOf(off)).tenants[0]?.coverage, null);
    off.gate.coverage = { kind: 'none', why: 'not every result of this scan was read' };
    const [tenant] = runPageData(runInputOf(off)).tenants;
    assert.equal(tenant?.coverage, null);
    assert.ok(
      tenant?.notes.includes('Coverage not compared: not every result of this scan was read'),
      tenant?.notes.join('\n'),
    );
    off.gate.settings = { ...off.gate.settings, baseline: { kind: 'none' } };
    assert.deepEqual(runPageData(runInputOf(off)).tenants[0]?.notes, [], 'no baseline asked');
  });

  it('the checks evaluated per scan beside the trend, an unknown one as null', () => {
    const { tenant, result } = runTenant(10);
    assert.deepEqual(tenant.evaluatedTrend, result.gate?.evaluatedTrend);
    assert.equal(tenant.evaluatedTrend.length, tenant.trend.length);
    assert.deepEqual(tenant.evaluatedTrend, [51, null, 49, 48, 46]);
    assert.deepEqual(runTenant(10, { history: 0 }).tenant.evaluatedTrend, [], 'no history');
  });

  it("each waiver's disposition in words: an accepted risk unless it names another", () => {
    const plain = runTenant(8);
    assert.equal(waivedDisposition(plain.data, plain.tenant), 'accepted risk');
    const fp = runTenant(8, { disposition: 'false-positive' });
    assert.equal(waivedDisposition(fp.data, fp.tenant), 'false positive');
    const cc = runTenant(8, { disposition: 'compensating-control' });
    assert.equal(waivedDisposition(cc.data, cc.tenant), 'compensating control');
    const notWaived = plain.tenant.findings.filter((row) => !(row[7] & FLAG.waived));
    assert.ok(notWaived.every((row) => row[WAIVER_DISPOSITION] === -1));
  });
});

describe("a fleet's page: issue 47's facts from each record", () => {
  it("each tenant's checks by result, coverage, evaluated trend and dispositions, from its record", () => {
    const { data, byName } = fleetOf([
      recordOf('contoso', 6),
      recordOf('fabrikam', 9, { dropped: 30, disposition: 'false-positive' }),
    ]);
    const contoso = byName('contoso');
    assert.deepEqual(contoso.kinds?.slice(0, 2), [
      ['Passed', 36],
      ['Failed', 6],
    ]);
    assert.deepEqual(contoso.kinds?.at(-1), ['Checks in all', 46]);
    assert.deepEqual(
      { ...contoso.coverage, source: 0, checks: [] },
      {
        evaluated: 42,
        baseline: 44,
        dropped: 2,
        fails: false,
        maxDrop: 10,
        source: 0,
        checks: [],
      },
    );
    assert.deepEqual(contoso.evaluatedTrend, [47, null, 45, 44, 42]);
    const fabrikam = byName('fabrikam');
    assert.equal(fabrikam.coverage?.fails, true);
    assert.equal(fabrikam.verdict, 'failed');
    assert.equal(data.strings[fabrikam.coverage?.source ?? -1], 'scan scan-0-1');
    assert.equal(fabrikam.coverage?.checks.length, 30);
    assert.equal(waivedDisposition(data, fabrikam), 'false positive');
    assert.equal(waivedDisposition(data, contoso), 'accepted risk');
  });

  it("each tenant's coverage is the roll-up's (its drop judged again), as its table shows it", () => {
    const [label, record] = recordOf('northwind', 4, { dropped: 30 });
    const coverage = (record as { coverage: { fails: boolean } }).coverage;
    coverage.fails = false; // the record says within its limit; 30 of 70 is not
    const { data, rollup } = fleetOf([
      [label, record],
      recordOf('contoso', 6),
      recordOf('fabrikam', 9, { dropped: 30 }),
    ]);
    assert.deepEqual(
      data.tenants.map((t) => [
        t.name,
        t.coverage?.evaluated,
        t.coverage?.dropped,
        t.coverage?.fails,
      ]),
      rollup.tenants.map((row) => [
        row.tenant,
        row.coverage?.evaluatedNow,
        row.coverage?.dropped,
        row.coverage?.fails,
      ]),
    );
    const northwind = rollup.tenants.find((row) => row.tenant === 'northwind');
    assert.equal(northwind?.verdict, 'failed');
    assert.match(northwind?.problem ?? '', /its coverage says it does not fail/);
  });

  it("a tenant whose coverage was not compared says why, in the run page's words", () => {
    const result = sampleResult(6);
    assert.ok(result.gate);
    result.gate.coverage = { kind: 'none', why: 'not every result of this scan was read' };
    const runNotes = runPageData(runInputOf(result)).tenants[0]?.notes;
    assert.deepEqual(runNotes, ['Coverage not compared: not every result of this scan was read']);
    const record = JSON.parse(
      JSON.stringify(runRecord(result, { waited: true, label: 'woodgrove' })),
    );
    const { byName } = fleetOf([['woodgrove', record], recordOf('contoso', 4)]);
    assert.deepEqual(byName('woodgrove').notes, runNotes, 'the same note as the run page');
    assert.equal(byName('woodgrove').coverage, null);
    assert.deepEqual(byName('contoso').notes, [], 'compared: no note');
  });

  it('no note when no baseline was asked for, or the tenant has no verdict', () => {
    const result = sampleResult(6);
    assert.ok(result.gate);
    result.gate.coverage = { kind: 'none', why: 'no baseline to compare with' };
    result.gate.settings = { ...result.gate.settings, baseline: { kind: 'none' } };
    result.gate.baseline = { kind: 'none' };
    assert.deepEqual(runPageData(runInputOf(result)).tenants[0]?.notes, []);
    const unasked = JSON.parse(JSON.stringify(runRecord(result, { waited: true, label: 'a' })));
    assert.equal(unasked.coverage.compared, false, 'the record says why all the same');
    const failed = sampleResult(3);
    assert.ok(failed.gate);
    failed.gate.coverage = { kind: 'none', why: 'not every result of this scan was read' };
    const errored = JSON.parse(JSON.stringify(runRecord(failed, { waited: true, label: 'b' })));
    errored.verdict = null;
    errored.error = 'Results failed: HTTP 500';
    const { byName } = fleetOf([
      ['a', unasked],
      ['b', errored],
    ]);
    assert.deepEqual(byName('a').notes, []);
    assert.equal(byName('b').verdict, 'error');
    assert.deepEqual(byName('b').notes, []);
  });

  it('what a record says wrongly of kinds, the evaluated trend or a disposition is left out, not the tenant', () => {
    const [label, record] = recordOf('tailspin', 5);
    const bad = record as Record<string, unknown> & { findings: Array<Record<string, unknown>> };
    bad.results = {
      source: 'results',
      total: 'many',
      passed: 1,
      failed: 5,
      notEvaluated: 0,
      kinds: [],
    };
    bad.evaluatedTrend = [1, 2]; // not aligned with its 5-point trend
    const waived = bad.findings.find((f) => f.waiver) as { waiver: Record<string, unknown> };
    waived.waiver.disposition = 7;
    const { data, byName } = fleetOf([[label, bad]]);
    const tenant = byName('tailspin');
    assert.equal(tenant.verdict, (record as { verdict: string }).verdict, 'still judged');
    assert.equal(tenant.kinds, null);
    assert.deepEqual(tenant.evaluatedTrend, []);
    assert.equal(waivedDisposition(data, tenant), 'accepted risk');
    assert.equal(tenant.findings.length, 5);
  });
});
