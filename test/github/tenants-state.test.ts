// readTenantScanState: a tenant's saved scan as the runner hands it back (STATE_<name>): only JSON
// of our shape with a scan id is used; anything else throws, and nothing in it is used.
import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { readTenantScanState, tenantStateName } from '../../src/github/tenants-state.js';

const NAME = `STATE_${tenantStateName('acme')}`;

describe('readTenantScanState', () => {
  afterEach(() => delete process.env[NAME]);

  it('reads a saved scan id and its settled flag; nothing saved is undefined', () => {
    assert.equal(readTenantScanState('acme'), undefined);
    process.env[NAME] = JSON.stringify({ scanId: 'scan_123', settled: true });
    assert.deepEqual(readTenantScanState('acme'), { scanId: 'scan_123', settled: true });
  });

  it('refuses a value that is not an object of that shape', () => {
    const refused = /^the saved state of tenant acme is not a scan id and a settled flag$/;
    // Each value but the first four carries both keys, so only the check it names refuses it.
    for (const raw of [
      'not json',
      'null',
      '42',
      '"scan_1"',
      '{"scanId":"scan_1"}',
      '{"scanId":42,"settled":true}', // the id is not text
      '{"scanId":"scan_1","settled":"true"}', // the flag is not a boolean
      '{"scanId":null,"settled":false}',
    ]) {
      process.env[NAME] = raw;
      assert.throws(() => readTenantScanState('acme'), { message: refused }, raw);
    }
  });

  it('refuses an id that is not a scan id: nothing of it reaches a request path', () => {
    process.env[NAME] = JSON.stringify({ scanId: '../../admin', settled: false });
    assert.throws(() => readTenantScanState('acme'), {
      message:
        'the saved scan of tenant acme must be a scan id (letters, digits, - and _), got "../../admin"',
    });
    process.env[NAME] = JSON.stringify({ scanId: '  ', settled: false });
    assert.throws(() => readTenantScanState('acme'), {
      message: 'the saved state of tenant acme has no scan id',
    });
  });
});
