// The tenants list of `scan run --tenants` (and the reusable workflow's form): every problem at
// once, each naming its entry; a key pasted in place of a variable's name is refused, never echoed.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  SettingsError,
  parseTenantList,
  tenantJobsOf,
  DEFAULT_GATE,
  MAX_TENANTS,
} from '../../../src/pipeline/index.js';

const TEMPLATE = {
  scanType: 'compliance',
  wait: true,
  scanTimeoutMs: 60_000,
  failOnFindings: true,
  gate: DEFAULT_GATE,
  report: 'none' as const,
  reportPath: '',
};

function problemsOf(text: string): string[] {
  try {
    parseTenantList('--tenants', text);
  } catch (error) {
    if (error instanceof SettingsError) return error.problems;
    if (error instanceof Error) return [error.message];
  }
  return [];
}

describe('the tenants list', () => {
  it('reads the workflow form; api-url is optional', () => {
    const list = parseTenantList(
      '--tenants',
      JSON.stringify([
        { name: 'contoso', 'api-url': 'https://api.example.com/v1/', secret: 'CONTOSO_API_KEY' },
        { name: 'fab.rikam-2', secret: 'FABRIKAM' },
      ]),
    );
    assert.deepEqual(list, [
      { name: 'contoso', apiUrl: 'https://api.example.com/v1', secret: 'CONTOSO_API_KEY' },
      { name: 'fab.rikam-2', apiUrl: undefined, secret: 'FABRIKAM' },
    ]);
  });

  it('every problem at once, each naming its entry', () => {
    const problems = problemsOf(
      JSON.stringify([
        { name: 'a', secret: 'ak_live_pasted0000key' },
        { name: '../up', secret: 'X' },
        { name: 'b', secret: 'X', 'api-key': 'ak_live_x' },
        { name: 'c', secret: 'NOT A NAME' },
        { name: 'd', secret: 'D', 'api-url': 'http://example.com' },
        { name: 'ok', secret: 'OK' },
        { name: 'OK', secret: 'Y' },
        'contoso',
      ]),
    );
    assert.equal(problems.length, 7, problems.join('\n'));
    assert.match(
      problems[0] ?? '',
      /entry 1 \(a\): secret must name the variable .* not the key itself/,
    );
    assert.match(problems[1] ?? '', /entry 2: name must be/);
    assert.match(problems[2] ?? '', /entry 3 has unknown field "api-key"/);
    assert.match(problems[3] ?? '', /entry 4 \(c\): secret must be a variable name/);
    assert.match(problems[4] ?? '', /entry 5 \(d\) api-url must use https/);
    assert.match(problems[5] ?? '', /entry 8 must be an object/);
    assert.match(problems[6] ?? '', /names tenant OK twice/);
    assert.ok(
      problems.every((line) => !line.includes('ak_live_pasted')),
      'a key is never echoed',
    );
  });

  it("secret-name: the caller's secret behind a variable, named in a missing key's line, never a key", () => {
    const list = parseTenantList(
      '--tenants',
      JSON.stringify([
        { name: 'contoso', secret: 'TENANT_SCAN_KEY_1', 'secret-name': 'CONTOSO_KEY' },
      ]),
    );
    assert.equal(list[0]?.secretName, 'CONTOSO_KEY');
    const jobs = tenantJobsOf(list, {}, TEMPLATE, '/tmp/records');
    assert.equal(
      jobs[0]?.problem,
      'secret CONTOSO_KEY (given as TENANT_SCAN_KEY_1) is required: pass the API key from a secret',
    );
    const own = tenantJobsOf(
      parseTenantList('--tenants', JSON.stringify([{ name: 'fabrikam', secret: 'KEY_FABRIKAM' }])),
      {},
      TEMPLATE,
      '/tmp/records',
    );
    assert.equal(own[0]?.problem, 'no API key — set KEY_FABRIKAM (from a CI secret)');
    const problems = problemsOf(
      JSON.stringify([
        { name: 'a', secret: 'A', 'secret-name': 'ak_live_pasted0000key' },
        { name: 'b', secret: 'B', 'secret-name': 7 },
      ]),
    );
    assert.equal(problems.length, 2, problems.join('\n'));
    assert.match(problems[0] ?? '', /entry 1 \(a\): secret-name must name the variable/);
    assert.match(problems[1] ?? '', /entry 2 \(b\): secret-name must be a string/);
    assert.ok(!problems.join('\n').includes('ak_live_pasted'), 'a key is never echoed');
  });

  it('refuses what is not a non-empty list, and a list too long', () => {
    assert.match(problemsOf('{')[0] ?? '', /is not JSON/);
    assert.match(problemsOf('[]')[0] ?? '', /non-empty JSON list/);
    const many = Array.from({ length: MAX_TENANTS + 1 }, (_, i) => ({
      name: `t${i}`,
      secret: 'K',
    }));
    assert.match(problemsOf(JSON.stringify(many))[0] ?? '', /split the list/);
  });
});
