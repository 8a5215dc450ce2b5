// A report page as one HTML file (docs/reports.md): the page's script and style inline, allowed by
// their hashes under a Content-Security-Policy that allows nothing else (no request leaves the
// page, no other script runs, no inline handler, no form, no base); its data a JSON block that the
// script reads and puts on screen as text. Pure: data in, HTML out. Nothing of the service is
// written as HTML here: it is all in the JSON block, where no `<` survives.

import { createHash } from 'node:crypto';
import { PAGE_ASSETS } from './assets.js';
import type { PageAssets } from './page-assets.js';
import type { PageData } from './page-data.js';

/** The CSP source of a script's or a style's exact text. */
export function cspHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The page's policy: its own script and style by hash, and nothing else at all. */
export function contentSecurityPolicy(assets: PageAssets): string {
  return [
    "default-src 'none'",
    `script-src ${cspHash(assets.script)}`,
    `style-src ${cspHash(assets.style)}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

const JSON_ESCAPES: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
};

/** JSON for a `<script type="application/json">` block: the characters that could end the block
 *  or open a comment in it (`</script>`, `<!--`) escaped, as every `<` is. Still the same JSON. */
export function scriptJson(data: unknown): string {
  return JSON.stringify(data).replace(/[<>&\u2028\u2029]/g, (char) => JSON_ESCAPES[char] ?? char);
}

const TITLES = { run: 'Tenant scan report', fleet: 'Tenant roll-up report' } as const;

/** The page of `data`. */
export function renderPage(data: PageData, assets: PageAssets = PAGE_ASSETS): string {
  return [
    '<!DOCTYPE html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(assets)}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${TITLES[data.kind]}</title>`,
    `<style>${assets.style}</style>`,
    '</head>',
    '<body>',
    '<noscript><p>This report is drawn by its script: allow JavaScript for this file. Its data is the JSON block of the file.</p></noscript>',
    '<main id="app"></main>',
    `<script type="application/json" id="report-data">${scriptJson(data)}</script>`,
    `<script>${assets.script}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n');
}
