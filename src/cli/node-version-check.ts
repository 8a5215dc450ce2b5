// Stops the CLI with one clear line on a Node older than its bundled HTTP client (undici 8) needs,
// instead of a crash inside undici. src/cli.ts imports this module first: ES modules evaluate in
// import order, so this runs before any other module of the bundle is evaluated.
import { isAbsolute, relative } from 'node:path';

// Kept in step with package.json's engines.
const MINIMUM_NODE = [22, 19] as const;

/** The file being run as the user would type it: relative to the working directory when inside
 *  it, else the whole path; quoted for a shell when it needs to be. */
export function scriptWords(script: string | undefined, cwd: string): string {
  if (!script) return 'tenant-scan.mjs';
  const inside = relative(cwd, script);
  const path = inside !== '' && !inside.startsWith('..') && !isAbsolute(inside) ? inside : script;
  return /^[\w./@+:-]+$/.test(path) ? path : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The line for a Node older than the minimum, naming the file being run; undefined when new
 *  enough. */
export function oldNodeLine(
  version: string,
  script: string | undefined,
  cwd: string,
): string | undefined {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  if (major > MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor >= MINIMUM_NODE[1]))
    return undefined;
  const file = scriptWords(script, cwd);
  return `tenant-scan: error: Node ${MINIMUM_NODE.join('.')} or newer is needed; this is Node ${version}: use a node:24 image, or run it with npx --yes -p node@24 node ${file} …, or on GitHub the tenant-scan Action (it brings Node 24)`;
}

const tooOldNodeLine = oldNodeLine(process.versions.node, process.argv[1], process.cwd());
if (tooOldNodeLine !== undefined) {
  process.stderr.write(`${tooOldNodeLine}\n`);
  process.exit(1);
}
