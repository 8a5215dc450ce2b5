// Whatever text the service sends, the report page's data block is one block that reads back to the
// page's data, holds no `<` (so no `</script>` and no `<!--` that would end it or turn it into a
// comment), and the page around it is the same page: no service text makes or changes markup.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type { FindingView } from '../../../src/client/index.js';
import { judgeFindings } from '../../../src/pipeline/gate/judge.js';
import { renderPage } from '../../../src/render/html/page.js';
import { runPageData } from '../../../src/render/html/run-data.js';
import { propertyParameters } from '../../helpers/property.js';

const DATA_BLOCK = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/;

/** Text that reaches for the edges: markup, the block's end in any case, comments, line and
 *  paragraph separators, lone surrogates, controls, and any other code point. */
const hostileText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({
    unit: fc.constantFrom(
      '<',
      '>',
      '&',
      '/',
      '!',
      '-',
      '"',
      "'",
      '`',
      '\\',
      '</script>',
      '</SCRIPT ',
      '<!--',
      '-->',
      '<script>',
      '\u2028',
      '\u2029',
      '\ud800',
      '\u202e',
      '\u0000',
      'javascript:',
      'a',
    ),
  }),
);

function page(texts: string[]) {
  const findings: FindingView[] = texts.map((text, index) => ({
    id: `f${index}`,
    identity: text === '' ? `check-${index}` : text,
    title: text,
    severity: 'high',
    category: text,
    remediation: text,
    description: text,
    reference: index % 2 === 0 ? text : `https://docs.example.com/${text}`,
    result: 'Failed',
  }));
  const gate = judgeFindings(
    findings,
    { threshold: 'info', failOn: 'any', baseline: { kind: 'none' } },
    { baseline: { kind: 'none' }, waivers: [] },
    Date.parse('2026-11-26T00:00:00Z'),
  );
  const data = runPageData(
    {
      headline: texts[0] ?? '',
      verdict: 'failed',
      tenantName: texts[1],
      gate,
      findings: gate.findings,
    },
    { generatedAt: '2026-11-26T00:00:00.000Z' },
  );
  return { data, html: renderPage(data) };
}

describe('the report page, whatever the service sends', () => {
  it('one data block that reads back to the data; the page around it does not change', () => {
    const { html: plain } = page(['plain']);
    const frame = plain.replace(DATA_BLOCK, '');
    fc.assert(
      fc.property(fc.array(hostileText, { minLength: 1, maxLength: 6 }), (texts) => {
        const { data, html } = page(texts);
        const block = DATA_BLOCK.exec(html);
        assert.ok(block?.[1] !== undefined);
        assert.ok(!block[1].includes('<'), 'no < in the block');
        assert.deepEqual(JSON.parse(block[1]), JSON.parse(JSON.stringify(data)));
        assert.equal(html.replace(DATA_BLOCK, ''), frame, 'the page around the data is the same');
        assert.equal(html.split('</script>').length, 3, 'two scripts end, nothing else does');
      }),
      propertyParameters(60),
    );
  });
});
