// A fleet's report page in a real Chromium, from records the roll-up read from disk: its tenants
// worst first with their verdicts, a click that opens a tenant's own findings and a way back, the
// checks failing in most tenants with where they fail, a verdict filter — all without a request
// out or an error, and hostile tenant names and findings shown as text.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { rollUpFiles, type Rollup } from '../../src/pipeline/rollup/rollup.js';
import { FleetFindings, fleetPageData } from '../../src/render/html/fleet-data.js';
import { renderPage } from '../../src/render/html/page.js';
import { clickOn, openFile, textsOf, useBrowser, type OpenedPage } from '../helpers/browser.js';
import { hash, madeOfPage } from '../helpers/in-page.js';
import { writeSampleRecords } from '../helpers/report-pages.js';

let folder: string;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tenant-scan-fleet-html-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

/** A roll-up of `tenants` records (and one expected tenant without any) and its page on disk. */
async function fleetFile(name: string, tenants: number, hostile = false) {
  const records = join(folder, `${name}-records`);
  const names = await writeSampleRecords(records, tenants, 24, { hostile });
  const findings = new FleetFindings();
  const rollup = await rollUpFiles(
    [`${name}-records/*.json`],
    folder,
    { expect: [...names, 'tailspin'] },
    { observe: findings.observe },
  );
  const path = join(folder, `${name}.html`);
  await writeFile(path, renderPage(fleetPageData(rollup, findings)));
  return { path, rollup };
}

function assertQuiet(opened: OpenedPage, path: string): void {
  assert.deepEqual(opened.requests, [`file://${path}`], 'only the file itself');
  assert.deepEqual(opened.problems, []);
  assert.deepEqual(opened.dialogs, []);
}

const cells = (page: Page, column: number) => textsOf(page, `tbody tr.row td:nth-child(${column})`);

describe('a fleet’s report page in Chromium', () => {
  const chromium = useBrowser();
  let fleet: { path: string; rollup: Rollup };
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
