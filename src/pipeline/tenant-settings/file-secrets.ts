// A key written into the settings file is refused before anything else reads the file — a syntax
// error or a schema problem could echo it — and is never printed: each line names the place only.
// The file is committed, so a key anywhere in it is a leaked key: a value, a field name, a comment.
// Each line of the text is looked at as written, and each scalar as YAML decodes it (an escape
// such as "\x61k_live_…", or a string continued over lines, hides a key from the text alone).

import { isPair, isScalar, isSeq, visit, type Document, type LineCounter } from 'yaml';
import { revealsSecret } from './secret-values.js';

const WHY = 'looks like an API key: keys never go in the file';

/** One line per place of the file that holds a secret, in the file's order; none when clean. */
export function secretProblems(
  path: string,
  text: string,
  doc: Document,
  lines: LineCounter,
  secrets: readonly string[],
): string[] {
  const found = new Map<number, string>();
  visit(doc, {
    Scalar(key, node, ancestors) {
      const value = typeof node.value === 'string' ? node.value : String(node.value);
      if (!revealsSecret(value, secrets)) return;
      const line = lines.linePos(node.range?.[0] ?? 0).line;
      if (!found.has(line)) found.set(line, placeOf(key, ancestors.at(-1), secrets));
    },
  });
  text.split(/\r\n|\r|\n/).forEach((content, index) => {
    if (!found.has(index + 1) && revealsSecret(content, secrets)) found.set(index + 1, '');
  });
  return [...found.entries()]
    .sort(([a], [b]) => a - b)
    .map(([line, place]) => `${path} line ${line}: ${place ? `${place} ` : ''}${WHY}`);
}

/** What the scalar is: the field it is the value of (`label`), a field name, a list item. */
function placeOf(key: unknown, parent: unknown, secrets: readonly string[]): string {
  if (isPair(parent)) {
    if (key === 'key') return 'a field name';
    const name = isScalar(parent.key) ? String(parent.key.value) : '';
    return /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(name) && !revealsSecret(name, secrets)
      ? name
      : 'a value';
  }
  return isSeq(parent) ? 'a list item' : 'a value';
}
