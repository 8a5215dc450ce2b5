// The docs say what the code does: every input and output of the Action and of the reusable
// workflow is documented where users look (README.md, docs/github.md), and every file a document
// links exists inside the repository.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { Nodes, Table } from 'mdast';
import { visit } from 'unist-util-visit';
import { ROOT } from '../cli/helpers.js';
import { parseGfm } from '../helpers/gfm.js';

async function text(path: string): Promise<string> {
  return readFile(join(ROOT, path), 'utf8');
}

/** Names written as code (`name`) in a document. */
function documented(markdown: string): Set<string> {
  return new Set([...markdown.matchAll(/`([A-Za-z][A-Za-z0-9_-]*)`/g)].map((m) => m[1] ?? ''));
}

function missing(names: string[], docs: Set<string>): string[] {
  return names.filter((name) => !docs.has(name));
}

/** Every Markdown file of the repository but dependencies and build output. */
async function markdownFiles(): Promise<string[]> {
  const entries = await readdir(ROOT, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile() && e.name.endsWith('.md'))
    .map((e) => relative(ROOT, join(e.parentPath, e.name)))
    .filter(
      (path) =>
        !/^(node_modules|dist|\.git)(\/|$)/.test(path) &&
        !path.includes(`${sep}node_modules${sep}`),
    );
}

describe('the docs say what the code does', () => {
  it('every input and output of action.yml is in README.md or docs/github.md', async () => {
    const action = parse(await text('action.yml')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    };
    const docs = documented((await text('README.md')) + (await text('docs/github.md')));
    assert.deepEqual(missing(Object.keys(action.inputs), docs), [], 'inputs');
    assert.deepEqual(missing(Object.keys(action.outputs), docs), [], 'outputs');
  });

  it('every input, secret and output of the reusable workflow is in docs/github.md', async () => {
    const workflow = parse(await text('.github/workflows/tenant-scan.yml')) as {
      on: { workflow_call: Record<string, Record<string, unknown>> };
    };
    const call = workflow.on.workflow_call;
    const docs = documented(await text('docs/github.md'));
    for (const part of ['inputs', 'secrets', 'outputs']) {
      assert.deepEqual(missing(Object.keys(call[part] ?? {}), docs), [], part);
    }
  });

  it('the rollup sub-action and the multi-tenant workflow: every input and output in docs/rollup.md', async () => {
    const docs = documented(await text('docs/rollup.md'));
    const rollup = parse(await text('rollup/action.yml')) as {
      inputs: Record<string, unknown>;
      outputs: Record<string, unknown>;
    };
    assert.deepEqual(missing(Object.keys(rollup.inputs), docs), [], 'sub-action inputs');
    assert.deepEqual(missing(Object.keys(rollup.outputs), docs), [], 'sub-action outputs');
    const workflow = parse(await text('.github/workflows/tenant-scan-tenants.yml')) as {
      on: { workflow_call: Record<string, Record<string, unknown>> };
    };
    const call = workflow.on.workflow_call;
    for (const part of ['inputs', 'outputs']) {
      assert.deepEqual(missing(Object.keys(call[part] ?? {}), docs), [], `workflow ${part}`);
    }
  });

  it('every file a document links exists, inside the repository', async () => {
    const broken: string[] = [];
    for (const file of await markdownFiles()) {
      const markdown = await text(file);
      const links = [
        ...markdown.matchAll(/\]\(([^)\s]+)\)/g),
        // A relative path to a source or document written as code is a reference to it too.
        ...markdown.matchAll(/`(\.\.?\/[^`\s]+\.(?:md|ts|txt|ya?ml|json))`/g),
      ];
      for (const match of links) {
        const target = (match[1] ?? '').split('#')[0] ?? '';
        if (target === '' || /^[a-z]+:/i.test(target)) continue;
        const path = resolve(ROOT, dirname(file), target);
        const inside = path === ROOT || path.startsWith(ROOT + sep);
        if (!inside || !existsSync(path)) broken.push(`${file}: ${match[1]}`);
      }
    }
    assert.deepEqual(broken, []);
  });
});

describe('before the first release, nothing runs what is not released', () => {
  it('the README says it is not released, and no doc runs a version of the npm package', async () => {
    const released = /^## \[?\d+\.\d+\.\d+/m.test(await text('CHANGELOG.md'));
    if (released) return;
    assert.match(await text('README.md'), /^> \*\*Not released yet:\*\*/m);
    const entries = await readdir(ROOT, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile())
      .map((e) => relative(ROOT, join(e.parentPath, e.name)))
      .filter((path) => /^(docs\/|README\.md|test\/emulator\/)/.test(path));
    const running: string[] = [];
    for (const file of files) {
      const body = await text(file);
      for (const match of body.matchAll(/npx (?:--yes )?(?:-p )?tenant-scan@\d[^\s'"]*/g)) {
        running.push(`${file}: ${match[0]}`);
      }
    }
    assert.deepEqual(running, [], 'an unreleased npm version would run whoever publishes it');
  });
});

/** The text of a table cell as rendered (link text, code). */
function cellText(node: Nodes | undefined): string {
  let text = '';
  if (node) {
    visit(node, (child) => {
      if ('value' in child && typeof child.value === 'string') text += child.value;
    });
  }
  return text;
}

describe('docs/examples/README.md', () => {
  it('one table, every example workflow in it once, no row repeated', async () => {
    const examples = (await readdir(join(ROOT, 'docs', 'examples'))).filter((f) =>
      f.endsWith('.yml'),
    );
    const root = parseGfm(await text('docs/examples/README.md'));
    const firstCells: string[] = [];
    let tableCount = 0;
    visit(root, 'table', (table: Table) => {
      tableCount += 1;
      for (const row of table.children.slice(1)) {
        firstCells.push(cellText(row.children[0]));
      }
    });
    assert.equal(tableCount, 1);
    assert.deepEqual(
      [...firstCells].sort(),
      [...examples].sort(),
      'each example once, and no stray header row',
    );
  });
});
