// The store command's output, shown when it fails: never a key, whether the one it was given, a
// secret known so far or any other key-shaped token it printed (the write and the read alike); and
// the command as a process: done when it exits, its group killed at its deadline.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CommandStore } from '../../src/cli/store-command.js';
import { containsSecret } from '../helpers/secret-scan.js';
import { StoreError } from '../../src/pipeline/rotation/store.js';
import { alive } from '../helpers/process-alive.js';

const NEW_KEY = `ak_live_${'n'.repeat(40)}`;
const KEY_IN_USE = `ak_live_${'u'.repeat(40)}`;
const OTHER_KEY = `ak_live_${'o'.repeat(40)}`;

/** A command (node -e) that prints `lines` on stderr and exits 3; a write's reads its stdin first. */
function careless(lines: string[]): string[] {
  const script = `
    const chunks = [];
    process.stdin.on('data', (c) => chunks.push(c));
    process.stdin.on('end', () => {
      const got = Buffer.concat(chunks).toString();
      process.stderr.write(${JSON.stringify(lines.join('\n'))}.replace('GOT', got) + '\\n');
      process.exit(3);
    });`;
  return [process.execPath, '-e', script];
}

function store(argv: string[], notes: string[], readArgv?: string[]): CommandStore {
  return new CommandStore(argv, { PATH: process.env.PATH ?? '' }, (line) => notes.push(line), {
    secrets: [KEY_IN_USE],
    ...(readArgv ? { readArgv } : {}),
  });
}

describe('CommandStore: what a failed store command printed', () => {
  it('a write shows its last lines without the new key, a known secret or any key shape', async () => {
    const notes: string[] = [];
    const printed = ['got GOT', `old ${KEY_IN_USE}`, `another ${OTHER_KEY}`, 'done'];
    const command = store(careless(printed), notes);
    await assert.rejects(command.write(NEW_KEY), (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(error.message, 'the store command exited with status 3');
      return true;
    });
    assert.deepEqual(notes, [
      'store command: got [redacted]',
      'store command: old [redacted]',
      'store command: another ak_live_[redacted]',
      'store command: done',
    ]);
  });

  it('a read says its last stderr line without any key shape', async () => {
    const notes: string[] = [];
    const read = careless([`cannot read ${OTHER_KEY}`]);
    const command = store(careless([]), notes, read);
    assert.ok(command.readHeld);
    await assert.rejects(command.readHeld(), {
      message: 'the store read command exited with status 3: cannot read ak_live_[redacted]',
    });
  });

  it('killed by a signal, what it printed shows no key it holds in any form (base64, hex, reversed, split)', async () => {
    const NEW_PART = 'Zq7Lm3Xv9Rt2Wp5Ns8Kd4Hf6Jb1Gc0YeTuIoPaS';
    const MIXED_KEY = `ak_live_${NEW_PART}`;
    const forms = [
      Buffer.from(KEY_IN_USE).toString('base64'),
      Buffer.from(`held=${KEY_IN_USE}`).toString('base64url'),
      Buffer.from(MIXED_KEY).toString('hex'),
      [...KEY_IN_USE].reverse().join(''),
      // The new key's secret part split across two lines: neither half is a key shape.
      `${NEW_PART.slice(0, 20)}\n${NEW_PART.slice(20)}`,
    ];
    // Prints every form on stderr (the last on its own line), then kills itself.
    const script = `process.stdin.resume(); process.stderr.write(${JSON.stringify(forms.join('\n'))} + '\\n', () => process.kill(process.pid, 'SIGTERM'));`;
    const killed = [process.execPath, '-e', script];
    const notes: string[] = [];
    const write = store(killed, notes);
    await assert.rejects(write.write(MIXED_KEY), /the store command was stopped \(SIGTERM\)/);
    // The rotation's store knows every key the run holds by then (the new one too).
    const read = new CommandStore(
      careless([]),
      { PATH: process.env.PATH ?? '' },
      (l) => notes.push(l),
      {
        secrets: [KEY_IN_USE, MIXED_KEY],
        readArgv: killed,
      },
    );
    assert.ok(read.readHeld);
    const error = await read.readHeld().then(
      () => assert.fail('the read was stopped'),
      (e: unknown) => e as Error,
    );
    assert.match(error.message, /^the store read command was stopped \(SIGTERM\): /);
    assert.ok(notes.length >= forms.length - 1, notes.join('\n'));
    for (const text of [...notes, error.message]) {
      for (const key of [KEY_IN_USE, MIXED_KEY]) assert.ok(!containsSecret(text, key), text);
      assert.ok(!text.includes(NEW_PART.slice(20)), `half the key split across lines: ${text}`);
    }
  });
});

/** A node command that starts a helper holding its output (pid on stderr's first line), then
 *  prints `printed` and exits, or never exits when `hang`. */
function withHelper(printed: string, hang: boolean): string[] {
  const script = `
    const { spawn } = require('node:child_process');
    const helper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'inherit' });
    require('node:fs').writeFileSync(process.env.HOME + '/helper.pid', String(helper.pid));
    process.stdout.write(${JSON.stringify(printed)});
    process.stdin.resume();
    process.stdin.on('end', () => { if (!${hang}) process.exit(0); });
    if (!${hang}) setTimeout(() => process.exit(0), 10);`;
  return [process.execPath, '-e', script];
}

describe('CommandStore: a command is done when it exits, and killed as a group at its deadline', () => {
  const home = mkdtempSync(join(tmpdir(), 'store-command-'));
  after(() => rmSync(home, { recursive: true, force: true }));
  const env = { PATH: process.env.PATH ?? '', HOME: home };
  const helper = () => Number(readFileSync(join(home, 'helper.pid'), 'utf8'));

  it('a read that prints the key and leaves a child holding its stdout: read at once', async () => {
    const command = new CommandStore(withHelper('x', false), env, () => undefined, {
      readArgv: withHelper(NEW_KEY, false),
      timeoutMs: 20_000,
    });
    const started = Date.now();
    assert.equal(await command.readHeld?.(), NEW_KEY);
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
    const pid = helper();
    assert.ok(alive(pid), 'the child it left is not killed: the command exited');
    process.kill(pid, 'SIGKILL');
  });

  it('a write still running at its deadline: its whole group is killed, and it may have stored', async () => {
    const command = new CommandStore(withHelper('', true), env, () => undefined, {
      timeoutMs: 300,
    });
    const started = Date.now();
    await assert.rejects(command.write(NEW_KEY), (error: unknown) => {
      assert.ok(error instanceof StoreError);
      assert.equal(error.message, 'the store command did not exit within 0.3 s');
      assert.equal(error.mayHaveStored, true);
      return true;
    });
    assert.ok(Date.now() - started < 5_000, `${Date.now() - started} ms`);
    const pid = helper();
    for (let i = 0; i < 40 && alive(pid); i++) await new Promise((r) => setTimeout(r, 25));
    assert.equal(alive(pid), false, 'the child it started was killed with it');
  });
});
