// The API's Date header comes from the emulator clock, as a real server's comes from its own clock:
// a client that compares the service's timestamps with the service's time needs it (see
// src/pipeline/lost-trigger.ts). Every answer carries it: success, error, injected fault.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startEmulator } from './emulator.js';
import type { Emulator } from './types.js';
import { call } from './test-http.js';

/** A whole second, years before this machine's clock: a Date from the wall clock cannot match. */
const EPOCH_MS = Date.UTC(2021, 4, 6, 7, 8, 9);

describe('emulator: the Date header', () => {
  let emu: Emulator;
  before(async () => {
    // Clock speed 0: the emulator clock stands still at EPOCH_MS (plus advance()).
    emu = await startEmulator({ seed: 41, clockSpeed: 0, epochMs: EPOCH_MS });
  });
  after(() => emu.close());

  const dateOf = async (method: string, path: string) =>
    Date.parse((await call(emu, method, path)).headers.get('date') ?? '');

  it('is the emulator clock on a success, an error and an injected fault', async () => {
    assert.equal(await dateOf('GET', '/tenants/me'), EPOCH_MS);
    assert.equal(await dateOf('GET', '/scans/no-such-scan'), EPOCH_MS);
    emu.addFault({ route: 'GET /tenants/me', fault: { kind: 'status', status: 503 } });
    assert.equal(await dateOf('GET', '/tenants/me'), EPOCH_MS);
  });

  it('follows advance() and agrees with the createdAt of a scan made then', async () => {
    emu.advance(61_000);
    const reply = await call(emu, 'POST', '/tenants/me/scans', {
      body: { scanType: 'compliance' },
    });
    assert.equal(Date.parse(reply.headers.get('date') ?? ''), EPOCH_MS + 61_000);
    assert.equal(Date.parse(reply.body?.data?.createdAt), EPOCH_MS + 61_000);
  });
});
