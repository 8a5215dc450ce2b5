// The handover (src/cli/store-handover.ts) that starts a store command: cut its input at any byte
// (tenant-scan killed outright while starting it) and the store command never runs; give it whole
// and the store command reads exactly the key, whatever its bytes. Real processes: the handover
// run with this Node, the store-command stand-in as `glab`.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import {
  HANDOVER_SOURCE,
  INCOMPLETE_STATUS,
  handoverFrame,
  parseHandoverReport,
  type HandoverReport,
} from '../../src/cli/store-handover.js';
import { propertyParameters } from '../helpers/property.js';

const STANDIN = fileURLToPath(new URL('../fixtures/store-command/standin.mjs', import.meta.url));

interface Ended {
  status: number | null;
  report: HandoverReport | undefined;
}

/** Runs the handover over `glab variable update K` in `home`, with `input` on its stdin. */
function runHandover(bin: string, home: string, input: Buffer): Promise<Ended> {
  const child = spawn(
    process.execPath,
    ['-e', HANDOVER_SOURCE, '--', 'glab', 'variable', 'update', 'K'],
    {
      env: { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home },
      stdio: ['pipe', 'ignore', 'ignore', 'pipe'],
    },
  );
  const reported: Buffer[] = [];
  child.stdio[3]?.on('data', (chunk: Buffer) => reported.push(chunk));
  child.stdin?.end(input);
  const deadline = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.on('close', (status) => {
      clearTimeout(deadline);
      resolve({ status, report: parseHandoverReport(Buffer.concat(reported).toString('utf8')) });
    }),
  );
}

/** What the stand-in stored last, or undefined when it never ran. */
function stored(home: string): string | undefined {
  const file = join(home, 'glab.json');
  if (!existsSync(file)) return undefined;
  const state = JSON.parse(readFileSync(file, 'utf8')) as { calls: Array<{ value: string }> };
  return state.calls.at(-1)?.value;
}

/** Keys as a store may get them: the service's shape, and any text (multi-byte, colons, newlines). */
const keyArbitrary = fc.oneof(
  fc.stringMatching(/^ak_live_[A-Za-z0-9]{8,48}$/),
  fc.string({ minLength: 1, maxLength: 64, unit: 'binary' }),
);

describe('the store command handover', () => {
  let dir: string;
  let bin: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'store-handover-'));
    bin = join(dir, 'bin');
    mkdirSync(bin);
    copyFileSync(STANDIN, join(bin, 'glab'));
    chmodSync(join(bin, 'glab'), 0o755);
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  let runs = 0;
  const freshHome = () => {
    const home = join(dir, `home-${runs++}`);
    mkdirSync(home);
    return home;
  };

  it('input cut at any byte: the store command never runs, the handover says so', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary.chain((key) => {
          const frame = Buffer.from(handoverFrame(key), 'utf8');
          return fc.tuple(fc.constant(frame), fc.integer({ min: 0, max: frame.length - 1 }));
        }),
        async ([frame, cut]) => {
          const home = freshHome();
          const ended = await runHandover(bin, home, frame.subarray(0, cut));
          assert.equal(ended.status, INCOMPLETE_STATUS);
          assert.deepEqual(ended.report, { incomplete: true });
          assert.equal(existsSync(join(home, 'glab.pid')), false, 'the store command ran');
        },
      ),
      propertyParameters(12),
    );
  });

  it('input whole: the store command reads exactly the key, and its end is reported', async () => {
    await fc.assert(
      fc.asyncProperty(keyArbitrary, async (key) => {
        const home = freshHome();
        const ended = await runHandover(bin, home, Buffer.from(handoverFrame(key), 'utf8'));
        assert.deepEqual(ended.report, { code: 0, signal: null });
        assert.equal(stored(home), key);
      }),
      propertyParameters(8),
    );
  });

  it('a frame that says more or fewer bytes than follow is not whole', async () => {
    for (const input of ['10:ak_live_x', '8:ak_live_x', ':ak_live_x', '0:', '01:a', 'x:ak']) {
      const home = freshHome();
      const ended = await runHandover(bin, home, Buffer.from(input));
      assert.deepEqual(ended.report, { incomplete: true }, input);
      assert.equal(existsSync(join(home, 'glab.pid')), false, input);
    }
  });

  it('a store command that cannot start is reported as such', async () => {
    const home = freshHome();
    const missing = spawn(
      process.execPath,
      ['-e', HANDOVER_SOURCE, '--', 'no-such-store-tool-here', 'x'],
      { env: { PATH: bin, HOME: home }, stdio: ['pipe', 'ignore', 'ignore', 'pipe'] },
    );
    const reported: Buffer[] = [];
    missing.stdio[3]?.on('data', (chunk: Buffer) => reported.push(chunk));
    missing.stdin?.end(handoverFrame('ak_live_abcdefgh'));
    await new Promise((resolve) => missing.on('close', resolve));
    assert.deepEqual(parseHandoverReport(Buffer.concat(reported).toString('utf8')), {
      error: 'ENOENT',
    });
  });
});
