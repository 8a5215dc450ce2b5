// The PR comment's builder in process: at 80 failed findings (the summary was 14,119 characters and
// 126 lines) it is a review's worth — the headline, the counts, ten findings that fail the gate and
// how many more, the waivers the pull request adds (five at most), links to the whole — and service
// text stays text.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COMMENT_MAX_CHARS,
  COMMENT_MAX_LINES,
  buildComment,
  type CommentInput,
} from '../../../src/github/pr-comment.js';
import { buildSummary } from '../../../src/github/summary.js';
import { changeLine, runState } from '../../../src/github/state-line.js';
import { layoutProblems, liveMarkup, renderedText, tables } from '../../helpers/gfm.js';
import { judgedRun, view } from './pr-comment-sample.js';

const RUN = 'https://github.com/octo/repo/actions/runs/42';
const CSV = 'https://github.com/octo/repo/actions/runs/42/artifacts/1001';

const severities = ['critical', 'high', 'medium', 'low'] as const;
const eighty = () =>
  judgedRun(
    Array.from({ length: 80 }, (_, i) =>
      view(i, { severity: severities[i % 4], remediation: 'Do this. '.repeat(20) }),
    ),
  );

function comment(patch: Partial<CommentInput> = {}): string {
  return buildComment({
    result: eighty(),
    changed: '',
    links: {
      run: RUN,
      files: [{ kind: 'CSV', name: 'findings.csv', path: '/w/findings.csv', url: CSV }],
    },
    ...patch,
  });
}

describe('the PR comment', () => {
  it('80 failed findings: within 40 lines and 4,000 characters, where the summary was not', () => {
    const text = comment();
    assert.ok(text.length <= COMMENT_MAX_CHARS, `${text.length} characters`);
    assert.ok(text.split('\n').length <= COMMENT_MAX_LINES, `${text.split('\n').length} lines`);
    const summary = buildSummary({ result: eighty() }, 58_000);
    assert.ok(summary.length > 3 * COMMENT_MAX_CHARS, 'the summary keeps the whole list');
    assert.deepEqual(layoutProblems(text), []);
  });

  it('the headline, the counts, ten findings that fail the gate, then how many more', () => {
    const text = renderedText(comment());
    assert.match(text, /^❌ Tenant scan failed: 80 findings, the worst critical\n/);
    assert.match(text, /^Counts: 80 fail the gate · 80 failed in all$/m);
    assert.match(text, /^Fail the gate \(80\)$/m);
    const rows = text.split('\n').filter((line) => /^(critical|high|medium|low) \| /.test(line));
    assert.equal(rows.length, 10);
    assert.match(rows[0] ?? '', /^critical \| Check number 0 \| CHK-0$/);
    assert.match(text, /^…and 70 more: the job summary and the check run list all\.$/m);
    assert.deepEqual(
      tables(comment()).find((t) => t.header.includes('Finding'))?.rows,
      Array(10).fill(3),
    );
  });

  it('links the run’s summary, the CSV artifact and, when there is one, the HTML report', () => {
    const plain = comment();
    assert.ok(plain.includes(`[job summary](${RUN})`), plain);
    assert.ok(plain.includes(`[findings\\.csv](${CSV})`), plain);
    assert.doesNotMatch(plain, /HTML report/);
    const html = comment({ links: { run: RUN, htmlReport: `${RUN}/artifacts/1002` } });
    assert.ok(html.includes(`[HTML report](${RUN}/artifacts/1002)`));
    assert.match(renderedText(comment({ links: {} })), /the job summary of this run$/);
  });

  it('only the findings that fail the gate are listed; none: no list', () => {
    const result = judgedRun([view(1, { severity: 'low' }), view(2, { severity: 'critical' })], {
      settings: { threshold: 'high', failOn: 'any', baseline: { kind: 'none' } },
    });
    const text = renderedText(buildComment({ result, changed: '', links: {} }));
    assert.match(text, /^Fail the gate \(1\)$/m);
    assert.match(text, /^critical \| Check number 2/m);
    assert.doesNotMatch(text, /Check number 1/);
    const clean = judgedRun([view(1, { severity: 'low' })], {
      settings: { threshold: 'high', failOn: 'any', baseline: { kind: 'none' } },
    });
    const passed = renderedText(buildComment({ result: clean, changed: '', links: {} }));
    assert.match(passed, /^✅ Tenant scan passed/);
    assert.doesNotMatch(passed, /Fail the gate \(/);
  });

  it('the waivers a pull request adds or extends: five at most, the summary lists all', () => {
    const waivers = Array.from({ length: 7 }, (_, i) => ({
      check: `CHK-${i}`,
      reason: 'Vendor fix due',
      expires: '2026-12-31',
      line: i + 1,
    }));
    const text = renderedText(
      comment({
        waivers: {
          kind: 'compared',
          file: '.tenant-scan/waivers.yml',
          base: 'abc',
          changes: waivers.map((waiver, i) =>
            i === 0 ? { waiver, before: '2026-12-01' } : { waiver },
          ),
        },
      }),
    );
    assert.match(
      text,
      /^⚠️ This pull request adds 6 waivers and extends 1 waiver in \.tenant-scan\/waivers\.yml/m,
    );
    assert.match(text, /^CHK-0 \| 2026-12-31 \(was 2026-12-01\) \| Vendor fix due$/m);
    assert.match(text, /^CHK-4 \| 2026-12-31 \(new\)/m);
    assert.doesNotMatch(text, /^CHK-5 \|/m);
    assert.match(text, /^…and 2 more waivers: the job summary lists all\.$/m);
  });

  it('a waiver the pull request adds that has already expired is marked so and waives nothing', () => {
    // The gate's own judging (NOW is 2026-11-20): CHK-2's waiver ended on 2026-11-19.
    const inForce = { check: 'CHK-1', reason: 'Vendor fix due', expires: '2026-12-04', line: 1 };
    const lapsed = { check: 'CHK-2', reason: 'Was due last week', expires: '2026-11-19', line: 4 };
    const result = judgedRun([view(1), view(2)], { waivers: [inForce, lapsed] });
    assert.deepEqual(
      result.findings.map((f) => [f.identity, f.waiver !== undefined, f.gating]),
      [
        ['CHK-2', false, true],
        ['CHK-1', true, false],
      ],
      'the gate waives nothing with an expired waiver',
    );
    const waivers = {
      kind: 'compared' as const,
      file: '.tenant-scan/waivers.yml',
      base: 'abc',
      changes: [{ waiver: inForce }, { waiver: lapsed }],
    };
    const links = {};
    for (const text of [
      renderedText(buildComment({ result, changed: '', waivers, links })),
      renderedText(buildSummary({ result, waivers })),
    ]) {
      assert.match(
        text,
        /^⚠️ This pull request adds 2 waivers in \.tenant-scan\/waivers\.yml.*: the findings the 1 in force waives do not fail this check; 1 has already expired and waives nothing\.$/m,
      );
      assert.match(text, /^CHK-2 \| 2026-11-19 \(new, expired\) \|/m);
      assert.match(text, /^CHK-1 \| 2026-12-04 \(new\) \|/m);
    }
    const onlyLapsed = { ...waivers, changes: [{ waiver: lapsed, before: '2026-11-01' }] };
    const text = renderedText(buildComment({ result, changed: '', waivers: onlyLapsed, links }));
    assert.match(text, /extends 1 waiver in .*: it has already expired and waives nothing\.$/m);
    assert.match(text, /^CHK-2 \| 2026-11-19 \(was 2026-11-01, expired\) \|/m);
  });

  it('what changed since the last comment, three names at most', () => {
    const result = eighty();
    const before = { verdict: 'passed', failed: new Set<string>(), expired: new Set<string>() };
    const changed = changeLine('Since the last comment', before, runState(result), result, {
      count: 3,
      chars: 40,
    });
    const text = renderedText(comment({ result, changed }));
    assert.match(
      text,
      /^Since the last comment: passed → failed; 80 newly failing \(CHK-0, CHK-4, CHK-8 and 77 more\)\.$/m,
    );
  });

  it('service text stays text: no mention, link, image or HTML; the table holds', () => {
    const nasty = view(1, {
      title: '@octocat <img src=x onerror=alert(1)> [x](javascript:alert(1)) | new | row #12',
      identity: 'CHK|`1`',
    });
    const text = buildComment({
      result: judgedRun([nasty]),
      changed: '',
      links: { run: RUN },
    });
    assert.deepEqual(liveMarkup(text, [RUN]), []);
    assert.deepEqual(layoutProblems(text), []);
  });
});
