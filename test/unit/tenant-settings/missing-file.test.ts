// No tenant settings file: one line before any request that says how to name another, with the
// setting each face has for it (the CLI's --file, the settings sub-action's input 'file').
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { main } from '../../../src/cli/run.js';
import { FILE_INPUT } from '../../../src/github/settings/inputs.js';
import { prepareSettings } from '../../../src/pipeline/tenant-settings/run.js';
import { ROOT } from '../../cli/helpers.js';

const ENV = {
  SERVICE_API_KEY: `ak_live_${'a'.repeat(40)}`,
  SERVICE_API_URL: 'https://127.0.0.1:9/v1',
};

describe('a tenant settings file that is not there', () => {
  it('the CLI: name another with --file', async () => {
    const stderr = new PassThrough();
    let said = '';
    stderr.on('data', (chunk: Buffer) => (said += chunk.toString()));
    const io = { stdout: new PassThrough(), stderr, env: ENV };
    const code = await main(
      ['tenant', 'plan', '--file', 'no/such.yml'],
      io,
      new AbortController().signal,
    );
    assert.equal(code, 1);
    assert.equal(
      said,
      'tenant-scan: error: Sanity checks failed: cannot read the tenant settings file no/such.yml (no such file): create it (see docs/tenant-settings.md) or name another with --file <path>\n',
    );
  });

  it("the settings sub-action: name another with its input 'file'", async () => {
    const inputs = parse(readFileSync(`${ROOT}/settings/action.yml`, 'utf8')) as { inputs: object };
    assert.ok(
      Object.keys(inputs.inputs).includes(/'(.+)'/.exec(FILE_INPUT)?.[1] ?? ''),
      FILE_INPUT,
    );
    const error = await prepareSettings('/no/such.yml', {}, [], FILE_INPUT).catch(
      (e: unknown) => e,
    );
    assert.match(String(error), /or name another with input 'file'$/);
  });
});
