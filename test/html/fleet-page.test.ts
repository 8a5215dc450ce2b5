// A fleet's report page in a real Chromium, from records the roll-up read from disk: its tenants
// worst first with their verdicts, a click that opens a tenant's own findings and a way back, the
// checks failing in most tenants with where they fail, a verdict filter — all without a request
// out or an error, and hostile tenant names and findings shown as text.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { JobTimeoutError, jobErrorLine } from '../../src/pipeline/common/errors.js';
import { ProgressWatch } from '../../src/pipeline/job/stall.js';
import { errorRecord, writeRecord, type RunRecord } from '../../src/pipeline/output/record.js';
import { rollUpFiles, type Rollup } from '../../src/pipeline/rollup/rollup.js';
import { FleetFindings, fleetPageData } from '../../src/render/html/fleet-data.js';
import { renderPage } from '../../src/render/html/page.js';
import {
  clickOn,
  openFile,
  textsOf,
  useBrowser,
  waitFor,
  type OpenedPage,
} from '../helpers/browser.js';
import { hash, madeOfPage, rowCount } from '../helpers/in-page.js';
import { writeSampleRecords } from '../helpers/report-pages.js';

let folder: string;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tenant-scan-fleet-html-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A roll-up of `tenants` records (and one expected tenant without any) and its page on disk. */
async function fleetFile(
  name: string,
  tenants: number,
  hostile = false,
  more: Record<string, RunRecord> = {},
) {
  const records = join(folder, `${name}-records`);
  const names = await writeSampleRecords(records, tenants, 24, { hostile });
  for (const [tenant, record] of Object.entries(more)) {
    await writeRecord(join(records, `${tenant}.json`), record);
    names.push(tenant);
  }
  const findings = new FleetFindings();
  const rollup = await rollUpFiles(
    [`${name}-records/*.json`],
    folder,
    { expect: [...names, 'tailspin'] },
    { observe: findings.observe },
  );
  const path = join(folder, `${name}.html`);
  await writeFile(path, renderPage(fleetPageData(rollup, findings)));
  return { path, rollup, records };
}

/** What a tenant's record says of its trends. */
async function recordTrends(records: string, tenant: string) {
  const record = JSON.parse(await readFile(join(records, `${tenant}.json`), 'utf8')) as {
    trend: number[];
    evaluatedTrend: Array<number | null>;
  };
  return record;
}

/** A count series in words, as the page's trend cell says it. */
const series = (values: ReadonlyArray<number | null>) =>
  values.map((value) => (value === null ? '?' : String(value))).join(' → ');

function assertQuiet(opened: OpenedPage, path: string): void {
  assert.deepEqual(opened.requests, [`file://${path}`], 'only the file itself');
  assert.deepEqual(opened.problems, []);
  assert.deepEqual(opened.dialogs, []);
}

const cells = (page: Page, column: number) => textsOf(page, `tbody tr.row td:nth-child(${column})`);

describe('a fleet’s report page in Chromium', () => {
  const chromium = useBrowser();
  let fleet: { path: string; rollup: Rollup; records: string };
  before(async () => {
    fleet = await fleetFile('fleet', 6);
  });

  it('lists the tenants worst first with their verdicts, and says the roll-up’s verdict', async () => {
    const opened = await openFile(chromium.browser, fleet.path);
    const { page } = opened;
    assert.deepEqual(
      await cells(page, 1),
      fleet.rollup.tenants.map((row) => row.tenant),
    );
    const verdicts = await cells(page, 2);
    assert.deepEqual(verdicts, [
      'Missing',
      'Failed',
      'Failed',
      'Failed',
      'Failed',
      'Failed',
      'Passed',
    ]);
    const [headline] = await textsOf(page, '#headline');
    assert.equal(headline, 'Failed Tenant roll-up failed: 6 of 7 tenants failed (at most 0 may)');
    assert.equal(await page.$$eval('tbody tr.row svg.spark', (lines) => lines.length), 6);
    await clickOn(page, 'button.filter[data-verdict="passed"]');
    assert.deepEqual(await cells(page, 1), ['tenant-0005']);
    assertQuiet(opened, fleet.path);
    await page.close();
  });

  it("each tenant's coverage and its drop, a drop that fails marked; the trend shows the checks evaluated per scan", async () => {
    const opened = await openFile(chromium.browser, fleet.path);
    const { page } = opened;
    assert.deepEqual(
      await cells(page, 8),
      fleet.rollup.tenants.map(({ coverage: c }) =>
        c
          ? `${c.evaluatedNow} of ${c.baselineEvaluated}${c.dropped > 0 ? `, ${c.dropped} dropped` : ''}${c.fails ? ' fails' : ''}`
          : '—',
      ),
    );
    const failing = fleet.rollup.tenants
      .filter((row) => row.coverage?.fails)
      .map((row) => row.tenant);
    assert.deepEqual(failing, ['tenant-0002'], 'the sample drops 30 checks in one tenant');
    const marked = await page.$$eval('tbody tr.row', (rows) =>
      rows
        .filter((row) => row.querySelector('[data-state="fails"] .badge'))
        .map((row) => row.querySelector('td')?.textContent),
    );
    assert.deepEqual(marked, failing);
    const trends = await page.$$eval('tbody tr.row', (rows) =>
      rows.map((row) => [
        row.querySelector('td')?.textContent,
        row.querySelector('.trend-cell')?.getAttribute('title') ?? '',
        row.querySelectorAll('svg.spark polyline.evaluated').length,
      ]),
    );
    for (const [tenant, title, lines] of trends.slice(1)) {
      const record = await recordTrends(fleet.records, String(tenant));
      assert.equal(
        title,
        `Failed per scan: ${series(record.trend)}; checks evaluated per scan: ${series(record.evaluatedTrend)}`,
      );
      assert.equal(lines, 2, `${tenant}: its evaluated line breaks at the unknown scan`);
    }
    await page.click('button.sort[data-key="coverage"]');
    const sorted = await page.$$eval('tbody tr.row', (rows) =>
      rows.map((row) => row.querySelector('td')?.textContent ?? ''),
    );
    const dropOf = (name: string) =>
      fleet.rollup.tenants.find((row) => row.tenant === name)?.coverage?.dropped ?? -1;
    assert.equal(sorted[0], 'tenant-0002', 'worst first: the drop that fails');
    const drops = sorted.map(dropOf);
    assert.deepEqual(
      drops,
      [...drops].sort((a, b) => b - a),
      'then the biggest drop; none last',
    );
    assertQuiet(opened, fleet.path);
    await page.close();
  });

  it("a tenant's page says its coverage and charts its checks evaluated; a waiver shows its disposition", async () => {
    const opened = await openFile(chromium.browser, fleet.path);
    const { page } = opened;
    const index = fleet.rollup.tenants.findIndex((row) => row.tenant === 'tenant-0003');
    await page.evaluate(`location.hash = '#tenant-${index}'`);
    await page.waitForSelector('.tenant-view');
    const row = fleet.rollup.tenants[index];
    const coverage = row?.coverage;
    assert.ok(coverage);
    assert.match(
      (await textsOf(page, '#coverage'))[0] ?? '',
      new RegExp(
        `^Coverage: ${coverage.evaluatedNow} checks evaluated now, ${coverage.baselineEvaluated} in scan \\S+; ${coverage.dropped} not evaluated now \\([\\d.]+ %, at most 10 %\\)$`,
      ),
    );
    assert.deepEqual(await textsOf(page, '#coverage-checks'), [
      'Evaluated in the baseline, not evaluated now: MT.1201, MT.1202',
    ]);
    const record = await recordTrends(fleet.records, 'tenant-0003');
    const dots = await page.$$eval('figure.trend.evaluated circle title', (tips) =>
      tips.map((tip) => Number(/(\d+) evaluated$/.exec(tip.textContent ?? '')?.[1])),
    );
    assert.deepEqual(
      dots,
      record.evaluatedTrend.filter((value) => value !== null),
    );
    await clickOn(page, 'button[data-state="waived"]');
    await waitFor(page, 1, rowCount);
    await clickOn(page, 'tbody tr.row:nth-of-type(2)');
    await page.waitForSelector('#detail h3');
    assert.match((await textsOf(page, '#detail'))[0] ?? '', /Disposition\s+false positive\n/);
    assertQuiet(opened, fleet.path);
    await page.close();
  });

  it("a tenant's row opens its own findings; the way back leads to the tenants", async () => {
    const opened = await openFile(chromium.browser, fleet.path);
    const { page } = opened;
    const row = fleet.rollup.tenants[1];
    assert.ok(row);
    await clickOn(page, 'tbody tr.row:nth-of-type(3)');
    await page.waitForSelector('.tenant-view');
    assert.equal((await textsOf(page, '.tenant-view h1'))[0], `${row.tenant} (${row.name})`);
    assert.equal(
      (await textsOf(page, '#shown'))[0],
      `Showing ${row.failed} of ${row.failed} failed findings`,
    );
    assert.equal(await page.evaluate(hash), '#tenant-1');
    await clickOn(page, 'tbody tr.row:nth-of-type(2)');
    await page.waitForSelector('#detail h3');
    assert.match((await textsOf(page, '#detail'))[0] ?? '', /REMEDIATION\n/);
    await clickOn(page, 'button.back');
    await page.waitForSelector('.fleet-view');
    assert.equal((await cells(page, 1)).length, 7);
    assertQuiet(opened, fleet.path);
    await page.close();
  });

  it('the same check failing in many tenants: most first, and where, a click away', async () => {
    const opened = await openFile(chromium.browser, fleet.path);
    const { page } = opened;
    await clickOn(page, 'button.tab[data-tab="checks"]');
    await page.waitForSelector('section.checks');
    const first = fleet.rollup.checks[0];
    assert.ok(first);
    assert.deepEqual(
      (await cells(page, 1)).slice(0, 3),
      fleet.rollup.checks.slice(0, 3).map((c) => c.check),
    );
    assert.equal(
      (await cells(page, 2))[0],
      `${first.failingTenants} of ${fleet.rollup.judgedTenants}`,
    );
    await clickOn(page, 'tbody tr.row:nth-of-type(2)');
    assert.deepEqual(await textsOf(page, '#detail li'), first.tenants);
    await clickOn(page, '#detail li button');
    await page.waitForSelector('.tenant-view');
    assert.equal((await textsOf(page, '.tenant-view h1'))[0]?.split(' ')[0], first.tenants[0]);
    assertQuiet(opened, fleet.path);
    await page.close();
  });

  it('a tenant whose scan stalled has no verdict, and its row and page say the scan stalled', async () => {
    // The record a run leaves when stall-minutes stops its scan (pipeline/run.ts).
    const watch = new ProgressWatch();
    watch.observe({ progress: 45, status: 'running' }, 0);
    const stall = new JobTimeoutError('Wait', watch.stalledDetail(30 * 60_000, 'stall-minutes'));
    const line = jobErrorLine(stall, []);
    const stalled = await fleetFile('stalled', 2, false, {
      'tenant-stalled': errorRecord(line, { waited: true, label: 'tenant-stalled' }),
    });
    const opened = await openFile(chromium.browser, stalled.path);
    const { page } = opened;
    const row = await page.$$eval('tbody tr.row', (rows) =>
      rows
        .map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? ''))
        .find((cells) => cells[0] === 'tenant-stalled'),
    );
    assert.equal(row?.[1], 'Error');
    assert.equal(
      line,
      'Wait failed: the scan stalled: no progress for 30 minutes (at 45 %; stall-minutes)',
    );
    assert.equal(row?.at(-1), line, 'the note says why');
    const index = stalled.rollup.tenants.findIndex((t) => t.tenant === 'tenant-stalled');
    await page.evaluate(`location.hash = '#tenant-${index}'`);
    await page.waitForSelector('.tenant-view');
    assert.deepEqual(await textsOf(page, '#headline'), [
      `Error No verdict: the run ended in an error: ${line}`,
    ]);
    const view = (await textsOf(page, '.tenant-view'))[0] ?? '';
    assert.equal(view.split(line).length - 1, 1, `the cause is said once:\n${view}`);
    assert.equal(await page.$$eval('tbody tr.row', (rows) => rows.length), 0, 'no findings table');
    assert.deepEqual(await textsOf(page, '#no-findings'), [
      'None listed: without a verdict, no list of findings is whole.',
    ]);
    assertQuiet(opened, stalled.path);
    await page.close();
  });

  it('hostile tenant names and findings stay text', async () => {
    const hostile = await fleetFile('hostile', 3, true);
    const opened = await openFile(chromium.browser, hostile.path);
    const { page } = opened;
    await clickOn(page, 'tbody tr.row:nth-of-type(3)');
    await page.waitForSelector('.tenant-view');
    await clickOn(page, 'tbody tr.row:nth-of-type(2)');
    const made = await page.evaluate(madeOfPage);
    assert.deepEqual(
      { images: made.images, scripts: made.scripts, links: made.links, pwned: made.pwned },
      { images: 0, scripts: 2, links: [], pwned: 'never set' },
    );
    assert.match(made.heading, /<img src=x onerror="window.__pwned=1">/);
    assertQuiet(opened, hostile.path);
    await page.close();
  });
});
