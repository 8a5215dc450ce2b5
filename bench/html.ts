// npm run bench:html — the report pages (issue 48) at scale, in the Chromium the tests use: a run's
// page of 10,000 failed findings against one of 100, and a fleet's page of 1,000 tenants against
// one of 10, each measured in the same run. Per page: its bytes, the time to build it (page data
// and HTML, in this process; for a fleet, the roll-up of its records on disk too), the time from
// opening the file to its first view drawn (data-ready), the rows on the page at load, the
// script's heap, and the time a person waits after a click (a severity filter on a run, a tenant
// opened on a fleet). Fresh tab per round, rounds alternating, medians.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'puppeteer-core';
import { rollUpFiles } from '../src/pipeline/rollup/rollup.js';
import { FleetFindings, fleetPageData } from '../src/render/html/fleet-data.js';
import { renderPage } from '../src/render/html/page.js';
import { runPageData } from '../src/render/html/run-data.js';
import { launchBrowser, openFile } from '../test/helpers/browser.js';
import { clickToDrawn } from '../test/helpers/in-page.js';
import { sampleRunInput, writeSampleRecords } from '../test/helpers/report-pages.js';
import { describeMachine, machineLine } from './lib/machine.js';
import { replaceBlocks } from './lib/readme.js';
import { median } from './lib/stats.js';

const ROUNDS = Number(process.env.BENCH_HTML_ROUNDS ?? 5);
const TENANT_FINDINGS = 50;

interface Built {
  name: string;
  path: string;
  bytes: number;
  buildMs: number;
  /** The click to time once the page is drawn, and what says it is done. */
  click: { selector: string; done: string };
}

interface Opened {
  loadMs: number;
  rows: number;
  heapMB: number;
  clickMs: number;
}

async function runPage(folder: string, findings: number, unique = false): Promise<Built> {
  const input = sampleRunInput(findings);
  // The worst case for the page's size: no two findings share a text.
  if (unique)
    input.findings = input.findings.map((finding, index) => ({
      ...finding,
      remediation: `${finding.remediation ?? ''} (${index})`,
      description: `${finding.description ?? ''} (${index})`,
    }));
  const built = performance.now();
  const html = renderPage(runPageData(input));
  const buildMs = performance.now() - built;
  const name = `run of ${findings.toLocaleString('en-US')} findings${unique ? ', every text its own' : ''}`;
  const path = join(folder, `run-${findings}${unique ? '-unique' : ''}.html`);
  await writeFile(path, html);
  return {
    name,
    path,
    bytes: Buffer.byteLength(html),
    buildMs,
    click: { selector: 'button[data-severity="high"]', done: '#shown' },
  };
}

async function fleetPage(folder: string, tenants: number): Promise<Built> {
  const records = `records-${tenants}`;
  await writeSampleRecords(join(folder, records), tenants, TENANT_FINDINGS);
  const started = performance.now();
  const findings = new FleetFindings();
  const rollup = await rollUpFiles(
    [`${records}/*.json`],
    folder,
    {},
    { observe: findings.observe },
  );
  const html = renderPage(fleetPageData(rollup, findings));
  const buildMs = performance.now() - started;
  const path = join(folder, `fleet-${tenants}.html`);
  await writeFile(path, html);
  return {
    name: `fleet of ${tenants.toLocaleString('en-US')} tenants × ~${TENANT_FINDINGS} findings`,
    path,
    bytes: Buffer.byteLength(html),
    buildMs,
    click: { selector: 'tbody tr.row:nth-of-type(2)', done: '.tenant-view #shown' },
  };
}

async function open(browser: Browser, built: Built): Promise<Opened> {
  const opened = await openFile(browser, built.path, { timeoutMs: 60_000 });
  const { page } = opened;
  if (opened.problems.length > 0 || opened.requests.length !== 1)
    throw new Error(`${built.name}: ${[...opened.problems, ...opened.requests].join('\n')}`);
  const rows = await page.$$eval('tbody tr.row', (nodes) => nodes.length);
  const session = await page.createCDPSession();
  await session.send('HeapProfiler.collectGarbage');
  const heap = (await page.metrics()).JSHeapUsedSize ?? Number.NaN;
  const clickMs = await page.evaluate(clickToDrawn, built.click.selector);
  await page.waitForSelector(built.click.done);
  await page.close();
  return { loadMs: opened.loadMs, rows, heapMB: heap / 1e6, clickMs };
}

function row(built: Built, runs: Opened[], base?: { built: Built; runs: Opened[] }): string {
  const load = median(runs.map((r) => r.loadMs));
  const click = median(runs.map((r) => r.clickMs));
  const heap = median(runs.map((r) => r.heapMB));
  const ratio = (value: number, of: number) => (base ? ` (×${(value / of).toFixed(1)})` : '');
  const baseLoad = base ? median(base.runs.map((r) => r.loadMs)) : 1;
  const baseClick = base ? median(base.runs.map((r) => r.clickMs)) : 1;
  const baseBytes = base?.built.bytes ?? 1;
  return [
    built.name,
    `${(built.bytes / 1e6).toFixed(2)}${ratio(built.bytes, baseBytes)}`,
    built.buildMs.toFixed(0),
    `${load.toFixed(0)}${ratio(load, baseLoad)}`,
    String(runs[0]?.rows ?? 0),
    heap.toFixed(1),
    `${click.toFixed(0)}${ratio(click, baseClick)}`,
  ].join(' | ');
}

const machine = describeMachine();
console.log(`machine: ${machineLine(machine)}`);
const folder = await mkdtemp(join(tmpdir(), 'bench-html-'));
const browser = await launchBrowser();
try {
  const pages = [
    await runPage(folder, 100),
    await runPage(folder, 10_000),
    await runPage(folder, 10_000, true),
    await fleetPage(folder, 10),
    await fleetPage(folder, 1_000),
  ];
  const runs = pages.map(() => [] as Opened[]);
  for (let round = 0; round < ROUNDS; round++)
    for (const [index, built] of pages.entries()) runs[index]?.push(await open(browser, built));
  const at = (index: number) => ({ built: pages[index] as Built, runs: runs[index] ?? [] });
  const lines = [
    `Run of ${new Date().toISOString()} (\`npm run bench:html\`) on ${machineLine(machine)}; Chromium of @sparticuz/chromium, headless; ${ROUNDS} rounds, a fresh tab each, medians.`,
    '',
    '| page | MB (× baseline) | build ms | open → drawn ms (×) | rows on the page | JS heap MB after GC | click → drawn ms (×) |',
    '|---|---|---|---|---|---|---|',
    row(pages[0] as Built, at(0).runs),
    row(pages[1] as Built, at(1).runs, at(0)),
    row(pages[2] as Built, at(2).runs, at(0)),
    row(pages[3] as Built, at(3).runs),
    row(pages[4] as Built, at(4).runs, at(3)),
  ].map((line) => (line.includes(' | ') && !line.startsWith('|') ? `| ${line} |` : line));
  console.log(lines.join('\n'));
  await replaceBlocks(fileURLToPath(new URL('./README.md', import.meta.url)), {
    html: lines.join('\n'),
  });
} finally {
  await browser.close();
  await rm(folder, { recursive: true, force: true });
}
