// The pictures of docs/reports.md and the README: a run's report page with one finding open, and
// a fleet's, taken in the Chromium the tests use. The data is the tests' (test/helpers/report-
// pages.ts): the emulator's checks judged by the real gate, records written by the real writer.
// Not run in CI: `node --import tsx scripts/report-screenshots.ts` after a change to the page.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { rollUpFiles } from '../src/pipeline/rollup/rollup.js';
import { FleetFindings, fleetPageData } from '../src/render/html/fleet-data.js';
import { renderPage } from '../src/render/html/page.js';
import { runPageData } from '../src/render/html/run-data.js';
import { clickOn, launchBrowser, openFile } from '../test/helpers/browser.js';
import { sampleRunInput, writeSampleRecords } from '../test/helpers/report-pages.js';
import { PROJECT_ROOT } from '../test/helpers/runner.js';

const IMAGES = join(PROJECT_ROOT, 'docs', 'images');
const WRITTEN = { generatedAt: '2026-11-26T06:05:00.000Z' };
/** A page as a reader's window shows it, drawn at three quarters: the whole of it in one picture
 *  under 300 KB. */
const VIEW = { width: 1280, height: 1240, deviceScaleFactor: 0.75 };
const CLIP = { x: 0, y: 0, width: VIEW.width, height: VIEW.height };

async function picture(page: Page, name: string): Promise<void> {
  await page.evaluate('window.scrollTo(0, 0)');
  const path = join(IMAGES, name);
  await page.screenshot({ path, clip: CLIP });
  console.log(`wrote ${path}`);
}

async function main(): Promise<void> {
  const scratch = await mkdtemp(join(tmpdir(), 'tenant-scan-screenshots-'));
  const browser = await launchBrowser();
  try {
    await mkdir(IMAGES, { recursive: true });
    const run = join(scratch, 'run.html');
    // A run whose coverage dropped past its limit and with a false positive waived: what the
    // page shows of issue 47 in one picture.
    const input = {
      ...sampleRunInput(180, { dropped: 30, disposition: 'false-positive' }),
      tenantName: 'Contoso Ltd',
    };
    await writeFile(run, renderPage(runPageData(input, WRITTEN)));
    const opened = await openFile(browser, run, { viewport: VIEW });
    await clickOn(opened.page, 'tbody tr.row:nth-of-type(2)');
    await picture(opened.page, 'report-run.png');

    const names = await writeSampleRecords(join(scratch, 'records'), 24, 40);
    const findings = new FleetFindings();
    const rollup = await rollUpFiles(
      ['records/*.json'],
      scratch,
      { expect: [...names, 'fabrikam'], maxFailedTenants: 5 },
      { observe: findings.observe },
    );
    const fleet = join(scratch, 'fleet.html');
    await writeFile(fleet, renderPage(fleetPageData(rollup, findings, WRITTEN)));
    const fleetPage = await openFile(browser, fleet, { viewport: VIEW });
    await picture(fleetPage.page, 'report-fleet.png');
  } finally {
    await browser.close();
    await rm(scratch, { recursive: true, force: true });
  }
}

await main();
