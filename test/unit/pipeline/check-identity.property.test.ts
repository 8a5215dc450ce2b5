// Guarantee 13, "One name per check" (docs/guarantees.md): for any finding shape — the identity
// fields of the row present, absent, empty, blank, of odd types, colliding — the identity is
// decided once, as the row says, and every output names the check by it: SARIF rule ids and
// fingerprints, JUnit case names, `checkId` in the record and the CLI's JSON, the roll-up's
// checks, tracking markers and waivers. Two distinct checks never share an identity.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeFinding } from '../../../src/client/findings.js';
import type { FindingView } from '../../../src/client/types.js';
import { DEFAULT_GATE, judgeFindings, type Waiver } from '../../../src/pipeline/gate/judge.js';
import { findingJson } from '../../../src/pipeline/output/record.js';
import { toJunitXml } from '../../../src/pipeline/output/junit.js';
import { toSarif } from '../../../src/pipeline/output/sarif.js';
import { summarize } from '../../../src/pipeline/rollup/records.js';
import { findingMarker } from '../../../src/github/tracking/per-finding.js';
import { markerKey } from '../../../src/github/tracking/site.js';
import { propertyParameters } from '../../helpers/property.js';

/** The row's order of the fields that name a check. */
const ROW_FIELDS = ['checkId', 'testId', 'ruleId', 'controlId', 'check', 'id', 'name'];
const OTHER_FIELDS = ['title', 'category', 'block', 'severity', 'description', 'helpUrl'];

/** Text that reaches the edges: blanks, controls, NUL, escapes, astral characters, long runs. */
const edgyText = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom('a', 'B', '1', '-', '.', ':') },
    { weight: 2, arbitrary: fc.constantFrom(' ', '\t', '\n', '\u00a0', '\u3000') },
    {
      weight: 2,
      arbitrary: fc.constantFrom('\u0000', '\u0001', '\u001b', '\u0085', '\u200b', '\u202e'),
    },
    { weight: 1, arbitrary: fc.constantFrom('"', '<', '&', '|', '`', '\\') },
    { weight: 1, arbitrary: fc.constantFrom('é', '𝔸', '\ufffe', '\ud800') },
  ),
  maxLength: 12,
});

/** A field's value: absent, empty, blank, text, a number (finite or not), or an odd type. */
const fieldValue = fc.oneof(
  { weight: 5, arbitrary: edgyText },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '\n\t') },
  {
    weight: 2,
    arbitrary: fc.oneof(
      fc.integer({ min: -5, max: 5 }),
      fc.double(),
      fc.constantFrom(Number.NaN, Infinity),
    ),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, ['x'], { checkId: 'x' }),
  },
);

const findingShape = fc
  .dictionary(fc.constantFrom(...ROW_FIELDS, ...OTHER_FIELDS), fieldValue, { maxKeys: 6 })
  .map((fields) => ({ ...fields, result: 'Failed' }));

/** The identity the row names, independently: the first field of the row that holds text (not
 *  blank; trimmed) or a finite number; undefined when the check must be named by a hash. */
function rowIdentity(finding: Record<string, unknown>): string | undefined {
  for (const name of ROW_FIELDS) {
    const value = finding[name];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
    if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  }
  return undefined;
}

/** What XML 1.0 can carry of a text: characters it forbids become U+FFFD. */
function xmlVisible(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.codePointAt(0) ?? 0;
    const allowed =
      code === 0x9 ||
      code === 0xa ||
      code === 0xd ||
      (code >= 0x20 && code <= 0xd7ff) ||
      (code >= 0xe000 && code <= 0xfffd) ||
      code >= 0x10000;
    out += allowed ? char : '\ufffd';
  }
  return out;
}

function decodeXmlAttribute(value: string): string {
  return value.replace(/&(#\d+|quot|lt|gt|amp);/g, (_m, name: string) =>
    name.startsWith('#')
      ? String.fromCharCode(Number(name.slice(1)))
      : { quot: '"', lt: '<', gt: '>', amp: '&' }[name as 'quot'],
  );
}

function junitCaseNames(xml: string): string[] {
  return [...xml.matchAll(/<testcase name="([^"]*)"/g)].map((m) => decodeXmlAttribute(m[1] ?? ''));
}

const SCAN = { id: 's-1', status: 'Completed', scanType: 'compliance' };
const NOW = Date.parse('2026-11-28T00:00:00Z');

describe('guarantee 13: one name per check', () => {
  it('the identity is the first field of the row that names a check, else a check- hash', () => {
    fc.assert(
      fc.property(findingShape, (finding) => {
        const view = describeFinding(finding);
        const named = rowIdentity(finding);
        if (named !== undefined) assert.equal(view.identity, named);
        else assert.match(view.identity, /^check-[0-9a-f]{12}$/);
        // Decided once: the same finding, its fields in another order, is the same check.
        const reordered = Object.fromEntries(Object.entries(finding).reverse());
        assert.equal(describeFinding(reordered).identity, view.identity);
      }),
      propertyParameters(300),
    );
  });

  it('two checks named by no field share a hash only when their title and category are the same', () => {
    // Pairs of title and category cut from one text at two places: the joints a hash of their
    // concatenation would not see.
    const cutTwice = fc.tuple(edgyText, fc.nat(), fc.nat()).map(([text, i, j]) => [
      { title: text.slice(0, i % (text.length + 1)), category: text.slice(i % (text.length + 1)) },
      { title: text.slice(0, j % (text.length + 1)), category: text.slice(j % (text.length + 1)) },
    ]);
    const anyTwo = fc.tuple(
      fc.record({ title: edgyText, category: edgyText }),
      fc.record({ title: edgyText, category: edgyText }),
    );
    fc.assert(
      fc.property(fc.oneof(cutTwice, anyTwo), ([a, b]) => {
        const [viewA, viewB] = [describeFinding(a), describeFinding(b)];
        // The row's "title and category"; a check without a title is told by all it holds.
        const untitled = (view: FindingView) => view.title === '(untitled finding)';
        const fields = (f: object) => JSON.stringify(Object.entries(f).sort());
        const sameCheck =
          untitled(viewA) || untitled(viewB)
            ? untitled(viewA) && untitled(viewB) && fields(a) === fields(b)
            : viewA.title === viewB.title && viewA.category === viewB.category;
        if (rowIdentity(a) !== undefined || rowIdentity(b) !== undefined) return;
        assert.equal(
          viewA.identity === viewB.identity,
          sameCheck,
          `${JSON.stringify(a)} and ${JSON.stringify(b)}: ${viewA.identity}, ${viewB.identity}`,
        );
      }),
      propertyParameters(400),
    );
  });

  it('SARIF, JUnit, the record, the roll-up, tracking markers and waivers all name a check by it', () => {
    fc.assert(
      fc.property(
        fc.array(findingShape, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 3 }),
        (shapes, waivedAt) => {
          const views: FindingView[] = shapes.map(describeFinding);
          const identities = views.map((view) => view.identity);
          const waivers: Waiver[] = [
            ...new Set(waivedAt.map((i) => identities[i % identities.length] ?? '')),
          ].map((check, line) => ({ check, reason: 'accepted', expires: '2099-12-31', line }));
          const gate = judgeFindings(
            views,
            DEFAULT_GATE,
            { baseline: { kind: 'none' }, waivers },
            NOW,
          );
          const waived = new Set(waivers.map((w) => w.check));
          for (const judged of gate.findings) {
            assert.equal(
              judged.waiver?.check,
              waived.has(judged.identity) ? judged.identity : undefined,
            );
          }
          const findings = gate.findings;
          // SARIF: a rule per distinct check; each result's rule id and fingerprint are its identity.
          const sarif = toSarif({ scan: SCAN, findings });
          const [run] = sarif.runs as Array<{
            tool: { driver: { rules: Array<{ id: string }> } };
            results: Array<{
              ruleId: string;
              ruleIndex: number;
              partialFingerprints: Record<string, string>;
            }>;
          }>;
          assert.ok(run);
          assert.deepEqual(
            run.tool.driver.rules.map((rule) => rule.id),
            [...new Set(findings.map((f) => f.identity))],
          );
          run.results.forEach((result, index) => {
            const identity = findings[index]?.identity;
            assert.equal(result.ruleId, identity);
            assert.equal(result.partialFingerprints['tenantScanCheck/v1'], identity);
            assert.equal(run.tool.driver.rules[result.ruleIndex]?.id, identity);
          });
          // JUnit: each case is named "<identity>: <title>", as far as XML can carry the text.
          assert.deepEqual(
            junitCaseNames(toJunitXml({ scan: SCAN, findings })),
            findings.map((f) => xmlVisible(`${f.identity}: ${f.title}`)),
          );
          // The record and the CLI's JSON (one writer), and the roll-up reading that record.
          const json = findings.map(findingJson);
          assert.deepEqual(
            json.map((f) => f.checkId),
            findings.map((f) => f.identity),
          );
          const record = summarize({
            version: 1,
            verdict: 'failed',
            failed: json.length,
            gate: null,
            findings: json.map((f) => ({
              ...f,
              severity: f.severity === 'unknown' ? 'low' : f.severity,
            })),
          });
          assert.deepEqual(
            record.findings.map((f) => f.check),
            findings.map((f) => f.identity),
          );
          // Tracking markers: one per check, the same for the same check.
          const key = markerKey('o/r', 'tenant', 'compliance');
          const markers = findings.map((f) => findingMarker(key, f.identity));
          for (let i = 0; i < findings.length; i++) {
            for (let j = 0; j < findings.length; j++) {
              assert.equal(
                markers[i] === markers[j],
                findings[i]?.identity === findings[j]?.identity,
              );
            }
          }
        },
      ),
      propertyParameters(150),
    );
  });
});
