import { strict as assert } from 'node:assert';
import { describe, test } from 'node:test';
import { parseFileCommands, parseWorkflowCommands, toAnnotations } from './workflow-commands.js';

describe('file commands', () => {
  test('reads name=value and heredoc entries; later entries win', () => {
    const text = 'a=1\nb<<EOF_1\nx\n\ny=z\nEOF_1\na=2\n';
    assert.deepEqual(parseFileCommands(text), { a: '2', b: 'x\n\ny=z' });
  });
  test('a heredoc without its delimiter is an error, as on the runner', () => {
    assert.throws(() => parseFileCommands('b<<EOF\nx\n'), /no closing delimiter/);
  });
});

describe('workflow commands', () => {
  test('unescapes data and properties', () => {
    const [command] = parseWorkflowCommands('::error file=a%2Cb.txt,title=x%3Ay::50%25%0Adone');
    assert.deepEqual(command, {
      name: 'error',
      properties: { file: 'a,b.txt', title: 'x:y' },
      message: '50%\ndone',
      stream: 'stdout',
    });
  });
  test('ignores commands between stop-commands and its token', () => {
    const text = '::stop-commands::t1\n::error::no\n::t1::\n::warning::yes';
    assert.deepEqual(
      parseWorkflowCommands(text).map((c) => c.name),
      ['warning'],
    );
  });
  test('caps each level separately at 10 and flags messages over 4,096 characters', () => {
    const lines = [
      ...Array.from({ length: 11 }, () => '::warning::w'),
      '::notice::' + 'n'.repeat(4097),
    ];
    const annotations = toAnnotations(parseWorkflowCommands(lines.join('\n')));
    assert.equal(annotations.filter((a) => a.overStepCap).length, 1);
    assert.equal(annotations.at(-1)?.overStepCap, false);
    assert.equal(annotations.at(-1)?.overMessageLimit, true);
  });
});
