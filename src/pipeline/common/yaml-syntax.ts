// A YAML syntax error in plain words, on the line that causes it: `yaml` reports an indentation
// mistake where the key before it ends ("Nested mappings are not allowed in compact mappings at
// line 2, column 12:"), in a parser's words that end in a colon before its code frame.

import type { YAMLError } from 'yaml';

interface Where {
  line: number;
  column?: number;
}

function indentOf(line: string): number {
  return line.length - line.trimStart().length;
}

/** The key a line starts with (after a list dash), for "line it up with `check`". */
function keyOf(line: string): string | undefined {
  return /^\s*(?:-\s+)?([^\s:#'"][^:#]*?)\s*:(?:\s|$)/.exec(line)?.[1];
}

/** The first line after `line` (1-based) that holds something. */
function nextContentLine(lines: readonly string[], line: number): number | undefined {
  for (let i = line; i < lines.length; i++) {
    const text = lines[i] ?? '';
    if (text.trim() !== '' && !text.trimStart().startsWith('#')) return i + 1;
  }
  return undefined;
}

/** A line indented deeper than the key it follows: yaml reads it as part of that key. */
function deeperIndent(lines: readonly string[], start: Where): string | undefined {
  const above = lines[start.line - 1] ?? '';
  const next = nextContentLine(lines, start.line);
  if (next === undefined) return undefined;
  const below = lines[next - 1] ?? '';
  const keyColumn = indentOf(above.replace(/^(\s*)-\s+/, '$1  '));
  if (indentOf(below) <= keyColumn) return undefined;
  const key = keyOf(above);
  const lineUp = key ? `: line it up with \`${key}\`` : '';
  return `line ${next}: this line is indented deeper than the one above it (${indentOf(below)} spaces against ${keyColumn})${lineUp}`;
}

/** A key indented less than the entry it belongs to, read as a list item without its dash. */
function shallowerIndent(lines: readonly string[], at: Where): string {
  const line = lines[at.line - 1] ?? '';
  let above = at.line - 1;
  while (above > 0 && (lines[above - 1] ?? '').trim() === '') above -= 1;
  const previous = lines[above - 1] ?? '';
  const keyColumn = indentOf(previous.replace(/^(\s*)-\s+/, '$1  '));
  const key = keyOf(previous);
  const lineUp = key ? `: line it up with \`${key}\`` : '';
  return `line ${at.line}: this line is indented less than the entry above it (${indentOf(line)} spaces against ${keyColumn})${lineUp}`;
}

/** The line of the first quote that is never closed (the parser points at the end of the file). */
function unclosedQuote(lines: readonly string[]): number | undefined {
  let open: { quote: string; line: number } | undefined;
  lines.forEach((text, index) => {
    for (let i = 0; i < text.length; i++) {
      const char = text[i];
      if (open && char === open.quote) {
        if (open.quote === "'" && text[i + 1] === "'") i += 1;
        else open = undefined;
      } else if (
        !open &&
        (char === '"' || char === "'") &&
        /(^|[\s:[{,-])$/.test(text.slice(0, i))
      ) {
        open = { quote: char, line: index + 1 };
      } else if (open?.quote === '"' && char === '\\') {
        i += 1;
      } else if (!open && char === '#' && /\s$|^$/.test(text.slice(0, i))) {
        break;
      }
    }
  });
  return open?.line;
}

/** The parser's own sentence without its position and its trailing colon. */
function parserWords(error: YAMLError): string {
  const first = error.message.split('\n')[0] ?? 'invalid YAML';
  return first.replace(/ at line \d+, column \d+:?$/, '').replace(/[:.]$/, '');
}

/** "line 3: this line is indented deeper than the one above it …", without the file's name. */
function describe(error: YAMLError, lines: readonly string[]): string {
  const start: Where = { line: error.linePos?.[0].line ?? 1, column: error.linePos?.[0].col };
  switch (error.code) {
    case 'BLOCK_AS_IMPLICIT_KEY':
    case 'MULTILINE_IMPLICIT_KEY': {
      const deeper = deeperIndent(lines, start);
      if (deeper) return deeper;
      if (keyOf(lines[start.line - 1] ?? '') === undefined) {
        return `line ${start.line}: this line is not a "key: value" pair (the next line joins it): add a colon and a space after the key`;
      }
      return `line ${start.line}, column ${start.column ?? 1}: a value holds a colon and a space: put it in quotes`;
    }
    case 'TAB_AS_INDENT':
      return `line ${start.line}: a tab indents this line: YAML indents with spaces`;
    case 'DUPLICATE_KEY':
      return `line ${start.line}: \`${keyOf(lines[start.line - 1] ?? '') ?? 'this key'}\` is given twice here: keep one`;
    case 'MISSING_CHAR': {
      if (/quote/i.test(error.message)) {
        const line = unclosedQuote(lines) ?? start.line;
        return `line ${line}: a quoted value is not closed: add the closing quote`;
      }
      if (/without - indicator/.test(error.message)) return shallowerIndent(lines, start);
      break;
    }
    case 'BAD_INDENT':
      if (/Flow (sequence|mapping)/.test(error.message)) {
        const bracket = /sequence/.test(error.message) ? '[ … ]' : '{ … }';
        return `line ${start.line}: a ${bracket} list is not closed, or its next line is not indented: close it on the line it opens`;
      }
      break;
  }
  return `line ${start.line}, column ${start.column ?? 1}: ${parserWords(error)}`;
}

/** One line for the first syntax error of a YAML file: "<path> line 3: …; fix the YAML syntax". */
export function yamlSyntaxProblem(path: string, text: string, error: YAMLError): string {
  return `${path} ${describe(error, text.split(/\r?\n/))}; fix the YAML syntax`;
}
