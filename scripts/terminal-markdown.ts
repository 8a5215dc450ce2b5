// GitHub-flavoured Markdown (a job summary, a PR comment) as a reader sees it, in a terminal: the
// GFM parser GitHub's own renderer follows (micromark) gives the tree; headings, paragraphs,
// lists and tables become plain lines, escapes and markup gone, links shown with their address.
// A table that fits the width is aligned; a wider one is shown row by row, "Header: value".
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import type { PhrasingContent, RootContent, Table } from 'mdast';

const WIDTH = 100;

/** The text of inline content: markup dropped, a link as "text <address>". */
function inline(nodes: PhrasingContent[]): string {
  return nodes
    .map((node): string => {
      if (node.type === 'text' || node.type === 'inlineCode') return node.value;
      if (node.type === 'break') return ' ';
      if (node.type === 'link') {
        const text = inline(node.children);
        return text === node.url ? text : `${text} <${node.url}>`;
      }
      return 'children' in node ? inline(node.children as PhrasingContent[]) : '';
    })
    .join('');
}

/** Characters as a terminal counts them, roughly: an emoji takes two cells. */
function cells(text: string): number {
  return [...text].reduce((n, ch) => n + (/\p{Extended_Pictographic}/u.test(ch) ? 2 : 1), 0);
}

function wrap(text: string, indent = '', width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && cells(indent + line + ' ' + word) > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(indent + line);
  return lines;
}

function table(node: Table): string[] {
  const rows = node.children.map((row) => row.children.map((cell) => inline(cell.children)));
  const [header = [], ...body] = rows;
  const widths = header.map((_, i) => Math.max(...rows.map((row) => cells(row[i] ?? ''))));
  const aligned = widths.reduce((sum, w) => sum + w + 2, 0) <= WIDTH;
  if (aligned) {
    const line = (row: string[]) =>
      row.map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - cells(cell))).join('  ');
    const rule = widths.map((w) => '─'.repeat(w)).join('  ');
    return [line(header).trimEnd(), rule, ...body.map((row) => line(row).trimEnd())];
  }
  // A table of facts (a name and its value) too wide to align reads best one fact a line.
  if (header.length === 2) {
    return body.flatMap((row) =>
      wrap(`${row[0] ?? ''}: ${row[1] ?? ''}`, '', WIDTH - 2).map((l, k) =>
        k === 0 ? l : `  ${l}`,
      ),
    );
  }
  return body.flatMap((row) => [
    ...wrap(row[0] ?? '', '', WIDTH - 2).map((l, i) => (i === 0 ? `• ${l}` : `  ${l}`)),
    ...row.slice(1).flatMap((cell, i) => wrap(`${header[i + 1] ?? ''}: ${cell}`, '    ')),
  ]);
}

function block(node: RootContent): string[] {
  switch (node.type) {
    case 'heading': {
      const text = inline(node.children);
      return [text, (node.depth <= 2 ? '═' : '─').repeat(Math.min(WIDTH, cells(text)))];
    }
    case 'paragraph':
      return wrap(inline(node.children));
    case 'table':
      return table(node);
    case 'list':
      return node.children.flatMap((item) =>
        item.children.flatMap(block).map((l, i) => (i === 0 ? `• ${l}` : `  ${l}`)),
      );
    case 'code':
      return node.value.split('\n').map((l) => `    ${l}`);
    case 'blockquote':
      return node.children.flatMap(block).map((l) => `│ ${l}`);
    case 'thematicBreak':
      return ['─'.repeat(20)];
    default:
      // HTML (the hidden markers) and definitions are not seen by a reader.
      return [];
  }
}

/** The Markdown as plain terminal text, a blank line between blocks. */
export function terminalMarkdown(markdown: string): string {
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  return tree.children
    .map((node) => block(node as RootContent))
    .filter((lines) => lines.length > 0)
    .map((lines) => lines.join('\n'))
    .join('\n\n');
}
