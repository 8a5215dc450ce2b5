// Stops the CLI with one clear line on a Node older than its bundled HTTP client (undici 8) needs,
// instead of a crash inside undici. src/cli.ts imports this module first: ES modules evaluate in
// import order, so this runs before any other module of the bundle is evaluated.
// Kept in step with package.json's engines.
const MINIMUM_NODE = [22, 19] as const;

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
if (major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
  process.stderr.write(
    `tenant-scan: error: Node ${MINIMUM_NODE.join('.')} or newer is needed; this is Node ${process.versions.node}: use a node:24 image, or run it with npx --yes -p node@24 node tenant-scan.mjs …, or on GitHub the tenant-scan Action (it brings Node 24)\n`,
  );
  process.exit(1);
}
