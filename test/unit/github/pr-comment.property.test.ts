// Property: for any number (none to 6,000) and shape of failed findings — any severity, long and
// hostile text, a gate with a threshold, a baseline, waivers in force, expired and stale —, any
// waivers a pull request adds, any change since the last comment and any links, the PR comment
// stays within 40 lines and 4,000 characters, lists at most ten findings and names how many fail
// the gate.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  COMMENT_MAX_CHARS,
  COMMENT_MAX_FINDINGS,
  COMMENT_MAX_LINES,
  buildComment,
} from '../../../src/github/pr-comment.js';
import type { WaiverReview } from '../../../src/github/pr-waivers.js';
import { changeLine, runState } from '../../../src/github/state-line.js';
import { GATE_SEVERITIES, type Waiver } from '../../../src/pipeline/gate/judge.js';
import { propertyParameters } from '../../helpers/property.js';
import { judgedRun, view } from './pr-comment-sample.js';

/** Text that doubles when escaped, as long as allowed: the edge of every budget. */
const worst = (max: number) => '|`*_'.repeat(Math.ceil(max / 4)).slice(0, max);
const text = (max: number) =>
  fc.oneof(
    fc.string({ unit: 'grapheme', maxLength: max }),
    fc.constantFrom('@octocat #1 <b>x</b> | [l](javascript:x) `a` **b**', '\n\r\t', ''),
    fc.nat({ max }).map(worst),
    fc.constant(worst(max)),
  );
const severity = fc.constantFrom('critical', 'high', 'medium', 'low', 'info', 'unknown');

const findings = fc
  .tuple(
    fc.nat({ max: 6000 }),
    fc.oneof(
      fc.array(fc.tuple(text(300), text(200), severity), { maxLength: 12 }),
      fc.constant([[worst(300), worst(200), 'critical'] as const]),
    ),
  )
  .map(([count, shapes]) =>
    Array.from({ length: count }, (_, i) => {
      const [title, identity, sev] = shapes[i % Math.max(1, shapes.length)] ?? ['', '', 'high'];
      return view(i, { title: `${title}${i}`, identity: `${identity}-${i}`, severity: sev });
    }),
  );

const waiver = (check: string, i: number): fc.Arbitrary<Waiver> =>
  fc.record({
    check: fc.constant(check),
    reason: text(500),
    expires: fc.constantFrom('2026-01-01', '2026-12-31', '2099-12-31'),
    owner: fc.option(text(100), { nil: undefined }),
    line: fc.constant(i + 1),
  });

const waivers = fc
  .array(text(200), { maxLength: 40, size: 'max' })
  .chain((checks) => fc.tuple(...checks.map((c, i) => waiver(c, i))));

const review: fc.Arbitrary<WaiverReview | undefined> = fc.option(
  fc.oneof(
    waivers.map((list): WaiverReview => ({
      kind: 'compared',
      file: '.tenant-scan/waivers.yml',
      base: 'abc',
      changes: list.map((w, i) => (i % 2 ? { waiver: w, before: '2026-01-01' } : { waiver: w })),
    })),
    fc.tuple(text(300), text(300), waivers).map(([file, why, list]): WaiverReview => ({
      kind: 'not-compared',
      file,
      why,
      waivers: list,
    })),
  ),
  { nil: undefined },
);

/** A link as long as the comment shows one (300 characters with its Markdown), or any. */
const url = fc.oneof(
  fc.webUrl({ size: 'large' }),
  fc.constant(`https://github.com/o/r/actions/runs/${'9'.repeat(258)}`),
);

describe('property: the PR comment is sized for a review', () => {
  it('within 40 lines and 4,000 characters, naming the count, whatever the findings', () => {
    fc.assert(
      fc.property(
        findings,
        fc.constantFrom(...GATE_SEVERITIES),
        fc.boolean(),
        fc.nat({ max: 30 }),
        review,
        fc.record({
          run: fc.option(url, { nil: undefined }),
          htmlReport: fc.option(url, { nil: undefined }),
        }),
        fc.array(url, { maxLength: 2 }),
        (failed, threshold, withBaseline, waived, pr, links, fileUrls) => {
          const waivers = failed.slice(0, waived).map((f, i) => ({
            check: f.identity,
            reason: 'r'.repeat(300),
            expires: i % 3 === 0 ? '2020-01-01' : '2099-12-31',
            line: i + 1,
          }));
          const result = judgedRun(failed, {
            settings: { threshold, failOn: 'any', baseline: { kind: 'none' } },
            waivers,
            baseline: withBaseline ? failed.slice(failed.length / 2).concat(view(-1)) : undefined,
          });
          const before = {
            verdict: 'passed',
            failed: new Set<string>(),
            expired: new Set<string>(),
          };
          const changed = changeLine('Since the last comment', before, runState(result), result, {
            count: 3,
            chars: 40,
          });
          const files = fileUrls.map((u, i) => ({
            kind: 'CSV' as const,
            name: `f${i}.csv`,
            path: 'x',
            url: u,
          }));
          const comment = buildComment({
            result,
            changed,
            waivers: pr,
            links: { ...links, files },
          });
          assert.ok(comment.length <= COMMENT_MAX_CHARS, `${comment.length} characters`);
          const lines = comment.split('\n').length;
          assert.ok(lines <= COMMENT_MAX_LINES, `${lines} lines`);
          const gating = result.gate?.counts.gating ?? 0;
          assert.ok(comment.includes(`**Counts:** ${gating} fail the gate`));
          if (gating > 0) assert.ok(comment.includes(`**Fail the gate (${gating})**`));
          const rows = comment
            .split('\n')
            .filter((l) => /^\| (critical|high|medium|low|info|unknown) \|/.test(l));
          assert.ok(rows.length <= COMMENT_MAX_FINDINGS);
          if (gating > rows.length)
            assert.ok(comment.includes(`_…and ${gating - rows.length} more:`));
        },
      ),
      // Shrinking thousands of findings is slow: a failure is reported as found after 20 s of it.
      propertyParameters(60, { interruptAfterTimeLimit: 20_000 }),
    );
  });
});
