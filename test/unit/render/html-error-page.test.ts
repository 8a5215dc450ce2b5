// The page of a run that ended in an error (render/html): no verdict said plainly, the error's one
// line as the cause (service text in it cleaned like any other: controls, bidi marks, secrets; kept
// in the data block only), what was known (tenant, scan, when it ran), and no findings, counts,
// kinds or coverage that would read as a complete result.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Scan } from '../../../src/client/index.js';
import type { RunFacts } from '../../../src/pipeline/common/errors.js';
import { renderPage } from '../../../src/render/html/page.js';
import { NO_VERDICT_ERROR, errorInputOf, runPageData } from '../../../src/render/html/run-data.js';
import { HOSTILE } from '../../helpers/report-pages.js';

const KEY = 'ak_live_0123456789abcdefghijklmnopqrstuv';

const runningScan: Scan = {
  id: 'scan-7f3a',
  status: 'running',
  phase: 'running',
  knownStatus: true,
  terminal: false,
  progress: 45,
  scanType: 'compliance',
  createdAt: '2026-11-26T05:58:00Z',
  startedAt: '2026-11-26T05:58:30Z',
  raw: {},
};

const known: RunFacts = {
  tenantName: 'Contoso Ltd',
  scan: runningScan,
  startedAt: '2026-11-26T05:57:55.000Z',
  stoppedAt: '2026-11-26T06:28:10.000Z',
};

const LINE =
  'Wait failed: the scan did not finish within 30 minutes (scan-timeout-minutes); scan scan-7f3a was cancelled';

function errorTenant(line: string, facts: RunFacts = known, secrets: string[] = []) {
  const data = runPageData(errorInputOf(line, facts, 'contoso'), {
    secrets,
    generatedAt: '2026-11-26T06:28:11Z',
  });
  const [tenant] = data.tenants;
  assert.ok(tenant);
  return { data, tenant };
}

describe('the page of a run that ended in an error (render/html)', () => {
  it('says there is no verdict, and why in the error line’s words', () => {
    const { data, tenant } = errorTenant(LINE);
    assert.equal(data.kind, 'run');
    assert.equal(data.verdict, 'error');
    assert.equal(tenant.verdict, 'error');
    assert.equal(data.headline, NO_VERDICT_ERROR);
    assert.equal(tenant.headline, '⚠️ No verdict: the run ended in an error');
    assert.equal(tenant.problem, LINE);
  });

  it('lists what was known: the tenant, the scan as last read, when the run started, stopped and how long it ran', () => {
    const { tenant } = errorTenant(LINE);
    assert.equal(tenant.name, 'contoso');
    assert.equal(tenant.serviceName, 'Contoso Ltd');
    assert.deepEqual(tenant.facts, [
      ['Tenant', 'Contoso Ltd'],
      ['Label', 'contoso'],
      ['Scan', 'scan-7f3a'],
      ['Scan type', 'compliance'],
      ['Status', 'running'],
      ['Progress', '45 %'],
      ['Created', '2026-11-26T05:58:00Z'],
      ['Started', '2026-11-26T05:58:30Z'],
      ['Run started', '2026-11-26T05:57:55.000Z'],
      ['Run stopped', '2026-11-26T06:28:10.000Z'],
      ['Ran for', '30 min 15 s'],
    ]);
  });

  it('before the key was checked: no tenant or scan, only when it ran', () => {
    const early = { startedAt: known.startedAt, stoppedAt: '2026-11-26T05:57:57.000Z' };
    const { tenant } = errorTenant('Connection failed: nothing answers at …', early);
    assert.equal(tenant.name, 'contoso');
    assert.equal(tenant.serviceName, null);
    assert.deepEqual(tenant.facts, [
      ['Label', 'contoso'],
      ['Run started', '2026-11-26T05:57:55.000Z'],
      ['Run stopped', '2026-11-26T05:57:57.000Z'],
      ['Ran for', '2 s'],
    ]);
  });

  it('no findings, counts, kinds, coverage, trend or figures that would read as a result', () => {
    const { tenant } = errorTenant(LINE);
    assert.deepEqual(
      {
        findings: tenant.findings,
        counts: tenant.counts,
        kinds: tenant.kinds,
        coverage: tenant.coverage,
        trend: tenant.trend,
        notes: tenant.notes,
        fixed: tenant.fixed,
      },
      { findings: [], counts: [], kinds: null, coverage: null, trend: [], notes: [], fixed: [] },
    );
    assert.deepEqual(tenant.figures, {
      failed: null,
      gating: null,
      new: null,
      fixed: null,
      overdue: null,
      worst: -1,
    });
  });

  it("the service's text in the line is cleaned like any other: no control, bidi mark or secret", () => {
    const hostile = `Results failed: GET /scans/x/results: HTTP 500 (${HOSTILE.control}${HOSTILE.rtl} ${HOSTILE.markup} key ${KEY})`;
    const hostileScan = { ...runningScan, status: `run${HOSTILE.control}ning${HOSTILE.rtl}` };
    const { data, tenant } = errorTenant(hostile, { ...known, scan: hostileScan }, [KEY]);
    // eslint-disable-next-line no-control-regex -- the marks the page must not hold
    const marks = /[\u202a-\u202e\u2066-\u2069\u200b\u001b\u0007]/;
    const problem = tenant.problem ?? '';
    assert.doesNotMatch(problem, marks);
    assert.ok(!problem.includes(KEY), problem);
    assert.match(problem, /\[redacted\]/);
    assert.ok(problem.includes(HOSTILE.markup), 'markup stays text, in the data');
    assert.ok(problem.startsWith('Results failed: GET /scans/x/results: HTTP 500 ('), problem);
    const status = tenant.facts.find(([label]) => label === 'Status')?.[1] ?? '';
    assert.doesNotMatch(status, marks);
    const html = renderPage(data);
    assert.ok(!html.includes(KEY), 'no key in the page');
    const outside = html.replace(/<script type="application\/json"[\s\S]*?<\/script>/, '');
    assert.ok(!outside.includes('HTTP 500'), 'the cause is only in the data block');
    assert.ok(!/<img/i.test(outside), 'no element made of it');
  });
});
