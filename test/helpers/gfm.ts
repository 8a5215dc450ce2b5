// Markdown read the way GitHub reads it: a CommonMark + GFM parser (micromark, pure JavaScript)
// into a syntax tree, and what in that tree GitHub would make live. GitHub's own filters run on
// the rendered text after Markdown: @mentions and issue references outside code become links and
// notifications, so they are looked for in text nodes, never in code.
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { visit } from 'unist-util-visit';
import type { Nodes, Root, Table } from 'mdast';

/** The last documents parsed: a test asks several questions of one summary (its layout, its live
 *  markup, its text, its tables), and parsing a summary near GitHub's 1 MiB limit is the costly
 *  part. The trees are shared: no caller changes them. */
const recentTrees = new Map<string, Root>();
const RECENT_TREES = 4;

export function parseGfm(markdown: string): Root {
  const known = recentTrees.get(markdown);
  if (known) return known;
  const tree = fromMarkdown(markdown, {
    extensions: [gfm()],
    mdastExtensions: [gfmFromMarkdown()],
  });
  recentTrees.set(markdown, tree);
  if (recentTrees.size > RECENT_TREES) recentTrees.delete(recentTrees.keys().next().value ?? '');
  return tree;
}

/** GitHub's mention and reference filters, approximately: what follows a non-word character. */
const MENTION = /(?:^|[^\w`])@[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9_-]*)?/i;
const REFERENCE = /(?:^|[^\w])(?:[\w.-]+\/[\w.-]+)?#\d+|\bGH-\d+/i;

export interface LiveMarkup {
  kind: 'mention' | 'reference' | 'image' | 'html' | 'link' | 'definition';
  text: string;
}

/** Everything in `markdown` that GitHub would render live: images, HTML, links whose address is
 *  not in `allowedLinks`, link definitions and references, and mentions or issue references in
 *  text outside code. */
export function liveMarkup(markdown: string, allowedLinks: readonly string[] = []): LiveMarkup[] {
  const found: LiveMarkup[] = [];
  visit(parseGfm(markdown), (node: Nodes) => {
    switch (node.type) {
      case 'image':
      case 'imageReference':
        found.push({ kind: 'image', text: 'url' in node ? node.url : node.identifier });
        break;
      case 'html':
        found.push({ kind: 'html', text: node.value });
        break;
      case 'link':
        if (!allowedLinks.includes(node.url)) found.push({ kind: 'link', text: node.url });
        break;
      case 'linkReference':
      case 'definition':
        found.push({ kind: 'definition', text: node.identifier });
        break;
      case 'text': {
        const mention = MENTION.exec(node.value);
        if (mention) found.push({ kind: 'mention', text: mention[0].trim() });
        const reference = REFERENCE.exec(node.value);
        if (reference) found.push({ kind: 'reference', text: reference[0].trim() });
        break;
      }
    }
  });
  return found;
}

/** The hidden markers the action writes (a PR comment's, a tracking issue's, the run state): HTML
 *  comments of names, hashes and verdicts only, never service text. */
export function isOurMarker(html: string): boolean {
  return html
    .split('\n')
    .every((line) => /^<!-- tenant-scan(?:-state|-tracking)?:[\w/.:,-]* -->$/.test(line));
}

const BLOCKS = new Set(['paragraph', 'heading', 'tableRow', 'listItem', 'code', 'thematicBreak']);

/** The text a reader sees: text and inline code in order, a line per block (heading, paragraph,
 *  table row), table cells joined by " | ". */
export function renderedText(markdown: string): string {
  const parts: string[] = [];
  const walk = (node: Nodes): void => {
    if (node.type === 'text' || node.type === 'inlineCode' || node.type === 'code') {
      parts.push(node.value);
    } else if ('children' in node) {
      node.children.forEach((child, index) => {
        if (node.type === 'tableRow' && index > 0) parts.push(' | ');
        walk(child as Nodes);
      });
    }
    if (BLOCKS.has(node.type)) parts.push('\n');
  };
  walk(parseGfm(markdown));
  return parts.join('').trimEnd();
}

/** Every table of the document with its rows as cell counts (header first). */
export function tables(markdown: string): Array<{ header: string[]; rows: number[] }> {
  const out: Array<{ header: string[]; rows: number[] }> = [];
  visit(parseGfm(markdown), 'table', (table: Table) => {
    const [head, ...rows] = table.children;
    out.push({
      header: (head?.children ?? []).map((cell) => renderedCell(cell)),
      rows: rows.map((row) => row.children.length),
    });
  });
  return out;
}

function renderedCell(cell: Nodes): string {
  let out = '';
  visit(cell, (node: Nodes) => {
    if (node.type === 'text' || node.type === 'inlineCode') out += node.value;
  });
  return out;
}

/** What keeps a summary from being taken in at a glance: a first heading that is not one short
 *  line, a table without a header row of text, a row that service text broke (more or fewer
 *  cells than its header). */
export function layoutProblems(markdown: string, maxHeadline = 100): string[] {
  const problems: string[] = [];
  const tree = parseGfm(markdown);
  const first = tree.children[0];
  if (!first || first.type !== 'heading')
    problems.push('the document does not start with a heading');
  else {
    const text = renderedText(markdown.split('\n')[0] ?? '');
    if (text.includes('\n') || markdown.split('\n')[0]?.trim() === '')
      problems.push('the headline is not one line');
    if ([...text].length > maxHeadline)
      problems.push(`the headline is ${[...text].length} characters: ${text}`);
  }
  for (const [i, table] of tables(markdown).entries()) {
    if (table.header.length === 0 || table.header.some((cell) => cell.trim() === '')) {
      problems.push(
        `table ${i + 1} has a header cell without text: ${JSON.stringify(table.header)}`,
      );
    }
    const broken = table.rows.findIndex((cells) => cells !== table.header.length);
    if (broken !== -1) {
      problems.push(
        `table ${i + 1} row ${broken + 1} has ${table.rows[broken]} cells, its header ${table.header.length}`,
      );
    }
  }
  return problems;
}
