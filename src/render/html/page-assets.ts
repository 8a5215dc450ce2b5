// The page's script and style from their source files (page/): the script modules joined into one
// classic script in the order below, each module's `import … from './x.js'` and `export` keyword
// dropped (they share one function scope), so the page needs no module loader and one hash allows
// it. The build (scripts/build.mjs) runs this once and puts the result in the bundle; running from
// source, assets.ts runs it at start. Node built-ins only: the build imports it on its own.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The modules, each after those it imports. */
export const PAGE_SCRIPTS = [
  'dom.js',
  'model.js',
  'table.js',
  'chart.js',
  'coverage.js',
  'tenant.js',
  'fleet.js',
  'main.js',
] as const;

export const PAGE_STYLE = 'page.css';

export interface PageAssets {
  script: string;
  style: string;
}

const LOCAL_IMPORT = /^import\s*\{[^}]*\}\s*from\s*'\.\/[\w-]+\.js';[ \t]*\n/gm;
const EXPORT = /^export (?=(?:async )?function |const |let |class )/gm;

/** One module's text as part of the joined script; throws on anything the join cannot keep. */
export function moduleBody(name: string, text: string): string {
  const body = text.replace(LOCAL_IMPORT, '').replace(EXPORT, '');
  const left = /^\s*(?:import|export)\b.*$/m.exec(body);
  if (left)
    throw new Error(`page/${name}: cannot join "${left[0].trim()}" (local named imports only)`);
  if (/<\/script|<!--/i.test(body)) throw new Error(`page/${name}: holds </script or <!--`);
  return body;
}

/** The modules joined into one script (strict, in its own scope). */
export function joinModules(modules: ReadonlyArray<[name: string, text: string]>): string {
  const bodies = modules.map(([name, text]) => `// page/${name}\n${moduleBody(name, text)}`);
  return `(function () {\n'use strict';\n${bodies.join('\n')}\n})();\n`;
}

/** The script and style of the page from the folder of its sources. */
export function loadPageAssets(folder: string): PageAssets {
  const read = (name: string) => readFileSync(join(folder, name), 'utf8');
  const style = read(PAGE_STYLE);
  if (/<\/style/i.test(style)) throw new Error(`page/${PAGE_STYLE}: holds </style`);
  return { script: joinModules(PAGE_SCRIPTS.map((name) => [name, read(name)])), style };
}
