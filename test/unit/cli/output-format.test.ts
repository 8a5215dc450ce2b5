// A bad --output (or SERVICE_OUTPUT) is one line before any request; it points at -o/--out for a
// report file only on a command whose -o writes one (scan run, report download), never on one
// that has no -o (tenant me) or whose --out is something else (tenant plan's saved plan).
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { main } from '../../../src/cli/run.js';

async function errorOf(argv: string[], env: Record<string, string> = {}): Promise<string> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let said = '';
  stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
  const code = await main(argv, { stdout, stderr, env }, new AbortController().signal);
  assert.equal(code, 1);
  return said.trim();
}

const BAD = 'tenant-scan: error: Sanity checks failed: --output must be table or json, got "yaml"';

describe('a bad output format', () => {
  it('names -o/--out only where -o writes a report file', async () => {
    assert.equal(await errorOf(['tenant', 'me', '--output', 'yaml']), BAD);
    assert.equal(await errorOf(['tenant', 'plan', '--output', 'yaml']), BAD);
    assert.equal(
      await errorOf(['tenant', 'me'], { SERVICE_OUTPUT: 'yaml' }),
      'tenant-scan: error: Sanity checks failed: SERVICE_OUTPUT must be table or json, got "yaml"',
    );
    const hint = `${BAD}; a report file is -o/--out <file>`;
    assert.equal(await errorOf(['scan', 'run', '--type', 'x', '--output', 'yaml']), hint);
    assert.equal(await errorOf(['report', 'download', 'id-1', '--output', 'yaml']), hint);
  });
});
