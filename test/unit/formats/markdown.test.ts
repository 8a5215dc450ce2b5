// Service text through the one Markdown renderer, parsed the way GitHub parses it (CommonMark +
// GFM): it renders as exactly the text that was sent (controls stripped, secrets redacted), and
// nothing in it is live: no mention, reference, image, HTML, link or table break.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayLine } from '../../../src/client/index.js';
import { markdownCode, markdownLink, markdownText } from '../../../src/pipeline/common/markdown.js';
import { liveMarkup, renderedText, tables } from '../../helpers/gfm.js';

/** What a hostile or careless service puts in a finding. */
export const HOSTILE_MARKDOWN = [
  'Admins @octocat and @acme/secops must review',
  'See #1 and acme/repo#2 and GH-3, commit 1a2b3c4d5e',
  '![x](https://evil.example/p.png) and ![y][ref]',
  '<img src=x onerror=alert(1)> <script>alert(1)</script> <!-- hidden -->',
  '[click](javascript:alert(1)) [docs](https://evil.example/phish)',
  'bare https://evil.example/a?b=c|d and www.evil.example and mail admin@evil.example',
  '<https://evil.example/autolink>',
  '**bold** _em_ ~~strike~~ `code` ``two`` $x^2$ \\ back\\slash',
  '| broken | table |',
  '# heading\n- list\n> quote\n1. item\n---\n    indented',
  '[ref]: https://evil.example/def',
  'x\\`y`z``',
  'key ak_live_SECRETsecret123 and Bearer abc.def',
  '&amp; &lt;b&gt; &#64;octocat',
  ':smile: @@double @-dash foo@bar',
];

describe('markdownText', () => {
  for (const hostile of HOSTILE_MARKDOWN) {
    it(`renders as its text, with nothing live: ${JSON.stringify(hostile.slice(0, 40))}`, () => {
      const markdown = markdownText(hostile, 500);
      assert.deepEqual(liveMarkup(markdown), [], markdown);
      const shown = displayLine(hostile)
        .replace(/ak_live_\S+/, 'ak_live_[redacted]')
        .replace(/Bearer \S+/, 'Bearer [redacted]');
      assert.equal(renderedText(markdown), shown, markdown);
    });
  }

  it('keeps a table row whole, whatever the cell holds', () => {
    const row = HOSTILE_MARKDOWN.map((text) => markdownText(text, 500));
    const table = ['| a | b |', '|---|---|', ...row.map((cell) => `| ${cell} | x |`)].join('\n');
    const [parsed] = tables(table);
    assert.deepEqual(
      parsed?.rows,
      row.map(() => 2),
    );
    assert.deepEqual(liveMarkup(table), []);
  });

  it('never strips the escaping: a backslash-heavy text comes back whole', () => {
    const text = String.raw`C:\path\*not*\[a](link)`;
    assert.equal(renderedText(markdownText(text)), text);
  });
});

describe('markdownCode', () => {
  it('uses a fence longer than any backtick run, and is safe in a table', () => {
    for (const id of ['plain-id', 'a`b', 'a``b`', '`edge`', 'pipe|id', '@octocat', '#1']) {
      const cell = markdownCode(id);
      const table = `| id |\n|---|\n| ${cell} |`;
      assert.deepEqual(tables(table)[0]?.rows, [1], table);
      assert.deepEqual(liveMarkup(table), [], table);
      assert.equal(renderedText(table).split('\n')[1], id, table);
    }
    assert.equal(renderedText(markdownCode('a|b', 128, false)), 'a|b');
  });
});

describe('markdownLink', () => {
  it('links http(s) only, with an address that cannot break out', () => {
    assert.equal(markdownLink('reference', 'javascript:alert(1)'), '');
    assert.equal(markdownLink('reference', 'data:text/html,x'), '');
    assert.equal(markdownLink('reference', 'not a url'), '');
    const link = markdownLink('reference', 'https://docs.example/a b)(|c');
    const table = `| x |\n|---|\n| ${link} |`;
    assert.deepEqual(tables(table)[0]?.rows, [1]);
    const live = liveMarkup(table);
    assert.equal(live.length, 1);
    assert.equal(live[0]?.kind, 'link');
    assert.match(live[0]?.text ?? '', /^https:\/\/docs\.example\/a%20b%29%28%7Cc$/);
  });
});
