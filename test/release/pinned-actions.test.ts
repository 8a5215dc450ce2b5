// Every third-party action and reusable workflow the repository uses or shows is pinned to a full
// commit SHA with its release in a comment, one release per action: the workflows, the examples,
// the action metadata files and every YAML block of every Markdown document.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import { pinProblems, usesIn, yamlBlocksOf, type Use } from '../helpers/action-pins.js';
import { ROOT } from '../cli/helpers.js';

const SHA = '3d3c42e5aac5ba805825da76410c181273ba90b1';

/** The repository's files of interest: YAML under .github and docs, action.yml files, Markdown. */
async function sources(): Promise<Array<{ where: string; text: string }>> {
  const paths = await glob(
    ['.github/**/*.{yml,yaml}', 'docs/**/*.{yml,yaml}', '**/action.{yml,yaml}', '**/*.md'],
    {
      cwd: ROOT,
      dot: true,
      ignore: ['**/node_modules/**', '.git/**', 'dist/**', 'test/fixtures/**', 'bench/results/**'],
    },
  );
  const found: Array<{ where: string; text: string }> = [];
  for (const path of paths.sort()) {
    const text = await readFile(join(ROOT, path), 'utf8');
    if (path.endsWith('.md')) found.push(...yamlBlocksOf(path, text));
    else found.push({ where: path, text });
  }
  return found;
}

const use = (uses: string, comment = '', where = 'x.yml'): Use => ({ where, uses, comment });

describe('actions are pinned to commits', () => {
  it('refuses a tag, a branch, a short SHA, a SHA without its release, two releases of one action', () => {
    assert.equal(pinProblems([use('actions/checkout@v4')]).length, 1, 'a tag');
    assert.equal(pinProblems([use('actions/checkout@main')]).length, 1, 'a branch');
    assert.equal(pinProblems([use('actions/checkout@3d3c42e', 'v7.0.1')]).length, 1, 'short');
    assert.equal(pinProblems([use(`actions/checkout@${SHA}`)]).length, 1, 'no comment');
    assert.equal(pinProblems([use(`actions/checkout@${SHA}`, 'v7')]).length, 1, 'not a release');
    assert.equal(pinProblems([use('docker://alpine:3')]).length, 1, 'an image tag');
    assert.equal(pinProblems([use('tenant-scan/tenant-scan@main')]).length, 1, 'our own branch');
    assert.equal(
      pinProblems([use('someone/reusable/.github/workflows/x.yml@v1')]).length,
      1,
      'a reusable workflow at a tag',
    );
    const twoReleases = pinProblems([
      use(`github/codeql-action/init@${SHA}`, 'v4.36.2', 'a.yml'),
      use(`github/codeql-action/upload-sarif@${'0'.repeat(40)}`, 'v4.35.0', 'b.yml'),
    ]);
    assert.equal(twoReleases.length, 1);
    assert.match(
      twoReleases[0] ?? '',
      /github\/codeql-action is pinned to 2 releases: .*a\.yml.*b\.yml/,
    );
  });

  it('accepts a pinned action, our own action at a tag or a commit, a local action, an image digest', () => {
    assert.deepEqual(
      pinProblems([
        use(`actions/checkout@${SHA}`, 'v7.0.1'),
        use(`actions/checkout@${SHA}`, 'v7.0.1', 'other.yml'),
        use('tenant-scan/tenant-scan@v1'),
        use(`tenant-scan/tenant-scan/rollup@${SHA}`, 'v1.2.3'),
        use('tenant-scan/tenant-scan/.github/workflows/tenant-scan.yml@v1'),
        use('./'),
        use('./rollup'),
        use(`docker://alpine@sha256:${'a'.repeat(64)}`),
      ]),
      [],
    );
  });

  it('reads each uses: with its comment, and refuses a uses: line it cannot read as one', () => {
    const text = `jobs:\n  a:\n    steps:\n      - uses: actions/checkout@${SHA} # v7.0.1\n      - run: echo\n`;
    assert.deepEqual(usesIn('w.yml', text), [use(`actions/checkout@${SHA}`, 'v7.0.1', 'w.yml')]);
    const hidden = 'steps:\n  - run: |\n      echo\n    uses: x@v1\n  - run: |\n      uses: y@v1\n';
    assert.throws(() => usesIn('h.yml', hidden), /2 uses: lines but 1 parsed/);
    const blocks = yamlBlocksOf(
      'doc.md',
      'text\n```yaml\n- uses: a/b@v1\n```\n\n```yml\nx: 1\n```\n',
    );
    assert.deepEqual(
      blocks.map((b) => b.where),
      ['doc.md snippet 1', 'doc.md snippet 2'],
    );
  });

  it('in .github/, docs/, every action.yml and every YAML block of the Markdown documents', async () => {
    const all = (await sources()).flatMap(({ where, text }) => usesIn(where, text));
    assert.deepEqual(pinProblems(all), []);
    const thirdParty = all.filter(
      (u) => !u.uses.startsWith('./') && !u.uses.startsWith('tenant-scan/tenant-scan'),
    );
    const where = new Set(thirdParty.map((u) => u.where.split(' ')[0]));
    for (const file of ['.github/workflows/ci.yml', '.github/workflows/tenant-scan.yml']) {
      assert.ok(where.has(file), `${file} was read`);
    }
    assert.ok(thirdParty.length >= 10, `only ${thirdParty.length} third-party uses found`);
  });
});
