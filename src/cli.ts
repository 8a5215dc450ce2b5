#!/usr/bin/env node
// Entry of the tenant-scan CLI (bundled to dist/cli/index.js): checks the Node version its bundled
// HTTP client (undici 8) needs, with one clear line instead of a crash, then only calls run().
// Kept in step with package.json's engines.
const MINIMUM_NODE = [22, 19] as const;

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
  process.stderr.write(
    `tenant-scan: error: Node ${MINIMUM_NODE.join('.')} or newer is needed; this is Node ${process.versions.node}: use a node:24 image, or run it with npx --yes -p node@24 node tenant-scan.mjs …, or on GitHub the tenant-scan Action (it brings Node 24)\n`,
  );
  process.exit(1);
}
const { run } = await import('./cli/run.js');
void run();
