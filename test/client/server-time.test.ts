// client.serverTime(): the service's clock as the Date header of its last answer gave it (any
// status), so a caller can compare the service's timestamps with the service's time.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createClient } from '../../src/client/index.js';
import { NotFoundError } from '../../src/client/errors.js';
import { startEmulator } from '../emulator/emulator.js';
import type { Emulator } from '../emulator/types.js';

/** A whole second far from this machine's clock; the emulator clock stands still there. */
const EPOCH_MS = Date.UTC(2022, 0, 2, 3, 4, 5);

describe('client: serverTime()', () => {
  let emu: Emulator;
  before(async () => {
    emu = await startEmulator({ seed: 43, clockSpeed: 0, epochMs: EPOCH_MS });
  });
  after(() => emu.close());

  it('is undefined before any answer, then the Date of the last answer, error answers too', async () => {
    const client = createClient({ apiKey: emu.apiKey, baseUrl: emu.url });
    try {
      assert.equal(client.serverTime?.(), undefined);
      const before = Date.now();
      await client.tenants.me();
      const first = client.serverTime?.();
      assert.equal(first?.serverMs, EPOCH_MS);
      assert.ok((first?.observedAtLocalMs ?? 0) >= before, "this machine's time of the answer");
      emu.advance(5_000);
      await assert.rejects(client.scans.get('no-such-scan'), NotFoundError);
      assert.equal(client.serverTime?.()?.serverMs, EPOCH_MS + 5_000);
    } finally {
      await client.close();
    }
  });
});
