// docs/guarantees.md names, row by row, the property test that holds each guarantee (its section
// "Which property holds each row"). This keeps that table and the property files in step: every
// row of the guarantees table has a line there; a row names at least one `*.property.test.ts`
// file that exists and holds a test of that name; every property file is named by some row. Rows
// whose property has not landed yet are listed in PENDING_ROWS, their cell a placeholder `—`: a
// pending row that names a property fails, and so does a row that is not pending and names none.
// Empty the list as the properties land.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { glob } from 'tinyglobby';
import { ROOT } from '../cli/helpers.js';

/** Rows (their `#`; `bad input` for the row numbered `—`) whose property is still to come. */
export const PENDING_ROWS: readonly string[] = [];

/** Property files that hold a feature's promise, not a row of the guarantees (why, for each). */
export const FEATURE_PROPERTIES: Readonly<Record<string, string>> = {
  'test/unit/github/pr-comment.property.test.ts':
    'the PR comment stays sized for a review (issue 48), a matter of reading, not of safety',
};

const HELD_BY_HEADING = '## Which property holds each row';
const PLACEHOLDER = '—';

export interface PropertyRef {
  file: string;
  test: string;
}

function rowKey(cell: string): string {
  return cell === PLACEHOLDER ? 'bad input' : cell;
}

/** The cells of the Markdown table rows (not the header or the rule) in `text`. */
function tableRows(text: string): string[][] {
  const rows = text
    .split('\n')
    .filter((line) => line.startsWith('|'))
    .map((line) =>
      line
        .slice(1, line.trimEnd().endsWith('|') ? line.trimEnd().length - 1 : undefined)
        .split('|')
        .map((cell) => cell.trim()),
    );
  return rows.slice(2);
}

/** The section of `markdown` under `heading`, up to the next heading of its level. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start === -1) return '';
  const rest = markdown.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  return end === -1 ? rest : rest.slice(0, end);
}

/** The `#` of each row of the guarantees table ("What is guaranteed"). */
export function guaranteeRows(markdown: string): string[] {
  return tableRows(section(markdown, '## What is guaranteed')).map((cells) =>
    rowKey(cells[0] ?? ''),
  );
}

/** Each row's properties in the "Held by" table: `` `file` › test name ``, several joined by
 *  `<br>`; [] for the placeholder. */
export function heldBy(markdown: string): Map<string, PropertyRef[]> {
  const held = new Map<string, PropertyRef[]>();
  for (const cells of tableRows(section(markdown, HELD_BY_HEADING))) {
    const key = rowKey(cells[0] ?? '');
    const cell = cells.at(-1) ?? '';
    const refs =
      cell === PLACEHOLDER
        ? []
        : cell.split('<br>').map((entry) => {
            const match = /^`([^`]+)` › (.+)$/.exec(entry.trim());
            return match
              ? { file: match[1] ?? '', test: match[2] ?? '' }
              : { file: '', test: entry };
          });
    held.set(key, refs);
  }
  return held;
}

/** Whether a test file's source declares a test (`it(` or `test(`) named `name`. */
export function declaresTest(source: string, name: string): boolean {
  return [`'`, `"`, '`'].some((quote) => {
    const escaped = name.replace(/\\/g, '\\\\').replace(new RegExp(quote, 'g'), `\\${quote}`);
    return (
      source.includes(`it(${quote}${escaped}${quote}`) ||
      source.includes(`test(${quote}${escaped}${quote}`)
    );
  });
}

export interface TreeView {
  /** A repository file's text, or undefined when there is none. */
  read(path: string): string | undefined;
  /** Every `*.property.test.ts` file of the repository. */
  propertyFiles: readonly string[];
}

/** What is out of step between the docs and the property files; [] when nothing is. */
export function outOfStep(markdown: string, tree: TreeView, pending: readonly string[]): string[] {
  const problems: string[] = [];
  const rows = guaranteeRows(markdown);
  const held = heldBy(markdown);
  for (const key of pending) {
    if (!rows.includes(key)) problems.push(`PENDING_ROWS names row ${key}, which is no row`);
  }
  const named = new Set<string>();
  for (const key of rows) {
    const refs = held.get(key);
    if (refs === undefined) {
      problems.push(`row ${key} has no line under "${HELD_BY_HEADING}"`);
      continue;
    }
    if (pending.includes(key)) {
      if (refs.length > 0) problems.push(`row ${key} is pending but names a property`);
      continue;
    }
    if (refs.length === 0) problems.push(`row ${key} names no property test (still pending?)`);
    for (const { file, test } of refs) {
      named.add(file);
      if (!file.endsWith('.property.test.ts')) {
        problems.push(`row ${key}: "${file || test}" is not a *.property.test.ts file`);
        continue;
      }
      const source = tree.read(file);
      if (source === undefined) problems.push(`row ${key}: ${file} does not exist`);
      else if (!declaresTest(source, test))
        problems.push(`row ${key}: ${file} has no test "${test}"`);
    }
  }
  for (const key of held.keys()) {
    if (!rows.includes(key)) problems.push(`"${HELD_BY_HEADING}" has row ${key}, which is no row`);
  }
  for (const file of tree.propertyFiles) {
    if (!named.has(file)) problems.push(`${file} is named by no row of docs/guarantees.md`);
  }
  return problems;
}

function treeOf(files: Record<string, string>): TreeView {
  return {
    read: (path) => files[path],
    propertyFiles: Object.keys(files).filter((path) => path.endsWith('.property.test.ts')),
  };
}

const SAMPLE = `# Guarantees

## What is guaranteed

| #   | Guarantee  | What it means |
| --- | ---------- | ------------- |
| 1   | **One.**   | one           |
| —   | **Bad.**   | bad input     |
| 2   | **Two.**   | two           |

${HELD_BY_HEADING}

| #   | Held by |
| --- | ------- |
| 1   | \`test/unit/a.property.test.ts\` › holds one<br>\`test/b.property.test.ts\` › holds one too |
| —   | \`test/b.property.test.ts\` › holds bad input |
| 2   | —       |

## Bounds
`;

const SAMPLE_TREE = {
  'test/unit/a.property.test.ts': `it('holds one', () => {});`,
  'test/b.property.test.ts': `it("holds one too", () => {}); test(\`holds bad input\`, () => {});`,
};

describe('docs/guarantees.md names the property test of each row', () => {
  it('the table and the property files are in step (PENDING_ROWS aside)', async () => {
    const markdown = await readFile(join(ROOT, 'docs/guarantees.md'), 'utf8');
    const propertyFiles = (
      await glob('test/**/*.property.test.ts', { cwd: ROOT, ignore: ['node_modules/**'] })
    ).sort();
    const tree: TreeView = {
      read: (path) => {
        const full = join(ROOT, path);
        return existsSync(full) ? readFileSync(full, 'utf8') : undefined;
      },
      propertyFiles: propertyFiles.filter((file) => !(file in FEATURE_PROPERTIES)),
    };
    assert.deepEqual(outOfStep(markdown, tree, PENDING_ROWS), []);
    for (const file of Object.keys(FEATURE_PROPERTIES)) {
      assert.ok(propertyFiles.includes(file), `FEATURE_PROPERTIES names ${file}, which is gone`);
    }
    assert.ok(
      !PENDING_ROWS.includes('bad input') || heldBy(markdown).get('bad input')?.length === 0,
    );
  });

  it('a sample in step passes, with its pending row', () => {
    assert.deepEqual(outOfStep(SAMPLE, treeOf(SAMPLE_TREE), ['2']), []);
    assert.deepEqual(guaranteeRows(SAMPLE), ['1', 'bad input', '2']);
  });

  it('finds each way out of step (the check can fail)', () => {
    const tree = treeOf(SAMPLE_TREE);
    assert.deepEqual(outOfStep(SAMPLE, tree, []), [
      'row 2 names no property test (still pending?)',
    ]);
    assert.deepEqual(outOfStep(SAMPLE, tree, ['1', '2']), [
      'row 1 is pending but names a property',
      'test/unit/a.property.test.ts is named by no row of docs/guarantees.md',
    ]);
    assert.deepEqual(outOfStep(SAMPLE, tree, ['2', '9']), [
      'PENDING_ROWS names row 9, which is no row',
    ]);
    const renamed = SAMPLE.replace('› holds one<br>', '› holds two<br>');
    assert.deepEqual(outOfStep(renamed, tree, ['2']), [
      'row 1: test/unit/a.property.test.ts has no test "holds two"',
    ]);
    const gone = treeOf({ ...SAMPLE_TREE, 'test/unit/a.property.test.ts': undefined as never });
    assert.deepEqual(outOfStep(SAMPLE, gone, ['2']), [
      'row 1: test/unit/a.property.test.ts does not exist',
    ]);
    const extra = treeOf({ ...SAMPLE_TREE, 'test/c.property.test.ts': `it('c', () => {});` });
    assert.deepEqual(outOfStep(SAMPLE, extra, ['2']), [
      'test/c.property.test.ts is named by no row of docs/guarantees.md',
    ]);
    const notProperty = SAMPLE.replace(
      '`test/b.property.test.ts` › holds bad input',
      '`test/b.test.ts` › x',
    );
    assert.deepEqual(outOfStep(notProperty, tree, ['2']), [
      'row bad input: "test/b.test.ts" is not a *.property.test.ts file',
    ]);
    const rowless = SAMPLE.replace('| 2   | —       |\n', '');
    assert.deepEqual(outOfStep(rowless, tree, ['2']), [
      `row 2 has no line under "${HELD_BY_HEADING}"`,
    ]);
  });
});
