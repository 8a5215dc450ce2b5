// A run's report page in a real Chromium, opened from disk as a reader opens it: it asks for
// nothing but itself, logs no error, shows the summary's headline and counts, and its findings
// table filters, searches, sorts and opens each finding's detail as a person sees it. Hostile
// service text stays text; the page's policy blocks any other script; 10,000 findings open at
// once with only the rows in view on the page. The page of a run that ended in an error says there
// is no verdict and why, and shows no findings table.
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'puppeteer-core';
import { MAX_DROPPED_SHOWN } from '../../src/pipeline/gate/coverage.js';
import { renderPage } from '../../src/render/html/page.js';
import { errorInputOf, runPageData } from '../../src/render/html/run-data.js';
import {
  clickOn,
  openFile,
  textsOf,
  useBrowser,
  waitFor,
  type OpenedPage,
} from '../helpers/browser.js';
import {
  foreignCodeRuns,
  lastRowIndex,
  madeOfPage,
  pressed,
  rowCount,
} from '../helpers/in-page.js';
import { HOSTILE, sampleResult, sampleRunInput } from '../helpers/report-pages.js';

let folder: string;
before(async () => {
  folder = await mkdtemp(join(tmpdir(), 'tenant-scan-html-'));
});
after(async () => {
  await rm(folder, { recursive: true, force: true });
});

async function pageFile(name: string, html: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, html);
  return path;
}

/** Nothing left the page, nothing failed, nothing popped up. */
function assertQuiet(opened: OpenedPage, path: string): void {
  assert.deepEqual(opened.requests, [`file://${path}`], 'only the file itself');
  assert.deepEqual(opened.problems, []);
  assert.deepEqual(opened.dialogs, []);
}

const rowTexts = (page: Page) => textsOf(page, 'tbody tr.row');
const shownLine = async (page: Page) => (await textsOf(page, '#shown'))[0] ?? '';

async function clickFilter(page: Page, selector: string): Promise<void> {
  await page.click(selector);
  await waitFor(page, true, pressed, selector);
}

describe('a run’s report page in Chromium', () => {
  const chromium = useBrowser();

  it('opens from disk alone and shows the headline, counts, trend and every failed check', async () => {
    const input = sampleRunInput(14);
    const path = await pageFile('small.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    assertQuiet(opened, path);
    const [headline] = await textsOf(page, '#headline');
    assert.equal(headline, `Failed ${input.headline.replace(/^❌ /, '')}`);
    const rows = await rowTexts(page);
    assert.equal(rows.length, 14, 'a small run: every row on the page');
    for (const finding of input.findings)
      assert.ok(
        rows.some((row) => row.includes(finding.title)),
        finding.title,
      );
    const counts = await textsOf(page, 'table.counts caption');
    assert.deepEqual(counts, [
      'Failed findings by severity',
      'Failed findings by what the gate made of them',
      'Checks by result',
    ]);
    // The gate's rows add up to "Failed in all"; the fixed findings (failed no more) are apart.
    const gateRows = await textsOf(page, '.count-tables > table.counts:nth-of-type(2) tr');
    const total = gateRows.findIndex((row) => row.startsWith('Failed in all\t'));
    const sum = gateRows.slice(0, total).reduce((n, row) => n + Number(row.split('\t')[1]), 0);
    assert.equal(gateRows[total], `Failed in all\t${sum}`);
    assert.equal(sum, 14);
    assert.ok(
      gateRows.every((row) => !/fixed/i.test(row)),
      gateRows.join('\n'),
    );
    const fixed = input.gate?.fixed ?? [];
    assert.deepEqual(await textsOf(page, 'p.note.fixed'), [
      fixed.length === 0
        ? 'Fixed since the baseline: none'
        : `Fixed since the baseline (${fixed.length}): ${fixed.map((f) => `${f.identity} ${f.title}`).join('; ')}`,
    ]);
    const points = await page.$eval('svg.chart polyline', (line) => line.getAttribute('points'));
    assert.equal(points?.split(' ').length, input.gate?.trend.length);
    assert.match(await page.title(), /^Contoso Ltd: Failed — tenant scan$/);
    await page.close();
  });

  it('filters by severity, gate state and category, searches, and says how many it shows', async () => {
    const input = sampleRunInput(200);
    const path = await pageFile('filters.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    const critical = input.findings.filter((f) => f.severity === 'critical').length;
    await clickFilter(page, 'button[data-severity="critical"]');
    assert.equal(await shownLine(page), `Showing ${critical} of 200 failed findings`);
    const badges = await textsOf(page, 'tbody tr.row td:first-child');
    assert.ok(badges.length > 0 && badges.every((text) => text === 'Critical'), badges.join());
    await page.click('button[data-severity="critical"]');
    await clickFilter(page, 'button[data-state="waived"]');
    const waived = await rowTexts(page);
    assert.equal(waived.length, 1);
    assert.match(waived[0] ?? '', /Waived/);
    await page.click('button[data-state="waived"]');
    await page.type('input.search', 'mail forwarding');
    const searched = input.findings.filter((f) => /mail forwarding/i.test(f.title)).length;
    assert.ok(searched > 0);
    assert.equal(await shownLine(page), `Showing ${searched} of 200 failed findings`);
    await page.$eval('input.search', (input) => {
      (input as unknown as { value: string }).value = '';
      input.dispatchEvent(new Event('input'));
    });
    await page.select('select[aria-label="Category"]', '1');
    const category = await page.$eval(
      'select[aria-label="Category"]',
      (select) =>
        (select as unknown as { selectedOptions: Array<{ text: string }> }).selectedOptions[0]
          ?.text,
    );
    const inCategory = input.findings.filter((f) => f.category === category).length;
    assert.equal(await shownLine(page), `Showing ${inCategory} of 200 failed findings`);
    assertQuiet(opened, path);
    await page.close();
  });

  it('sorts by a column, and a finding opens its remediation, help link, deadline and waiver', async () => {
    const result = sampleResult(60);
    const input = sampleRunInput(60);
    const path = await pageFile('detail.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    await page.click('button.sort[data-key="check"]');
    const checks = await textsOf(page, 'tbody tr.row td:nth-child(2)');
    const sorted = [...checks].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    assert.deepEqual(checks, sorted);
    assert.equal(await page.$eval('th[aria-sort="ascending"]', (th) => th.textContent), 'Check');
    const waived = result.findings.find((f) => f.waiver);
    assert.ok(waived);
    await page.type('input.search', waived.identity);
    const matching = result.findings.filter((f) => f.identity.includes(waived.identity)).length;
    await waitFor(page, matching, rowCount);
    const row = await page.$$eval(
      'tbody tr.row td:nth-child(2)',
      (cells, identity) => cells.findIndex((cell) => cell.textContent === identity),
      waived.identity,
    );
    await clickOn(page, `tbody tr.row:nth-of-type(${row + 2})`);
    await page.waitForSelector('#detail h3');
    const detail = (await textsOf(page, '#detail'))[0] ?? '';
    assert.match(detail, new RegExp(`Check\\s+${waived.identity.replace(/[.#]/g, '\\$&')}`));
    assert.match(
      detail,
      /Waived\s+until 2026-12-20: Four global admins until break-glass \(owner secops@contoso\.example\)/,
    );
    assert.ok(detail.includes(waived.remediation ?? '(none)'));
    assert.match(detail, /Failing since\s+\d{4}-\d{2}-\d{2}/);
    assert.match(detail, /Disposition\s+accepted risk\n/, 'a waiver that names none');
    const link = await page.$eval('#detail a', (a) => [
      a.getAttribute('href'),
      a.getAttribute('rel'),
    ]);
    assert.deepEqual(link, [waived.reference, 'noopener noreferrer']);
    assertQuiet(opened, path);
    await page.close();
  });

  it('counts the checks by result, says the coverage compared with the checks it lost, and charts the checks evaluated per scan', async () => {
    const input = sampleRunInput(20, { dropped: 30, disposition: 'false-positive' });
    const path = await pageFile('coverage.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    assert.deepEqual(await textsOf(page, '.count-tables > table.counts:nth-of-type(3) tr'), [
      'Passed\t36',
      'Failed\t20',
      'Not evaluated: skipped\t2',
      'Not evaluated: not applicable\t1',
      'Not evaluated: deferred\t1',
      'Not evaluated in all\t4',
      'Checks in all\t60',
    ]);
    assert.deepEqual(await textsOf(page, '#coverage'), [
      'Coverage: 56 checks evaluated now, 86 in scan scan-0-1; 30 not evaluated now (34.9 %, at most 10 %) — fails the gate',
    ]);
    assert.equal(await page.$eval('#coverage', (p) => p.getAttribute('data-state')), 'fails');
    const lost = Array.from({ length: 30 }, (_, i) => `MT.${1201 + i}`).join(', ');
    assert.deepEqual(await textsOf(page, '#coverage-checks'), [
      `Evaluated in the baseline, not evaluated now: ${lost}`,
    ]);
    // The second of five scans did not say how many it evaluated: the line breaks there.
    const evaluated = 'figure.trend.evaluated';
    assert.equal(await page.$$eval(`${evaluated} polyline`, (lines) => lines.length), 2);
    const dots = await page.$$eval(`${evaluated} circle title`, (tips) =>
      tips.map((tip) => tip.textContent?.replace(/^\S+: /, '')),
    );
    assert.deepEqual(dots, ['89 evaluated', '87 evaluated', '86 evaluated', '56 evaluated']);
    assert.deepEqual(await textsOf(page, `${evaluated} figcaption`), [
      'Checks evaluated per scan, oldest first (5 scans)',
    ]);
    await clickFilter(page, 'button[data-state="waived"]');
    await clickOn(page, 'tbody tr.row:nth-of-type(2)');
    await page.waitForSelector('#detail h3');
    assert.match((await textsOf(page, '#detail'))[0] ?? '', /Disposition\s+false positive\n/);
    assertQuiet(opened, path);
    await page.close();
  });

  it('names the first checks not evaluated now and counts the rest', async () => {
    const input = sampleRunInput(3, { dropped: MAX_DROPPED_SHOWN + 5 });
    const path = await pageFile('coverage-more.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const [line] = await textsOf(opened.page, '#coverage-checks');
    const named = Array.from({ length: MAX_DROPPED_SHOWN }, (_, i) => `MT.${1201 + i}`);
    assert.equal(
      line,
      `Evaluated in the baseline, not evaluated now: ${named.join(', ')}, … and 5 more`,
    );
    assertQuiet(opened, path);
    await opened.page.close();
  });

  it('hostile service text stays text: no element, link or script is made of it', async () => {
    const input = sampleRunInput(30, { hostile: true });
    input.findings = [
      { ...input.findings[0]!, title: `${'Long title '.repeat(20_000)}end` },
      ...input.findings.slice(1),
    ];
    const path = await pageFile('hostile.html', renderPage(runPageData(input)));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    await clickOn(page, 'tbody tr.row:nth-of-type(3)');
    await page.type('input.search', 'img');
    const made = await page.evaluate(madeOfPage);
    assert.deepEqual(
      { ...made, text: '', heading: '' },
      { images: 0, scripts: 2, links: [], handlers: 0, pwned: 'never set', text: '', heading: '' },
    );
    assert.ok(made.text.includes('<img src=x onerror="window.__pwned=1">'), 'shown as text');
    assert.ok(made.text.includes('</script><script>window.__pwned=3</script><!--'));
    assert.ok(made.text.includes(`not evaluated now: MT.1201${HOSTILE.markup}, MT.1202`), 'ids');
    // eslint-disable-next-line no-control-regex -- the marks the page must not show
    const marks = new RegExp('[\\u202a-\\u202e\\u2066-\\u2069\\u200b\\u001b\\u0007]');
    assert.doesNotMatch(made.text, marks, 'no bidi or control mark');
    assert.ok(!made.text.includes('Long title '.repeat(100)), 'a huge title is cut');
    assert.ok(!HOSTILE.link.startsWith('https:'));
    assertQuiet(opened, path);
    await page.close();
  });

  it('a help link is a link only when it is https, even in data the builder did not clean', async () => {
    const data = runPageData(sampleRunInput(3));
    const rows = data.tenants[0]?.findings ?? [];
    const addresses = [
      'javascript:window.__pwned=5',
      'http://docs.example.com/x',
      'data:text/html,x',
    ];
    rows.forEach((row, index) => {
      data.strings.push(addresses[index] ?? '');
      row[5] = data.strings.length - 1;
    });
    const path = await pageFile('links.html', renderPage(data));
    const opened = await openFile(chromium.browser, path);
    for (const index of [2, 3, 4]) {
      await clickOn(opened.page, `tbody tr.row:nth-of-type(${index})`);
      await opened.page.waitForSelector('#detail h3');
      assert.equal((await opened.page.evaluate(madeOfPage)).links.length, 0, `row ${index}`);
    }
    assertQuiet(opened, path);
    await opened.page.close();
  });

  it("the page's policy is in force: a script the page did not bring does not run", async () => {
    const path = await pageFile('policy.html', renderPage(runPageData(sampleRunInput(5))));
    const opened = await openFile(chromium.browser, path);
    const ran = await opened.page.evaluate(foreignCodeRuns);
    assert.deepEqual(ran, { script: false, style: false });
    assert.ok(opened.problems.every((line) => /Content Security Policy/.test(line)));
    assert.equal(opened.problems.length, 2, opened.problems.join('\n'));
    await opened.page.close();
  });

  it('a run that ended in an error: no verdict, the cause as text, what was known, no findings table', async () => {
    const line = `Results failed: GET /scans/scan-7f3a/results: HTTP 500 (${HOSTILE.markup} ${HOSTILE.rtl})`;
    const scan = { ...sampleResult(1).scan, id: 'scan-7f3a', status: 'completed' };
    const known = {
      tenantName: 'Contoso Ltd',
      scan,
      startedAt: '2026-11-26T05:57:55.000Z',
      stoppedAt: '2026-11-26T05:59:10.000Z',
    };
    const data = runPageData(errorInputOf(line, known));
    const path = await pageFile('error.html', renderPage(data));
    const opened = await openFile(chromium.browser, path);
    const { page } = opened;
    assertQuiet(opened, path);
    assert.deepEqual(await textsOf(page, '#headline'), [
      'Error No verdict: the run ended in an error',
    ]);
    assert.deepEqual(await textsOf(page, '#problem'), [data.tenants[0]?.problem]);
    assert.match(
      (await textsOf(page, '#problem'))[0] ?? '',
      /^Results failed: .*HTTP 500 \(<img src=x/,
    );
    assert.match(await page.title(), /^Contoso Ltd: Error — tenant scan$/);
    const terms = await textsOf(page, 'dl.facts dt');
    const values = await textsOf(page, 'dl.facts dd');
    const shown = Object.fromEntries(terms.map((term, i) => [term, values[i]]));
    assert.deepEqual(
      [shown.Tenant, shown.Scan, shown['Run started'], shown['Ran for']],
      ['Contoso Ltd', 'scan-7f3a', '2026-11-26T05:57:55.000Z', '1 min 15 s'],
    );
    assert.equal(
      await page.$$eval('table[aria-label="Failed findings"], tbody tr.row', (n) => n.length),
      0,
    );
    assert.deepEqual(await textsOf(page, 'table.counts caption'), []);
    assert.deepEqual(await textsOf(page, '#no-findings'), [
      'None listed: without a verdict, no list of findings is whole.',
    ]);
    const made = await page.evaluate(madeOfPage);
    assert.deepEqual([made.images, made.links, made.handlers, made.pwned], [0, [], 0, 'never set']);
    await page.close();
  });

  it('10,000 findings open at once: only the rows in view are on the page', async (t) => {
    const html = renderPage(runPageData(sampleRunInput(10_000)));
    const path = await pageFile('large.html', html);
    const opened = await openFile(chromium.browser, path, { timeoutMs: 30_000 });
    const { page } = opened;
    t.diagnostic(
      `10,000 findings: ${Buffer.byteLength(html)} bytes, drawn in ${opened.loadMs.toFixed(0)} ms`,
    );
    assert.ok(opened.loadMs < 10_000, `${opened.loadMs} ms`);
    const rows = await page.$$eval('tbody tr.row', (nodes) => nodes.length);
    assert.ok(rows > 0 && rows < 100, `${rows} rows on the page`);
    assert.equal(await shownLine(page), 'Showing 10,000 of 10,000 failed findings');
    await page.$eval('.scroller', (scroller) => {
      scroller.scrollTop = scroller.scrollHeight;
    });
    await waitFor(page, '9999', lastRowIndex);
    assert.ok((await page.$$eval('tbody tr.row', (nodes) => nodes.length)) < 100);
    assertQuiet(opened, path);
    await page.close();
  });
});
