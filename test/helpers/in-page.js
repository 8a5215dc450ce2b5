// What the report pages' tests ask inside the page: functions puppeteer sends to the browser and
// runs there (each on its own: no closure, no import). Plain JavaScript with the browser's globals,
// which the project's TypeScript does not know; in-page.d.ts gives their types.

/** Whether the button the selector names is pressed. */
export function pressed(selector) {
  return document.querySelector(selector)?.getAttribute('aria-pressed') === 'true';
}

/** How many table rows are on the page. */
export function rowCount() {
  return document.querySelectorAll('tbody tr.row').length;
}

/** The data-index of the last table row on the page. */
export function lastRowIndex() {
  return [...document.querySelectorAll('tbody tr.row')].at(-1)?.getAttribute('data-index') ?? null;
}

/** The address's fragment. */
export function hash() {
  return location.hash;
}

/** What the page made: images, scripts, links, elements with an inline handler, whether a
 *  hostile script ran (window.__pwned), and the page's text. */
export function madeOfPage() {
  return {
    images: document.querySelectorAll('img').length,
    scripts: document.querySelectorAll('script').length,
    links: [...document.querySelectorAll('a')].map((a) => a.getAttribute('href')),
    handlers: [...document.querySelectorAll('*')].filter((node) =>
      [...node.attributes].some((attribute) => attribute.name.startsWith('on')),
    ).length,
    pwned: window.__pwned ?? 'never set',
    heading: document.querySelector('h1')?.textContent ?? '',
    text: document.body.textContent ?? '',
  };
}

/** Adds a script and a style the page did not bring; says whether either took effect. */
export async function foreignCodeRuns() {
  const script = document.createElement('script');
  script.textContent = 'window.__ran = true';
  document.body.append(script);
  const style = document.createElement('style');
  style.textContent = 'body { color: rgb(1, 2, 3) }';
  document.head.append(style);
  await new Promise((resolve) => setTimeout(resolve, 50));
  return {
    script: window.__ran === true,
    style: getComputedStyle(document.body).color === 'rgb(1, 2, 3)',
  };
}

/** Scrolls the element into view, waits for the page to draw, and says where its middle is
 *  (at most 40 px in from its left: a wide row is clicked on its first cell). */
export async function centerOf(node) {
  node.scrollIntoView({ block: 'center' });
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const rect = node.getBoundingClientRect();
  return { x: rect.left + Math.min(rect.width / 2, 40), y: rect.top + rect.height / 2 };
}

/** Milliseconds from a click on the element to the view it asks for, drawn (two frames). */
export async function clickToDrawn(selector) {
  const start = performance.now();
  document.querySelector(selector)?.click();
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  return performance.now() - start;
}
