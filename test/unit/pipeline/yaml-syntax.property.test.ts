// YAML syntax errors in plain words on the line of the cause (src/pipeline/common/yaml-syntax.ts):
// the mistakes newcomers make, each with the words a person needs; and, for any waivers file a
// slip of the keyboard breaks, one line that names a line of the file and no parser debris.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { SettingsError } from '../../../src/pipeline/common/settings-problems.js';
import { parseWaivers } from '../../../src/pipeline/gate/waivers-yaml.js';
import { propertyParameters } from '../../helpers/property.js';

function problem(text: string): string {
  try {
    parseWaivers('w.yml', text);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems.join('\n');
    throw error;
  }
  return '';
}

const VALID = [
  'waivers:',
  '  - check: CIS-1.1.3',
  '    reason: "Four global admins: until the break-glass accounts are live"',
  '    expires: 2026-12-03',
  '    owner: secops@contoso.example',
  '  - check: CIS-1.1.2',
  "    reason: 'Emergency accounts'",
  '    expires: 2026-11-25',
];

describe('YAML syntax errors, in plain words', () => {
  it('a key indented deeper than the one above: that line, and what to line it up with', () => {
    const text = 'waivers:\n  - check: A\n      reason: x\n    expires: 2026-12-01\n';
    assert.equal(
      problem(text),
      'w.yml line 3: this line is indented deeper than the one above it (6 spaces against 4): line it up with `check`; fix the YAML syntax',
    );
  });

  it('a key indented less than its entry', () => {
    assert.equal(
      problem('waivers:\n  - check: A\n   reason: x\n'),
      'w.yml line 3: this line is indented less than the entry above it (3 spaces against 4): line it up with `check`; fix the YAML syntax',
    );
  });

  it('a tab, a repeated key, a colon in a value, an unclosed quote, a missing colon', () => {
    const cases: Array<[string, string]> = [
      ['waivers:\n\t- check: A\n', 'line 2: a tab indents this line: YAML indents with spaces'],
      ['waivers:\n  - check: A\n    check: B\n', 'line 3: `check` is given twice here: keep one'],
      [
        'waivers:\n  - check: A\n    reason: see: the ticket\n',
        'line 3, column 13: a value holds a colon and a space: put it in quotes',
      ],
      [
        'waivers:\n  - check: "A\n    reason: x\n',
        'line 2: a quoted value is not closed: add the closing quote',
      ],
      [
        'waivers:\n  - check A\n    reason: x\n',
        'line 2: this line is not a "key: value" pair (the next line joins it): add a colon and a space after the key',
      ],
    ];
    for (const [text, says] of cases) {
      assert.equal(problem(text), `w.yml ${says}; fix the YAML syntax`, text);
    }
  });

  it('any slip that breaks the file: one line, a line of the file, no parser debris', () => {
    const slip = fc.oneof(
      fc.record({ kind: fc.constant('indent' as const), by: fc.integer({ min: -4, max: 6 }) }),
      fc.record({ kind: fc.constant('tab' as const) }),
      fc.record({ kind: fc.constant('drop' as const), char: fc.constantFrom(':', '"', "'", '-') }),
      fc.record({
        kind: fc.constant('insert' as const),
        text: fc.constantFrom(': ', '"', '[', '{'),
      }),
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(VALID.length - 1), slip, fc.nat(40)), {
          minLength: 1,
          maxLength: 3,
        }),
        (slips) => {
          const lines = [...VALID];
          for (const [index, change, at] of slips) {
            const line = lines[index] ?? '';
            if (change.kind === 'indent') {
              lines[index] = change.by >= 0 ? ' '.repeat(change.by) + line : line.slice(-change.by);
            } else if (change.kind === 'tab') {
              lines[index] = `\t${line.trimStart()}`;
            } else if (change.kind === 'drop') {
              const i = line.indexOf(change.char);
              if (i >= 0) lines[index] = line.slice(0, i) + line.slice(i + 1);
            } else {
              const i = Math.min(at, line.length);
              lines[index] = line.slice(0, i) + change.text + line.slice(i);
            }
          }
          const text = `${lines.join('\n')}\n`;
          if (parseDocument(text).errors.length === 0) return; // still YAML: not this property's
          const said = problem(text);
          assert.ok(said.includes('fix the YAML syntax'), said);
          assert.doesNotMatch(said, /\n|at line \d|:;|\^/);
          const line = Number(/^w\.yml line (\d+)/.exec(said)?.[1]);
          assert.ok(line >= 1 && line <= lines.length + 1, `${said}\n${text}`);
        },
      ),
      propertyParameters(300),
    );
  });
});
