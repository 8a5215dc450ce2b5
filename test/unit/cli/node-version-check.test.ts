// The old-Node line (cli/node-version-check.ts) names the file actually being run, as the user would
// type it, in the command it suggests.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oldNodeLine, scriptWords } from '../../../src/cli/node-version-check.js';

describe('the old-Node line', () => {
  it('suggests running the file being run: relative to the working directory, else its path', () => {
    assert.equal(
      oldNodeLine('20.20.2', '/home/me/tenant-scan/dist/cli/index.js', '/home/me/tenant-scan'),
      'tenant-scan: error: Node 22.19 or newer is needed; this is Node 20.20.2: use a node:24 image, or run it with npx --yes -p node@24 node dist/cli/index.js …, or on GitHub the tenant-scan Action (it brings Node 24)',
    );
    assert.match(
      oldNodeLine('22.18.0', '/opt/tools/tenant-scan.mjs', '/home/me') ?? '',
      / node \/opt\/tools\/tenant-scan\.mjs …,/,
    );
    assert.equal(scriptWords("/w/my tools/it's.mjs", '/home'), "'/w/my tools/it'\\''s.mjs'");
    assert.equal(scriptWords(undefined, '/home'), 'tenant-scan.mjs');
  });

  it('no line on 22.19 and newer', () => {
    for (const version of ['22.19.0', '22.20.1', '24.0.0', '25.1.0'])
      assert.equal(oldNodeLine(version, '/x/cli.js', '/x'), undefined, version);
    for (const version of ['22.18.9', '20.19.0', '18.0.0'])
      assert.ok(oldNodeLine(version, '/x/cli.js', '/x'), version);
  });
});
