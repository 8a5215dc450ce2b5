// Workflows we ship pass expressions to scripts through env:, never inside run: GitHub expands
// `${{ }}` before the shell runs, so an output such as a scan id would run as code (GitHub's
// security hardening guide). Every workflow and example, and every YAML snippet of the docs.
import assert from 'node:assert/strict';
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseAllDocuments } from 'yaml';
import { ROOT } from '../cli/helpers.js';

/** Every `run:` value in a parsed YAML tree, with the path to it. */
function runScripts(node: unknown, path = ''): Array<{ path: string; script: string }> {
  if (Array.isArray(node)) return node.flatMap((item, i) => runScripts(item, `${path}[${i}]`));
  if (node === null || typeof node !== 'object') return [];
  return Object.entries(node).flatMap(([key, value]) =>
    key === 'run' && typeof value === 'string'
      ? [{ path: `${path}.run`, script: value }]
      : runScripts(value, `${path}.${key}`),
  );
}

/** Expressions inside run: scripts, as "file path: expression". */
export function expressionsInRun(name: string, text: string): string[] {
  return parseAllDocuments(text).flatMap((doc) =>
    runScripts(doc.toJS()).flatMap(({ path, script }) =>
      (script.match(/\$\{\{[^}]*\}\}/g) ?? []).map(
        (expression) => `${name} ${path}: ${expression}`,
      ),
    ),
  );
}

async function yamlFiles(dir: string): Promise<string[]> {
  const names = await readdir(join(ROOT, dir));
  return names.filter((n) => /\.ya?ml$/.test(n)).map((n) => join(dir, n));
}

async function markdownSnippets(): Promise<Array<{ name: string; text: string }>> {
  const docs = [
    'README.md',
    ...(await readdir(join(ROOT, 'docs'))).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`),
  ];
  const snippets: Array<{ name: string; text: string }> = [];
  for (const doc of docs) {
    const text = await readFile(join(ROOT, doc), 'utf8');
    for (const [i, match] of [...text.matchAll(/```ya?ml\n([\s\S]*?)```/g)].entries()) {
      snippets.push({ name: `${doc} snippet ${i + 1}`, text: match[1] ?? '' });
    }
  }
  return snippets;
}

describe('workflows pass expressions through env:, never inside run:', () => {
  it('finds an expression inside a run: script (the check can fail)', () => {
    const bad = 'jobs:\n  a:\n    steps:\n      - run: echo "${{ steps.s.outputs.scan-id }}"\n';
    assert.deepEqual(expressionsInRun('bad.yml', bad), [
      'bad.yml .jobs.a.steps[0].run: ${{ steps.s.outputs.scan-id }}',
    ]);
    const good =
      'jobs:\n  a:\n    steps:\n      - env:\n          ID: ${{ steps.s.outputs.scan-id }}\n        run: echo "$ID"\n';
    assert.deepEqual(expressionsInRun('good.yml', good), []);
  });

  it('in .github/workflows, docs/examples and every YAML snippet of the docs', async () => {
    const files = [
      ...(await yamlFiles('.github/workflows')),
      ...(await yamlFiles('docs/examples')),
    ];
    const found: string[] = [];
    for (const file of files)
      found.push(...expressionsInRun(file, await readFile(join(ROOT, file), 'utf8')));
    for (const snippet of await markdownSnippets())
      found.push(...expressionsInRun(snippet.name, snippet.text));
    assert.deepEqual(found, []);
    assert.ok(files.length >= 5, `only ${files.length} workflow files found`);
  });
});
