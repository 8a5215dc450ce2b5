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

/** Runs the handover over `glab variable update K`, with `input` on its stdin. */
function runHandover(input: Buffer): Promise<Ended> {
  const child = spawn(
    process.execPath,
    ['-e', HANDOVER_SOURCE, '--', 'glab', 'variable', 'update', 'K'],
    {
      env: {}, // as tenant-scan starts it: the store command's environment is in the frame
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

/** The frame tenant-scan writes: the key, and the stand-in's PATH and HOME. */
function frameOf(key: string, bin: string, home: string): Buffer {
  return Buffer.from(handoverFrame(key, { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home }));
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

  let homes = 0;
  const freshHome = () => {
    const home = join(dir, `home-${homes++}`);
    mkdirSync(home);
    return home;
  };

  it('input cut at any byte: the store command never runs, the handover says so', async () => {
    await fc.assert(
      fc.asyncProperty(
        keyArbitrary.chain((key) => {
          const home = freshHome();
          const frame = frameOf(key, bin, home);
          return fc.tuple(
            fc.constant(home),
            fc.constant(frame),
            fc.integer({ min: 0, max: frame.length - 1 }),
          );
        }),
        async ([home, frame, cut]) => {
          const ended = await runHandover(frame.subarray(0, cut));
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
        const ended = await runHandover(frameOf(key, bin, home));
        assert.deepEqual(ended.report, { code: 0, signal: null });
        assert.equal(stored(home), key);
      }),
      propertyParameters(8),
    );
  });

  it('a frame that says more or fewer bytes than follow, or does not hold a key and an environment, is not whole', async () => {
    const home = freshHome();
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home };
    const body = JSON.stringify({ key: 'ak_live_abcdefgh', env });
    const framed = (text: string) => `${Buffer.byteLength(text)}:${text}`;
    const inputs = [
      `${body.length + 1}:${body}`,
      `${body.length - 1}:${body}`,
      `:${body}`,
      `0${body.length}:${body}`,
      body,
      framed('ak_live_abcdefgh'),
      framed(JSON.stringify({ key: '', env })),
      framed(JSON.stringify({ key: 'ak_live_abcdefgh' })),
      framed(JSON.stringify({ key: 'ak_live_abcdefgh', env: null })),
      framed(JSON.stringify({ key: 7, env })),
    ];
    for (const input of inputs) {
      const ended = await runHandover(Buffer.from(input));
      assert.deepEqual(ended.report, { incomplete: true }, input);
      assert.equal(existsSync(join(home, 'glab.pid')), false, input);
    }
    assert.deepEqual((await runHandover(Buffer.from(framed(body)))).report, {
      code: 0,
      signal: null,
    });
    assert.equal(stored(home), 'ak_live_abcdefgh');
  });

  it('a store command that cannot start is reported as such', async () => {
    const missing = spawn(
      process.execPath,
      ['-e', HANDOVER_SOURCE, '--', 'no-such-store-tool-here', 'x'],
      { env: {}, stdio: ['pipe', 'ignore', 'ignore', 'pipe'] },
    );
    const reported: Buffer[] = [];
    missing.stdio[3]?.on('data', (chunk: Buffer) => reported.push(chunk));
    missing.stdin?.end(handoverFrame('ak_live_abcdefgh', { PATH: bin }));
    await new Promise((resolve) => missing.on('close', resolve));
    assert.deepEqual(parseHandoverReport(Buffer.concat(reported).toString('utf8')), {
      error: 'ENOENT',
    });
  });
});
