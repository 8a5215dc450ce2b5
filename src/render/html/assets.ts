// The page's script and style (page-assets.ts). Running from source they are read from page/ at
// start; the build replaces this module with their text (scripts/build.mjs), so that a bundle reads
// no file and the CLI stays one file.

import { fileURLToPath } from 'node:url';
import { loadPageAssets, type PageAssets } from './page-assets.js';

export const PAGE_ASSETS: PageAssets = loadPageAssets(
  fileURLToPath(new URL('./page/', import.meta.url)),
);
