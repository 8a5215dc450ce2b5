// The report page's pure core (render/html): one file whose only script and style are allowed by
// their hashes under a Content-Security-Policy that allows nothing else; the data a JSON block no
// service text can break out of, that reads back to the data; nothing of the service outside it;
// service text cleaned (controls, bidi marks, secrets) and cut; only https help links kept; the
// size of 10,000 findings bounded; a fleet's tenants in the roll-up's order with their findings.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { runRecord } from '../../../src/pipeline/output/record.js';
import { summarize } from '../../../src/pipeline/rollup/records.js';
import { RollupBuilder } from '../../../src/pipeline/rollup/rollup.js';
import { PAGE_ASSETS } from '../../../src/render/html/assets.js';
import { FleetFindings, fleetPageData } from '../../../src/render/html/fleet-data.js';
import { joinModules } from '../../../src/render/html/page-assets.js';
import { FLAG, type PageData } from '../../../src/render/html/page-data.js';
import { renderPage, scriptJson } from '../../../src/render/html/page.js';
import { runPageData } from '../../../src/render/html/run-data.js';
import { MAX_CHARS, PageStrings } from '../../../src/render/html/strings.js';
import { HOSTILE, sampleResult, sampleRunInput } from '../../helpers/report-pages.js';

interface PageParts {
  csp: string;
  style: string;
  scripts: string[];
  json: string;
  /** The page without its data block. */
  outside: string;
  /** The page's markup alone: no data, script or style. */
  markup: string;
}

function partsOf(html: string): PageParts {
  const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html)?.[1];
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1];
  const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html);
  assert.ok(
    csp !== undefined && style !== undefined && data?.[1] !== undefined,
    html.slice(0, 500),
  );
  const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] ?? '');
  const outside = html.replace(data[0], '');
  const markup = outside.replace(/<script>[\s\S]*?<\/script>|<style>[\s\S]*?<\/style>/g, '');
  return { csp, style, scripts, json: data[1], outside, markup };
}

function sha256(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

const hostilePage = () => renderPage(runPageData(sampleRunInput(60, { hostile: true })));

describe('the report page (render/html)', () => {
  it('its one script and its style are allowed by their hashes, and nothing else is', () => {
    const parts = partsOf(renderPage(runPageData(sampleRunInput(20))));
    const policy = new Map(
      parts.csp.split(';').map((directive) => {
        const [name = '', ...sources] = directive.trim().split(/\s+/);
        return [name, sources];
      }),
    );
    assert.deepEqual(policy.get('default-src'), ["'none'"]);
    assert.equal(parts.scripts.length, 1, 'one script that runs');
    assert.deepEqual(policy.get('script-src'), [sha256(parts.scripts[0] ?? '')]);
    assert.deepEqual(policy.get('style-src'), [sha256(parts.style)]);
    assert.deepEqual(policy.get('base-uri'), ["'none'"]);
    assert.deepEqual(policy.get('form-action'), ["'none'"]);
    assert.doesNotMatch(parts.csp, /unsafe|https?:|\*/);
    assert.doesNotMatch(parts.markup, /\son[a-z]+\s*=/i, 'no inline event handler');
    assert.doesNotMatch(parts.markup, /<(?:link|img|iframe|object|embed|base|form)\b/i);
    assert.doesNotMatch(parts.markup, /\b(?:src|href)\s*=/i, 'nothing fetched, nothing linked');
    assert.doesNotMatch(
      parts.scripts[0] ?? '',
      /innerHTML|outerHTML|insertAdjacentHTML|document\.write|eval\(|new Function/,
    );
  });

  it("the data block reads back to the page's data; no service text is outside it", () => {
    const data = runPageData(sampleRunInput(60, { hostile: true }));
    const parts = partsOf(renderPage(data));
    assert.ok(!parts.json.includes('<'), 'no < inside the block: </script> and <!-- cannot occur');
    assert.deepEqual(JSON.parse(parts.json), JSON.parse(JSON.stringify(data)));
    assert.ok(
      data.strings.some((text) => text.includes('</script><script>')),
      'hostile text kept',
    );
    for (const text of ['onerror', 'javascript:', 'Contoso', 'CIS-', 'pwned'])
      assert.ok(!parts.outside.includes(text), `${text} outside the data block`);
    assert.match(parts.outside, /<title>Tenant scan report<\/title>/);
  });

  it('scriptJson escapes what could end the block or open a comment, and is still the JSON', () => {
    const value = { a: '</script><!--<script>x</SCRIPT >', b: '\u2028\u2029 & >' };
    const json = scriptJson(value);
    assert.doesNotMatch(json, /[<>&\u2028\u2029]/);
    assert.deepEqual(JSON.parse(json), value);
  });

  it('service text is cleaned: controls, bidi and zero-width marks, key-shaped and given secrets', () => {
    const key = 'ak_live_5ecret5ecret5ecret5ecret';
    const strings = new PageStrings([key]);
    const line = strings.list[strings.line(`${HOSTILE.control}a${HOSTILE.rtl} ${key} b`, 500)];
    assert.equal(line, 'aDESSAP isolated zero-width [redacted] b');
    const other = strings.list[strings.line('key ak_live_0123456789abcdef', 500)];
    assert.equal(other, 'key ak_live_[redacted]', 'any key-shaped token');
    const echoed = strings.list[strings.block(`secret part 5ecret5ecret5ecret5ecret\nnext`, 500)];
    assert.equal(echoed, 'secret part [redacted]\nnext', 'line breaks kept in a block');
    assert.equal(strings.list[strings.line('x'.repeat(10_000), MAX_CHARS.title)]?.length, 500);
    assert.equal(strings.line('', 10), -1);
    assert.equal(strings.line(' \u200b ', 10), -1);
  });

  it('a help link is kept only when it is https', () => {
    const strings = new PageStrings();
    for (const address of [
      'javascript:alert(1)',
      'http://docs.example.com/x',
      'data:text/html,<b>x</b>',
      'https://user:pass@docs.example.com/x',
      'vbscript:x',
      ' JavaScript:alert(1)',
    ])
      assert.equal(strings.url(address), -1, address);
    const kept = strings.url('https://docs.example.com/a b?q=<x>');
    assert.equal(strings.list[kept], 'https://docs.example.com/a%20b?q=%3Cx%3E');
  });

  it("a run's page carries the summary's headline, counts, trend and each finding's marks", () => {
    const result = sampleResult(120);
    const data = runPageData(sampleRunInput(120));
    const [tenant] = data.tenants;
    assert.ok(tenant);
    assert.equal(data.kind, 'run');
    assert.match(data.headline, /^❌ Tenant scan failed: \d+ new findings at medium or above/);
    assert.equal(tenant.findings.length, 120);
    const total = tenant.counts.find(([label]) => label === 'Failed in all');
    assert.equal(total?.[1], 120, 'the "Failed in all" row is every failed finding');
    assert.deepEqual(
      tenant.trend.map(([, count]) => count),
      result.gate?.trend,
    );
    assert.ok(
      tenant.trend.every(([at]) => at >= 0),
      'every trend point has its scan time',
    );
    const gating = tenant.findings.filter((row) => row[7] & FLAG.gating).length;
    assert.equal(gating, result.gate?.counts.gating);
    const waived = tenant.findings.filter((row) => row[7] & FLAG.waived);
    assert.equal(waived.length, 1);
    assert.equal(data.strings[waived[0]?.[12] ?? -1], 'Four global admins until break-glass');
    assert.deepEqual(tenant.kinds?.slice(0, 2), [
      ['Passed', 36],
      ['Failed', 120],
    ]);
  });

  it('10,000 findings: each distinct text stored once, the page under 3 MB', () => {
    const data = runPageData(sampleRunInput(10_000));
    const html = renderPage(data);
    const bytes = Buffer.byteLength(html);
    assert.ok(bytes < 3 * 1024 * 1024, `${bytes} bytes`);
    assert.equal(data.strings.length, new Set(data.strings).size);
    // Each finding has its own check id and title; remediation, description, category and the
    // dates are the catalogue's 56 checks' and the history's few.
    assert.ok(data.strings.length < 10_000 * 2 + 500, `${data.strings.length} strings`);
  });

  it('the joined script keeps no module syntax, and refuses what it cannot join', () => {
    assert.doesNotMatch(PAGE_ASSETS.script, /^\s*(?:import|export)\b/m);
    assert.throws(() => joinModules([['a.js', "import x from './b.js';\n"]]), /cannot join/);
    assert.throws(() => joinModules([['a.js', "export * from './b.js';\n"]]), /cannot join/);
    assert.throws(() => joinModules([['a.js', "const a = '</script>';\n"]]), /<\/script/);
    assert.match(
      joinModules([['a.js', "import { b } from './b.js';\nexport function a() {}\n"]]),
      /\nfunction a\(\) \{\}/,
    );
  });

  it('hostile service text: every string that reaches the page is cleaned', () => {
    const data = JSON.parse(partsOf(hostilePage()).json) as PageData;
    const controls = new RegExp(
      // eslint-disable-next-line no-control-regex -- the marks no string may keep
      '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\u200b]',
    );
    for (const text of data.strings) {
      assert.doesNotMatch(text, controls);
      assert.ok(!text.toLowerCase().startsWith('javascript:'), text);
    }
  });
});

describe("a fleet's page", () => {
  function fleet() {
    const findings = new FleetFindings();
    const builder = new RollupBuilder();
    const results = [
      ['contoso', sampleResult(0)],
      ['fabrikam', sampleResult(30, { seed: 5 })],
      ['northwind', sampleResult(12, { seed: 9 })],
    ] as const;
    for (const [label, result] of results) {
      const entry = {
        kind: 'read',
        source: `records/${label}.json`,
        record: summarize(JSON.parse(JSON.stringify(runRecord(result, { waited: true, label }))), {
          display: true,
        }),
      } as const;
      findings.observe(entry);
      builder.add(entry);
    }
    const rollup = builder.finish({ expect: ['contoso', 'fabrikam', 'northwind', 'tailspin'] });
    return { rollup, data: fleetPageData(rollup, findings) };
  }

  it('a problem longer than a headline holds is said apart, whole', () => {
    const { rollup } = fleet();
    const row = rollup.tenants.find((tenant) => tenant.tenant === 'tailspin');
    assert.ok(row);
    row.problem = `the record says ${'why '.repeat(243)}at length`; // 997 characters: a line holds 1,000
    const tenant = fleetPageData(rollup, new FleetFindings()).tenants.find(
      (t) => t.name === 'tailspin',
    );
    const problem = tenant?.problem ?? '';
    assert.ok(tenant && problem.endsWith('at length'), 'the problem whole');
    assert.ok(!tenant.headline.includes(problem), 'the headline cut');
    assert.equal(tenant.headlineSaysProblem, false);
  });

  it("its tenants in the roll-up's order, each with its own findings; the checks name them", () => {
    const { rollup, data } = fleet();
    assert.equal(data.kind, 'fleet');
    assert.deepEqual(
      data.tenants.map((tenant) => [tenant.name, tenant.verdict, tenant.findings.length]),
      rollup.tenants.map((row) => [row.tenant, row.verdict, row.failed ?? 0]),
    );
    assert.equal(data.tenants[0]?.verdict, 'missing', 'no verdict first');
    const fabrikam = data.tenants.find((tenant) => tenant.name === 'fabrikam');
    assert.ok(fabrikam && fabrikam.trend.length === 5 && fabrikam.trend.every(([at]) => at >= 0));
    assert.match(fabrikam.headline, /^❌ Failed: \d+ new failed findings at medium or above/);
    assert.deepEqual(fabrikam.kinds?.slice(0, 2), [
      ['Passed', 36],
      ['Failed', 30],
    ]);
    const tailspin = data.tenants.find((tenant) => tenant.name === 'tailspin');
    assert.ok(tailspin?.problem && tailspin.headline.includes(tailspin.problem));
    assert.equal(tailspin.headlineSaysProblem, true, 'its headline says why: no line apart');
    const [check] = data.fleet?.checks ?? [];
    const first = rollup.checks[0];
    assert.ok(check && first);
    assert.equal(data.strings[check[0]], first.check);
    assert.deepEqual(
      check[3].map((index) => data.tenants[index]?.name),
      first.tenants,
    );
  });
});
