// The CLI's output at the caps (issue 46, audit row 5): a table of 150,000 rows is drawn (its column
// widths once were Math.max(...cells), a stack overflow past ~120,000), and --output json builds
// and prints only the JSON, in pieces, never the table.
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { describe, it } from 'node:test';
import { printOutput, record, table } from '../../../src/cli/render.js';

const ROWS = 150_000;

function sink(): Writable & { text: () => string; writes: number } {
  const parts: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      parts.push(chunk.toString('utf8'));
      done();
    },
  }) as Writable & { text: () => string; writes: number };
  stream.text = () => parts.join('');
  Object.defineProperty(stream, 'writes', { get: () => parts.length });
  return stream;
}

describe('CLI output of 150,000 rows', () => {
  const rows = Array.from({ length: ROWS }, (_, i) => ({ id: `f-${i}`, title: `Check ${i}` }));

  it('a table and a record of many fields are drawn', () => {
    const text = table(rows, [
      { header: 'id', value: (r) => r.id },
      { header: 'title', value: (r) => r.title },
    ]);
    assert.equal(text.split('\n').length, ROWS + 2);
    assert.match(text, /^ID {6}/);
    const fields = rows.map((r): [string, unknown] => [r.id, r.title]);
    assert.equal(record(fields).split('\n').length, ROWS + 1);
  });

  it('--output json prints the JSON whole, in pieces, and never builds the table', async () => {
    const stream = sink();
    await printOutput(stream, 'json', {
      json: () => rows,
      text: () => assert.fail('the table was built for --output json'),
    });
    assert.ok(stream.writes > 2, `${stream.writes} writes`);
    assert.equal((JSON.parse(stream.text()) as unknown[]).length, ROWS);
  });

  it('a table does not build the JSON', async () => {
    const stream = sink();
    await printOutput(stream, 'table', {
      json: () => assert.fail('the JSON was built for a table'),
      text: 'the table\n',
    });
    assert.equal(stream.text(), 'the table\n');
  });
});
