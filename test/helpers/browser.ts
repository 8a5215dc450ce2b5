// A real Chromium for the report pages' tests and bench: the one @sparticuz/chromium ships inside
// its npm package (unpacked to /tmp on first use), driven by puppeteer-core. One browser per test
// file (useBrowser); each page opened from disk records every request it makes, every console
// error, page error and dialog, so a test can say that nothing left the page and nothing failed.

import chromium from '@sparticuz/chromium';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import { pathToFileURL } from 'node:url';
import { after, before } from 'node:test';
import { centerOf } from './in-page.js';

/** Flags of the package's defaults that loosen the web's rules (same-origin, mixed content):
 *  a page's Content-Security-Policy is tested under the rules a reader's browser applies. */
const LOOSENING = new Set([
  '--disable-web-security',
  '--allow-running-insecure-content',
  '--disable-site-isolation-trials',
]);

/** Nothing of the browser's own talks to the network while a test counts requests. */
const QUIET = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-default-apps',
  '--disable-sync',
  '--disable-extensions',
  '--no-first-run',
  '--metrics-recording-only',
  '--mute-audio',
  '--no-pings',
];

export async function launchBrowser(): Promise<Browser> {
  const args = [...chromium.args.filter((arg) => !LOOSENING.has(arg)), ...QUIET];
  return puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args,
    headless: 'shell',
    defaultViewport: { width: 1280, height: 900 },
  });
}

/** The file's browser, launched before the file's first test and closed after its last. */
export function useBrowser(): { readonly browser: Browser } {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchBrowser();
  });
  after(async () => {
    await browser?.close();
  });
  return {
    get browser(): Browser {
      if (!browser) throw new Error('the browser is not started (useBrowser in a describe)');
      return browser;
    },
  };
}

export interface OpenedPage {
  page: Page;
  /** The address of every request the page made, the file's own first. */
  requests: string[];
  /** Console errors and warnings, uncaught page errors, failed requests. */
  problems: string[];
  /** Every alert, confirm or prompt (dismissed). */
  dialogs: string[];
  /** From the start of the navigation to the page's first view drawn (data-ready). */
  loadMs: number;
}

/** Opens a file as a reader does (file://) and waits for its first view. */
export async function openFile(
  browser: Browser,
  path: string,
  options: {
    timeoutMs?: number;
    viewport?: { width: number; height: number; deviceScaleFactor?: number };
  } = {},
): Promise<OpenedPage> {
  const page = await browser.newPage();
  if (options.viewport) await page.setViewport(options.viewport);
  const opened: OpenedPage = { page, requests: [], problems: [], dialogs: [], loadMs: 0 };
  page.on('request', (request) => opened.requests.push(request.url()));
  page.on('requestfailed', (request) =>
    opened.problems.push(`request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`),
  );
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warn')
      opened.problems.push(`console ${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => opened.problems.push(`page error: ${String(error)}`));
  page.on('dialog', (dialog) => {
    opened.dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  const timeout = options.timeoutMs ?? 15_000;
  const start = performance.now();
  await page.goto(pathToFileURL(path).href, { waitUntil: 'load', timeout });
  await page.waitForSelector('html[data-ready="true"]', { timeout });
  opened.loadMs = performance.now() - start;
  return opened;
}

/** Clicks the element as a person does, with the mouse where it is on screen. A windowed table
 *  draws its rows again as it scrolls (puppeteer's own click scrolls, then finds the row it held
 *  gone): the element is scrolled into view first, then the mouse clicks that place. */
export async function clickOn(page: Page, selector: string): Promise<void> {
  const box = await page.$eval(selector, centerOf);
  await page.mouse.click(box.x, box.y);
}

/** Waits until `ask` (an in-page.js function) answers `expected` in the page. */
export async function waitFor<A extends unknown[], T>(
  page: Page,
  expected: T,
  ask: (...args: A) => T | Promise<T>,
  ...args: A
): Promise<void> {
  const deadline = Date.now() + 10_000;
  let answer: T | undefined;
  while (Date.now() < deadline) {
    answer = (await page.evaluate(ask as (...a: unknown[]) => T, ...args)) as T;
    if (JSON.stringify(answer) === JSON.stringify(expected)) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the page answered ${JSON.stringify(answer)}, not ${JSON.stringify(expected)}`);
}

/** What a reader sees of the elements `selector` matches: their visible text. */
export function textsOf(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (nodes) =>
    nodes.map((node) => (node as unknown as { innerText: string }).innerText),
  );
}
