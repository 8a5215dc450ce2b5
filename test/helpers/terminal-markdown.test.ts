// scripts/terminal-markdown.ts, what `npm run demo` shows a job summary with: the text a reader of
// the rendered Markdown sees, never the escapes that keep service text inert.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { terminalMarkdown } from '../../scripts/terminal-markdown.js';

describe('terminalMarkdown', () => {
  it('drops escapes and markup; a heading is underlined; a link keeps its address', () => {
    const text = terminalMarkdown(
      '## ❌ Tenant scan failed\\: 1 new critical finding\n\n**Fixed:** `CIS-2.1.1` at 2026\\-11\\-26T06\\:34\\:37\\.106Z\n\n**Report:** [report\\.pdf](https://example.com/a/1)\n\n<!-- tenant-scan:marker -->\n',
    );
    assert.equal(
      text,
      [
        '❌ Tenant scan failed: 1 new critical finding',
        '═'.repeat(45), // the emoji takes two cells
        '',
        'Fixed: CIS-2.1.1 at 2026-11-26T06:34:37.106Z',
        '',
        'Report: report.pdf <https://example.com/a/1>',
      ].join('\n'),
    );
  });

  it('aligns a table that fits; shows a wide one row by row, header: value', () => {
    const narrow = terminalMarkdown(
      '| Detail | Value |\n|---|---|\n| Tenant | Contoso \\| Ltd |\n| Checks | 40 |\n',
    );
    assert.equal(narrow, 'Detail  Value\n──────  ─────────────\nTenant  Contoso | Ltd\nChecks  40');
    const long = 'Create dedicated cloud-only accounts for administrative roles. '.repeat(3).trim();
    const wide = terminalMarkdown(
      `| Finding | Category | Remediation |\n|---|---|---|\n| Admins are cloud-only (\`CIS-1.1.1\`) | Identity | ${long} |\n`,
    );
    const lines = wide.split('\n');
    assert.equal(lines[0], '• Admins are cloud-only (CIS-1.1.1)');
    assert.equal(lines[1], '    Category: Identity');
    assert.match(lines[2] ?? '', /^ {4}Remediation: Create dedicated/);
    assert.ok(
      lines.every((line) => [...line].length <= 100),
      wide,
    );
  });

  it('shows a table of facts too wide to align one fact a line, name: value', () => {
    const coverage =
      'lost 6 of the baseline’s 40 checks (15 %), more than max-coverage-drop 10 %: '.repeat(2);
    const text = terminalMarkdown(
      `| Detail | Value |\n|---|---|\n| Completed | 2026-11-29T02:00:00Z |\n| Coverage | ${coverage.trim()} |\n`,
    );
    const lines = text.split('\n');
    assert.equal(lines[0], 'Completed: 2026-11-29T02:00:00Z');
    assert.match(lines[1] ?? '', /^Coverage: lost 6/);
    assert.ok(
      lines.slice(2).every((line) => line.startsWith('  ')),
      text,
    );
    assert.ok(
      lines.every((line) => [...line].length <= 100),
      text,
    );
  });

  it('lists become bullets', () => {
    assert.equal(terminalMarkdown('- one\n- two *stressed*\n'), '• one\n• two stressed');
  });
});
