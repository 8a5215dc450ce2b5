// readTenantScanState: a tenant's saved scan as the runner hands it back (STATE_<name>): only JSON
// of our shape with a scan id, or a trigger window, is used; anything else throws, and nothing in
// it is used. savingTenantScans: what the main step writes (GITHUB_STATE), the runner keeping the
// last value of each name.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'node:test';
import type { PendingTrigger } from '../../../src/pipeline/job/types.js';
import {
  readTenantScanState,
  savingTenantScans,
  tenantStateName,
  TENANT_PENDING_IDS_MAX,
} from '../../../src/github/tenants/state.js';
import { MAX_EXISTING_SCAN_ID_LENGTH } from '../../../src/pipeline/job/lost-trigger.js';
import { parseFileCommands } from '../../helpers/workflow-commands.js';

const NAME = `STATE_${tenantStateName('acme')}`;

describe('readTenantScanState', () => {
  afterEach(() => delete process.env[NAME]);

  it('reads a saved scan id and its settled flag; nothing saved is undefined', () => {
    assert.equal(readTenantScanState('acme'), undefined);
    process.env[NAME] = JSON.stringify({ scanId: 'scan_123', settled: true });
    assert.deepEqual(readTenantScanState('acme'), {
      kind: 'scan',
      scanId: 'scan_123',
      settled: true,
    });
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

const PENDING: PendingTrigger = {
  scanType: 'compliance',
  windowStartMs: 1_790_000_000_000,
  clock: 'server',
  existing: { ids: ['scan_old'], sinceMs: 1_789_999_700_000 },
};

/** Runs `steps` against a fresh GITHUB_STATE file; the last value each name was given. */
function savedBy(steps: (observer: ReturnType<typeof savingTenantScans>) => void) {
  const dir = mkdtempSync(join(tmpdir(), 'tenant-scan-state-'));
  const file = join(dir, 'state');
  writeFileSync(file, ''); // the runner makes the file before the step starts
  const before = process.env.GITHUB_STATE;
  process.env.GITHUB_STATE = file;
  try {
    steps(savingTenantScans());
    return parseFileCommands(readFileSync(file, 'utf8'));
  } finally {
    if (before === undefined) delete process.env.GITHUB_STATE;
    else process.env.GITHUB_STATE = before;
    rmSync(dir, { recursive: true, force: true });
  }
}

/** What the post step reads from the value the runner kept. */
function readBack(state: Record<string, string>) {
  const name = tenantStateName('acme');
  if (state[name] === undefined) return 'nothing saved';
  process.env[NAME] = state[name];
  return readTenantScanState('acme');
}

describe('savingTenantScans', () => {
  afterEach(() => delete process.env[NAME]);

  it('a step killed with its trigger in flight leaves the trigger, with the scans listed before it', () => {
    const state = savedBy((saving) => saving.pending('acme', PENDING));
    assert.deepEqual(readBack(state), { kind: 'pending', pending: PENDING });
  });

  it('the answer replaces the trigger, and clearing the trigger after it keeps the scan id', () => {
    const state = savedBy((saving) => {
      saving.pending('acme', PENDING);
      saving.triggered('acme', 'scan_new');
      saving.pending('acme', undefined);
    });
    assert.deepEqual(readBack(state), { kind: 'scan', scanId: 'scan_new', settled: false });
  });

  it('a trigger that proved no scan started is cleared: nothing left to look up', () => {
    const state = savedBy((saving) => {
      saving.pending('acme', PENDING);
      saving.pending('acme', undefined);
    });
    assert.equal(readBack(state), undefined);
  });

  it("each tenant's trigger is its own: one tenant's answer does not keep another's trigger", () => {
    const state = savedBy((saving) => {
      saving.pending('acme', PENDING);
      saving.pending('globex', PENDING);
      saving.triggered('acme', 'scan_a');
      saving.pending('acme', undefined);
      saving.pending('globex', undefined);
    });
    assert.deepEqual(readBack(state), { kind: 'scan', scanId: 'scan_a', settled: false });
    assert.equal(state[tenantStateName('globex')], '', 'globex: cleared');
  });

  it('keeps few scan ids in a window: 500 tenants in flight fit in the post step environment', () => {
    const saving = savingTenantScans();
    assert.equal(saving.pendingIdsMax, TENANT_PENDING_IDS_MAX);
    const longest = 'x'.repeat(MAX_EXISTING_SCAN_ID_LENGTH);
    const ids = Array.from({ length: TENANT_PENDING_IDS_MAX }, () => longest);
    const state = savedBy((s) => s.pending('acme', { ...PENDING, existing: { ids, sinceMs: 1 } }));
    const value = state[tenantStateName('acme')] ?? '';
    // Linux bounds a process's whole environment to 2 MiB; a tenant in flight takes at most this.
    assert.ok(500 * value.length < 512 * 1024, `${value.length} characters`);
  });

  it('a trigger window that is not ours is refused', () => {
    process.env[NAME] = JSON.stringify({ pending: { scanType: 'compliance', clock: 'server' } });
    assert.throws(() => readTenantScanState('acme'), {
      message: 'the saved trigger of tenant acme is not a trigger window',
    });
  });
});
